"""The frames' schema: one meaning per column name across benchmarks, the declared dtypes
(nullable integers and flags, text as `string` with <NA>), settings and counts apart, and
every declared column listed in the docs' Python API page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from inspect_ai import eval

import medhalbench
from helpers import hallucinated_answers, scripted_model
from medhalbench.dahl import dahl
from medhalbench.examples import illustrative
from medhalbench.frames import RUNS, SAMPLES, UNITS
from medhalbench.medhal import medhal
from medhalbench.medhallu import medhallu
from medhalbench.report import FIGURE_COLUMNS

PYTHON_API_PAGE = Path(__file__).parents[2] / "docs" / "python-api.md"
HALLUCINATED = hallucinated_answers(illustrative("medhallu_illustrative.jsonl"))


def _reply(prompt: str) -> str:
    if "one fact" in prompt:
        return "Aspirin inhibits COX.\nIt lowers fever."
    if "true or false" in prompt.lower():
        return "True" if "COX" in prompt else "I cannot tell."
    if "Factual" in prompt or "Statement:" in prompt:
        return (
            "Factual: NO\nExplanation: wrong vitamin." if "vitamin K" in prompt else "Factual: YES"
        )
    if "single digit" in prompt:
        answer = prompt.split("Answer:", 1)[-1]
        return "1" if any(a in answer for a in HALLUCINATED) else "Not sure"
    return "Aspirin inhibits COX. It lowers fever."


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("schema")
    model = scripted_model(_reply)
    rows = [json.loads(x) for x in open(illustrative("medhallu_illustrative.jsonl"))]
    verdicts = folder / "verdicts.jsonl"
    verdicts.write_text(
        "".join(
            json.dumps({"id": f"{r['pubid']}-{k}", "verdict": 1}) + "\n"
            for r in rows
            for k in ("ground_truth", "hallucinated")
        )  # fmt: skip
    )
    done = eval(
        [
            medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=4),
            medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=4, not_sure=True),
            dahl(dataset=illustrative("dahl_illustrative.csv"), limit=2),
            medhal(dataset=illustrative("medhal_illustrative.jsonl")),
        ],
        model=model, model_roles={"splitter": model, "checker": model},
        log_dir=str(folder), display="none",
    )  # fmt: skip
    done += eval(
        medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), responses=str(verdicts)),
        model="system/acme", log_dir=str(folder), display="none",
    )  # fmt: skip
    assert all(log.status == "success" for log in done)
    return folder


def _declared(frame: pd.DataFrame, columns) -> None:
    """Every declared column has its declared dtype; no column is of the catch-all object
    dtype (strings mixed with NaN)."""
    for column in columns:
        if column.name in frame.columns:
            assert str(frame[column.name].dtype).startswith(column.dtype.split("[")[0]), (
                column.name, frame[column.name].dtype,
            )  # fmt: skip
    mixed = [c for c in frame.columns if frame[c].dtype == object]
    assert mixed == []


def test_runs_keep_settings_and_counts_apart_with_typed_columns(logs: Path) -> None:
    runs = medhalbench.load_runs(logs)
    _declared(runs, RUNS)
    medhallu_runs = runs[runs.benchmark == "medhallu"]
    # `not_sure` is the setting; the count of not-sure replies has its own name.
    assert str(runs["not_sure"].dtype) == "boolean"
    assert sorted(medhallu_runs.not_sure.tolist()) == [False, False, True]
    with_option = medhallu_runs[medhallu_runs.not_sure.fillna(False)]
    assert with_option.not_sure_replies.tolist() == [4]  # every ground-truth answer: not sure
    assert str(runs["not_sure_replies"].dtype) == "Int64"
    for count in ("samples", "unparseable"):
        assert str(runs[count].dtype) == "Int64"
    assert str(runs["f1"].dtype) == str(runs["f1_ci_low"].dtype) == "float64"
    assert str(runs["knowledge"].dtype) == "boolean" and str(runs["limit"].dtype) == "Int64"
    assert runs.loc[runs.benchmark == "dahl", "splitter_model"].tolist() == ["mockllm/model"]
    assert runs.run.str.startswith(("MedHallu · ", "DAHL · ", "MedHal · ")).all()


def test_samples_have_one_meaning_per_column_across_benchmarks(logs: Path) -> None:
    samples = medhalbench.load_samples(logs)
    _declared(samples, SAMPLES)
    assert "label" not in samples.columns  # 1 = hallucinated in one, True = factual in another
    detected = samples[samples.benchmark == "medhallu"]
    assert (detected.is_hallucinated == (detected.answer_kind == "hallucinated")).all()
    assert (detected.is_factual == ~detected.is_hallucinated).all()
    assert set(detected.verdict.dropna()) <= {"factual", "hallucinated", "not sure"}
    not_sure = detected[detected.verdict == "not sure"]
    assert len(not_sure) == 4 and not_sure.predicted_factual.isna().all()
    assert detected.hallucination_category.notna().all() and detected.category.isna().all()
    judged = samples[samples.benchmark == "medhal"]
    statements = {json.loads(x)["statement"]: json.loads(x)["label"]
                  for x in open(illustrative("medhal_illustrative.jsonl"))}  # fmt: skip
    assert (judged.is_factual == judged.statement.map(statements)).all()
    assert set(judged.verdict) <= {"factual", "non-factual"}
    assert (judged.predicted_factual == (judged.verdict == "factual")).all()
    assert (judged.correct == (judged.predicted_factual == judged.is_factual)).all()
    answers = samples[samples.benchmark == "dahl"]
    assert answers.category.notna().all() and answers.is_factual.isna().all()
    assert str(answers.units.dtype) == "Int64" and answers.verdict.isna().all()
    # Where a reply holds no verdict, <NA>: never NaN among strings.
    assert samples.verdict.dtype == "string" and samples.paper_verdict.dtype == "string"


def test_units_and_figures_are_typed_as_declared(logs: Path) -> None:
    units = medhalbench.load_units(logs)
    _declared(units, UNITS)
    assert set(units.verdict.dropna()) <= {"true", "false", "unknown"}
    assert (units.is_true.dropna() == (units.verdict[units.is_true.notna()] == "true")).all()
    figures = medhalbench.load_figures(logs)
    assert dict(figures.dtypes.astype(str)) == FIGURE_COLUMNS
    ours = figures[~figures.published]
    runs = medhalbench.load_runs(logs)
    for run in runs.itertuples():
        f1 = ours[(ours.source == run.log) & (ours.figure == "f1")]
        if run.benchmark != "dahl":
            assert f1.value.tolist() == pytest.approx([run.f1])


def test_the_python_api_page_lists_every_column(logs: Path) -> None:
    section = PYTHON_API_PAGE.read_text().split("\n## ", 1)[0]
    named = set(re.findall(r"`([a-z_<>/]+)`", section))
    for column in [*RUNS, *SAMPLES, *UNITS]:
        for name in re.findall(r"[a-z_<>/]+", column.name):
            assert name in named, f"the docs' Python API page does not list {name}"
    for name in FIGURE_COLUMNS:
        assert name in named, f"the docs' Python API page does not list {name}"
