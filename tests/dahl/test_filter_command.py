"""`medhalbench dahl filter`: the builder's checks on any question set, from the command line."""

from __future__ import annotations

import csv
from pathlib import Path

from click.testing import CliRunner

from helpers import read_csv
from medhalbench.cli import cli

QUESTIONS = [
    ("What is the mechanism of action of metformin?", "pharmacology"),
    ("Analyze the role of IL-6 in cytokine storm.", "immunology"),
    ("How was the control group selected?", "medicine"),
    ("What adverse events were observed after the second dose?", "medicine"),
    ("Based on the case presented, what is the diagnosis?", "surgery"),
    ("A1: Metformin lowers hepatic glucose output.", "pharmacology"),
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
    assert "Questions: 6; kept 3" in result.output and "dropped 3 (50.00%)" in result.output
    assert "study_group: 'the control group': How was the control group selected?" in result.output
    kept = read_csv(tmp_path / "kept.csv")
    assert [r["question"] for r in kept] == [q for q, _ in QUESTIONS[:2]] + [QUESTIONS[4][0]]
    assert kept[0]["category"] == "pharmacology"  # every input column is kept
    dropped = {
        r["question"]: (r["rule"], r["matched"]) for r in read_csv(tmp_path / "kept.dropped.csv")
    }
    assert dropped[QUESTIONS[3][0]] == ("study_finding", "were observed")
    assert dropped[QUESTIONS[5][0]][0] == "not_a_question"

    # --cases also drops the case report's question; --protocol paper applies its families.
    result = CliRunner().invoke(
        cli, ["dahl", "filter", str(source), "--out", str(tmp_path / "k2.csv"), "--cases"]
    )
    assert "case_reference" in result.output and "kept 2" in result.output
    result = CliRunner().invoke(
        cli,
        ["dahl", "filter", str(source), "--out", str(tmp_path / "k3.csv"), "--protocol", "paper"],
    )
    assert "context_verb" in result.output and "kept 5" in result.output


def test_a_row_without_a_question_is_named(tmp_path: Path) -> None:
    source = tmp_path / "q.csv"
    source.write_text("question,category\nWhat is insulin?,x\n,y\n")
    result = CliRunner().invoke(
        cli, ["dahl", "filter", str(source), "--out", str(tmp_path / "k.csv")]
    )
    assert result.exit_code == 2
    assert "question" in result.output and "line 3" in result.output
    assert "Traceback" not in result.output
