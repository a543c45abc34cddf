"""Evidence in runs, end to end through the `openai` SDK against a realistic model on
127.0.0.1: DAHL's checker gets each unit's passages in its prompt (as seen at the server) and
the log keeps them; the report pairs the grounded run with the closed-book run on the same
answers; MedHallu's detector gets retrieved passages in place of the gold abstract; plans
count the passages' tokens; settings that cannot apply end in one line, exit code 2."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from corpora import write_jsonl, write_medhallu
from inspect_ai.log import EvalLog, read_eval_log

import realistic_model
from helpers import openai_served
from medhalbench._paths import shown_path
from medhalbench.cli import cli
from medhalbench.evidence import build_index, open_retriever
from medhalbench.settings import DenseSettings
from realistic_model import RealisticModel, detection_truth

ANSWERS = {
    "How do loop diuretics relieve fluid overload?": [
        ("Loop diuretics inhibit the Na-K-2Cl cotransporter.", "true"),
        ("Loop diuretics act mainly in the collecting duct.", "false"),
    ],
    "How does metformin lower blood glucose?": [
        ("Metformin lowers hepatic glucose production.", "true"),
        ("Metformin stimulates insulin release from beta cells.", "false"),
        ("Radon exposure raises the risk of lung cancer.", "true"),
    ],
}
K = 2


class Recording:
    """The realistic model, with every request's messages kept as the server got them."""

    def __init__(self, model: RealisticModel) -> None:
        self.model = model
        self.requests: list[list[dict[str, Any]]] = []

    def __call__(self, messages: list[dict[str, Any]]) -> str:
        self.requests.append(messages)
        return self.model(messages)

    def users(self, marker: str) -> list[str]:
        return [str(m[-1]["content"]) for m in self.requests if marker in str(m[-1]["content"])]


@pytest.fixture
def index(tmp_path: Path) -> Path:
    build_index([write_jsonl(tmp_path / "corpus.jsonl")], tmp_path / "index", progress=False)
    return tmp_path / "index"


def questions(tmp_path: Path) -> Path:
    path = tmp_path / "questions.csv"
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["question", "category"])
        writer.writerows([q, "pharmacology"] for q in ANSWERS)
    return path


def run_dahl(
    tmp_path: Path, server: Recording, *extra: str, monkeypatch: pytest.MonkeyPatch
) -> EvalLog:
    logs = tmp_path / f"logs{len(list(tmp_path.glob('logs*')))}"
    # A judge of this test's own name: no reply cached by another test answers it.
    judge = f"openai/judge-{tmp_path.name}"
    with openai_served(server, monkeypatch):
        result = CliRunner().invoke(
            cli,
            [
                "eval", "dahl", "--dataset", str(questions(tmp_path)),
                "--model", "openai/answerer", "--judge", judge, "--log-dir", str(logs),
                "--bootstrap", "0", "--display", "none", *extra,
            ],
        )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    [log] = [read_eval_log(str(p)) for p in logs.glob("*.eval")]
    return log


def realistic() -> RealisticModel:
    return RealisticModel(
        answers={q: [s for s, _ in facts] for q, facts in ANSWERS.items()},
        facts={s: truth for facts in ANSWERS.values() for s, truth in facts},
    )


def test_dahl_checker_gets_each_units_passages_and_the_log_keeps_them(
    tmp_path: Path, index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The splitter writes its units plain: each unit the checker gets is one of the facts.
    monkeypatch.setattr(realistic_model, "SPLIT_LAYOUTS", [lambda units: units])
    server = Recording(realistic())
    log = run_dahl(
        tmp_path, server, "--evidence", str(index), "--evidence-k", str(K), monkeypatch=monkeypatch
    )
    retriever = open_retriever(str(index))
    checks = server.users("Statement:")
    units = [s for facts in ANSWERS.values() for s, _ in facts]
    assert {c.rsplit("Statement:", 1)[1].strip() for c in checks} == set(units)
    for check in checks:
        unit = check.rsplit("Statement:", 1)[1].strip()
        [found] = retriever.search([unit], K)
        assert found, unit  # every unit shares words with the corpus
        assert "PASSAGES:" in check
        for hit in found:  # the passages reached the checker as the server saw the prompt
            assert f"[{hit.rank}] {hit.passage.title} (source {hit.passage.source_id})" in check
            assert hit.passage.text in check
    assert log.eval.metadata and log.eval.metadata["evidence_index"]["retriever"] == f"bm25:{index}"
    by_unit: dict[str, list[dict[str, Any]]] = {}
    for sample in log.samples or []:
        meta = sample.scores["dahl_factuality"].metadata
        assert len(meta["unit_passages"]) == len(meta["units_text"])
        by_unit.update(zip(meta["units_text"], meta["unit_passages"], strict=True))
        assert len(meta["paper_unit_passages"]) == len(meta["paper_units"])
    kept = by_unit["Metformin lowers hepatic glucose production."]
    assert kept[0]["source_id"] == "metformin" and kept[0]["rank"] == 1
    assert kept[0]["text"].startswith("Metformin lowers hepatic glucose production")
    assert kept[0]["score"] > 0 and kept[0]["id"] == "metformin#0"
    assert kept[0]["end"] - kept[0]["start"] == len(kept[0]["text"])
    assert by_unit["Loop diuretics act mainly in the collecting duct."][0]["source_id"] == (
        "loop-diuretics"
    )


def test_the_report_pairs_grounded_and_closed_book_runs_on_the_same_answers(
    tmp_path: Path, index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from medhalbench.report import contrasts
    from medhalbench.results import run_result

    closed_server, grounded_server = Recording(realistic()), Recording(realistic())
    closed = run_dahl(tmp_path, closed_server, monkeypatch=monkeypatch)
    grounded = run_dahl(
        tmp_path, grounded_server, "--evidence", str(index), monkeypatch=monkeypatch
    )
    assert all("PASSAGES:" not in c for c in closed_server.users("Statement:"))
    assert closed.samples and all(
        "unit_passages" not in s.scores["dahl_factuality"].metadata for s in closed.samples
    )
    answers = {s.output.completion for s in closed.samples}
    assert answers == {s.output.completion for s in grounded.samples or []}
    found = contrasts([run_result(closed), run_result(grounded)])
    [(a, b, difference)] = found.pairs
    assert difference.name == "evidence"
    by_value = {difference.a: a.log, difference.b: b.log}
    # The index named as the report shows paths.
    assert by_value == {"none": closed.location, shown_path(str(index)): grounded.location}


def test_dahl_plan_counts_the_passages_tokens(tmp_path: Path, index: Path) -> None:
    from medhalbench.dahl import DahlPlanSettings, dahl
    from medhalbench.evidence import passages_text
    from medhalbench.planning import count_tokens
    from medhalbench.registry import benchmark

    entry = benchmark("dahl")
    data = str(questions(tmp_path))
    plain = dahl(dataset=data, paper_protocol=False)
    grounded = dahl(dataset=data, paper_protocol=False, evidence=str(index), evidence_k=K)
    assumed = DahlPlanSettings(units_per_answer=10)
    [_, _, closed_checker] = entry.implementation.plan(plain, {}, assumed)
    [_, _, grounded_checker] = entry.implementation.plan(grounded, {}, assumed)
    assert grounded_checker.calls == closed_checker.calls == 20
    extra = grounded_checker.input_tokens - closed_checker.input_tokens
    # Every pair of passages of this 4-passage index, as the checker would read them.
    retriever = open_retriever(str(index))
    [hits] = retriever.search(["metformin loop diuretics vaccines lung"], 4)
    pair = count_tokens([passages_text(hits[:K])])[0]
    assert 20 * pair * 0.5 < extra < 20 * pair * 2
    result = CliRunner().invoke(
        cli,
        [
            "eval", "dahl", "--dataset", data, "--evidence", str(index), "--evidence-k", str(K),
            "--no-paper-protocol", "--units-per-answer", "10", "--dry-run",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert f"{grounded_checker.input_tokens:,}" in result.stdout.replace("\n", " ")
    # The plan is titled with the answering temperature the task sends and its evidence.
    [title] = [line for line in result.stdout.splitlines() if line.startswith("DAHL ·")]
    shown = shown_path(str(index))  # as the report shows paths
    assert f"temperature 0.6 · epochs 1 · structured no · evidence {shown}, k {K}" in title


@pytest.mark.parametrize(
    "extra,expected",
    [
        (["--evidence-k", "3"], "--evidence-k: needs --evidence"),
        (["--evidence-rerank"], "--evidence-rerank: needs --evidence"),
        (["--evidence-retriever", "dense"], "--evidence-retriever: needs --evidence"),
        (
            ["--evidence", "EVIDENCE", "--evidence-retriever", "hybrid"],
            "holds no passage vectors, which dense and hybrid retrieval need",
        ),
        (["--evidence", "EVIDENCE", "--check-mode", "batch"], "check one unit per call"),
        (["--evidence", "/nowhere/corpus.jsonl"], "/nowhere/corpus.jsonl: no such index, corpus"),
        (["--evidence", "EVIDENCE", "--check-prompt", "PROMPT"], "give the grounded one"),
    ],
)
def test_evidence_settings_that_cannot_apply_end_in_one_line(
    tmp_path: Path, index: Path, extra: list[str], expected: str
) -> None:
    prompt = tmp_path / "p.txt"
    prompt.write_text("Statement: {statement}")
    args = [str(index) if a == "EVIDENCE" else str(prompt) if a == "PROMPT" else a for a in extra]
    result = CliRunner().invoke(
        cli, ["eval", "dahl", "--dataset", str(questions(tmp_path)), "--dry-run", *args]
    )
    assert result.exit_code == 2, result.stdout
    [line] = result.stderr.strip().splitlines()
    assert expected in line and "Traceback" not in result.stderr


def test_medhallu_detector_gets_retrieved_passages_instead_of_the_abstract(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows, corpus = _medhallu_corpus(tmp_path)
    build_index([corpus], tmp_path / "index", progress=False)
    server = Recording(RealisticModel(detection=detection_truth(rows)))
    # A detector of this test's own name: the hybrid test's top passages are often the same,
    # and its replies, cached first on the same worker, would answer every prompt here.
    detector = f"openai/detector-{tmp_path.name}"
    with openai_served(server, monkeypatch):
        result = CliRunner().invoke(
            cli,
            [
                "eval", "medhallu", "--dataset", str(rows), "--knowledge", "--evidence",
                str(tmp_path / "index"), "--evidence-k", "1", "--model", detector,
                "--log-dir", str(tmp_path / "logs"), "--bootstrap", "0", "--display", "none",
            ],
        )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    # Titled as retrieved knowledge, never as the gold abstract ("knowledge yes").
    # The title, its lines joined (a path as the report shows paths makes it wrap).
    title = " ".join(result.stdout.split("MedHallu:", 1)[1].split("┏")[0].split())
    index = shown_path(str(tmp_path / "index"))
    assert f"knowledge retrieved ({index}, k 1, bm25)" in title and "knowledge yes" not in title
    prompts = server.users("Your judgement")
    assert len(prompts) == 8
    for prompt in prompts:
        assert "passages found by searching a reference corpus" in prompt
        assert "the abstract the question comes from" not in prompt
        assert "(source p" in prompt and "[1]" in prompt and "[2]" not in prompt
    [log] = [read_eval_log(str(p)) for p in (tmp_path / "logs").glob("*.eval")]
    for sample in log.samples or []:
        [passage] = sample.metadata["knowledge_passages"]
        assert passage["text"] in str(sample.input[-1].content)
        assert sample.metadata["gold_in_knowledge"] is (
            passage["source_id"] == sample.metadata["row_id"]
        )
    assert sum(s.metadata["gold_in_knowledge"] for s in log.samples or []) >= 6
    refused = CliRunner().invoke(
        cli, ["eval", "medhallu", "--dataset", str(rows), "--evidence", str(corpus), "--dry-run"]
    )
    assert refused.exit_code == 2
    [line] = refused.stderr.strip().splitlines()
    assert "add --knowledge" in line


def _medhallu_corpus(tmp_path: Path) -> tuple[Path, Path]:
    """MedHallu rows, and a corpus of each row's abstract under its PubMed id beside
    documents about other things."""
    rows = write_medhallu(tmp_path / "rows.jsonl")
    corpus = tmp_path / "abstracts.jsonl"
    with corpus.open("w") as f:
        for line in rows.read_text().splitlines():
            row = json.loads(line)
            f.write(json.dumps({"id": row["pubid"], "text": " ".join(row["Knowledge"])}) + "\n")
        f.write(json.dumps({"id": "other", "text": "Statins lower LDL cholesterol."}) + "\n")
    return rows, corpus


def test_medhallu_retrieval_is_recorded_titled_and_measured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from medhalbench.frames import load_runs
    from medhalbench.medhallu._report import RETRIEVAL_HIT_RATE, detection_table
    from medhalbench.registry import benchmark
    from medhalbench.report import figures_frame
    from medhalbench.report._summary import benchmark_summary
    from medhalbench.results import Estimate, run_result
    from medhalbench.settings import SETTINGS_KEY

    rows, corpus = _medhallu_corpus(tmp_path)
    build_index([corpus], tmp_path / "index", dense=DenseSettings(), progress=False)
    server = Recording(RealisticModel(detection=detection_truth(rows)))
    runs, titles = [], []
    with openai_served(server, monkeypatch):
        for n, extra in enumerate(
            [
                ["--evidence", str(tmp_path / "index"), "--evidence-k", "1",
                 "--evidence-retriever", "dense"],
                ["--evidence", str(tmp_path / "index"), "--evidence-k", "1"],  # hybrid
                [],  # the gold abstract
            ]
        ):  # fmt: skip
            result = CliRunner().invoke(
                cli,
                [
                    "eval", "medhallu", "--dataset", str(rows), "--knowledge", *extra,
                    "--model", "openai/detector", "--log-dir", str(tmp_path / f"logs{n}"),
                    "--bootstrap", "50", "--display", "none",
                ],
            )  # fmt: skip
            assert result.exit_code == 0, result.stderr
            # The title, its lines joined (a path as the report shows paths makes it wrap).
            titles.append(" ".join(result.stdout.split("MedHallu:", 1)[1].split("┏")[0].split()))
            [log] = [read_eval_log(str(p)) for p in (tmp_path / f"logs{n}").glob("*.eval")]
            runs.append(log)
    dense, hybrid, gold = runs
    index = shown_path(str(tmp_path / "index"))  # as the report shows paths
    assert f"knowledge retrieved ({index}, k 1, dense)" in titles[0]
    assert f"knowledge retrieved ({index}, k 1, hybrid)" in titles[1]
    assert "knowledge yes" in titles[2] and "retrieved" not in titles[2]
    # The choice is in the run's settings record; the retrieval done, beside it.
    assert dense.eval.metadata and hybrid.eval.metadata
    assert dense.eval.metadata[SETTINGS_KEY]["evidence_retriever"] == "dense"
    assert hybrid.eval.metadata[SETTINGS_KEY]["evidence_retriever"] is None
    assert [r.eval.metadata["evidence_index"]["retrieval"] for r in (dense, hybrid)] == [
        "dense", "hybrid",
    ]  # fmt: skip
    assert hybrid.eval.metadata["evidence_index"]["retriever"].startswith(
        f"hybrid:{tmp_path / 'index'} (bm25 + all-MiniLM-L6-v2"
    )
    # The gold-retrieval rate is a figure of the run, with its interval.
    results = [run_result(r) for r in runs]
    found = [s.metadata["gold_in_knowledge"] for s in dense.samples or []]
    rate = results[0].figure("gold_in_knowledge_rate")
    assert rate is not None and rate.value == pytest.approx(sum(found) / len(found))
    assert rate.has_interval and rate.low <= rate.value <= rate.high
    assert results[2].figure("gold_in_knowledge_rate") is None  # the gold abstract
    table = detection_table(results)
    knowledge = table.columns.index(next(c for c in table.columns if c.name == "Knowledge"))
    rates = table.columns.index(next(c for c in table.columns if c.name == RETRIEVAL_HIT_RATE))
    ours = table.ours().rows
    assert [r[knowledge] for r in ours] == [
        f"retrieved ({index}, k 1, dense)", f"retrieved ({index}, k 1, hybrid)", "yes",
    ]  # fmt: skip
    assert isinstance(ours[0][rates], Estimate) and ours[2][rates] is None
    # The tidy CSV and load_runs carry it.
    tidy = figures_frame(results, published=False)
    assert "gold_in_knowledge_rate" in set(tidy["figure"])
    frame = load_runs([tmp_path / "logs0", tmp_path / "logs2"])
    assert "gold_in_knowledge_rate" in frame.columns
    assert frame["gold_in_knowledge_rate"].notna().sum() == 1
    # The paper's gold-knowledge rows stand under the gold-knowledge run, never under the
    # runs given retrieved passages (the runs taken as on the paper's data, out of reach here).
    from medhalbench.report import _summary

    monkeypatch.setattr(_summary, "on_paper_data", lambda run: True)
    summary = benchmark_summary(benchmark("medhallu"), results)
    [paper] = summary.paper
    published = [row for row, source in zip(paper.rows, paper.published, strict=True) if source]
    assert published, "the paper's range in the gold-knowledge condition"
    columns = [c.name for c in paper.columns]
    for row in published:
        for name, cell in zip(columns[1:], row[1:], strict=True):
            assert (cell is not None) == ("evidence none" in name), (name, cell)
