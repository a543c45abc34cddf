"""`medhalbench dahl filter`: the builder's checks on any question set, from the command line."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import read_csv
from medhalbench._errors import ResourceUnavailableError
from medhalbench.cli import cli
from medhalbench.dahl.builder import _learned

QUESTIONS = [
    ("What is the mechanism of action of metformin?", "pharmacology"),
    ("Analyze the role of IL-6 in cytokine storm.", "immunology"),
    ("How was the control group selected?", "medicine"),
    ("What adverse events were observed after the second dose?", "medicine"),
    ("Based on the case presented, what is the diagnosis?", "surgery"),
    ("A1: Metformin lowers hepatic glucose output.", "pharmacology"),
    ("How long did the wound dressings stay in place before they were changed?", "surgery"),
]


def _write(path: Path) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["question", "category"])
        writer.writerows(QUESTIONS)
    return path


def test_filter_keeps_rows_and_names_each_drops_rule(tmp_path: Path) -> None:
    source = _write(tmp_path / "questions.csv")
    result = CliRunner().invoke(
        cli, ["dahl", "filter", str(source), "--out", str(tmp_path / "kept.csv")]
    )
    assert result.exit_code == 0, result.output
    assert "Questions: 7; kept 3" in result.output and "dropped 4 (57.14%)" in result.output
    assert "study_group: 'the control group': How was the control group selected?" in result.output
    # The learned stage drops what the rules let through, with its probability, and is
    # counted with the rules.
    assert "learned: 'p=0.9" in result.output and QUESTIONS[6][0] in result.output
    assert "what the rules let" in result.output  # its row in the counts per rule
    kept = read_csv(tmp_path / "kept.csv")
    assert [r["question"] for r in kept] == [q for q, _ in QUESTIONS[:2]] + [QUESTIONS[4][0]]
    assert kept[0]["category"] == "pharmacology"  # every input column is kept
    dropped = {
        r["question"]: (r["rule"], r["matched"]) for r in read_csv(tmp_path / "kept.dropped.csv")
    }
    assert dropped[QUESTIONS[3][0]] == ("study_finding", "were observed")
    assert dropped[QUESTIONS[5][0]][0] == "not_a_question"
    assert dropped[QUESTIONS[6][0]][0] == "learned"
    assert float(dropped[QUESTIONS[6][0]][1].removeprefix("p=")) >= 0.5

    # --cases also drops the case report's question; --protocol paper applies its families.
    result = CliRunner().invoke(
        cli, ["dahl", "filter", str(source), "--out", str(tmp_path / "k2.csv"), "--cases"]
    )
    assert "case_reference" in result.output and "kept 2" in result.output
    result = CliRunner().invoke(
        cli,
        ["dahl", "filter", str(source), "--out", str(tmp_path / "k3.csv"), "--protocol", "paper"],
    )
    # Under the paper protocol every question is kept (their hand review had the last word)
    # and what their families flag is listed for review.
    assert "context_verb" in result.output and "kept 7" in result.output
    assert "flagged 2 (28.57%)" in result.output and "learned" not in result.output
    assert len(read_csv(tmp_path / "k3.csv")) == 7
    flagged = {r["question"]: r["rule"] for r in read_csv(tmp_path / "k3.review.csv")}
    assert set(flagged) == {QUESTIONS[3][0], QUESTIONS[6][0]}
    # --no-learned: the rules alone.
    result = CliRunner().invoke(
        cli, ["dahl", "filter", str(source), "--out", str(tmp_path / "k4.csv"), "--no-learned"]
    )
    assert result.exit_code == 0, result.output
    assert "kept 4" in result.output and "learned" not in result.output.lower()


def test_without_its_embedding_model_the_learned_stage_stops_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import medhalbench.embeddings

    def unavailable(*args: object, **kwargs: object) -> None:
        raise ResourceUnavailableError("Embedding model 'all-MiniLM-L6-v2' could not be loaded.")

    monkeypatch.setattr(_learned, "_stage", None)
    monkeypatch.setattr(medhalbench.embeddings, "Embedder", unavailable)
    source = _write(tmp_path / "questions.csv")
    result = CliRunner().invoke(
        cli, ["dahl", "filter", str(source), "--out", str(tmp_path / "kept.csv")]
    )
    assert result.exit_code == 2, result.output
    [line] = [x for x in result.stderr.splitlines() if x.strip()]
    assert "all-MiniLM-L6-v2" in line and "--no-learned" in line
    assert "Traceback" not in result.output and not (tmp_path / "kept.csv").exists()
    # The rules alone need no model.
    result = CliRunner().invoke(
        cli, ["dahl", "filter", str(source), "--out", str(tmp_path / "kept.csv"), "--no-learned"]
    )
    assert result.exit_code == 0 and "kept 4" in result.output


def test_learned_is_not_taken_by_the_paper_protocol(tmp_path: Path) -> None:
    source = _write(tmp_path / "questions.csv")
    out = str(tmp_path / "kept.csv")
    args = ["dahl", "filter", str(source), "--out", out, "--protocol", "paper", "--no-learned"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert "--learned" in result.stderr and "not taken by --protocol paper" in result.stderr


def test_a_row_without_a_question_is_named(tmp_path: Path) -> None:
    source = tmp_path / "q.csv"
    source.write_text("question,category\nWhat is insulin?,x\n,y\n")
    result = CliRunner().invoke(
        cli, ["dahl", "filter", str(source), "--out", str(tmp_path / "k.csv")]
    )
    assert result.exit_code == 2
    assert "question" in result.output and "line 3" in result.output
    assert "Traceback" not in result.output
