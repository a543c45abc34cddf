"""DAHL's report tables keep every run: the temperature table has a row per model and data
(one curve each in the chart), and rows that differ say how (a grounded checker marked)."""

from __future__ import annotations

import math

from helpers import record_of
from medhalbench.dahl._report import dahl_sweep_table, dahl_table, temperature_series
from medhalbench.results import Estimate, RunResult

FINGERPRINTS = {"dahl_illustrative.csv": "aaaaaaaaaaaa", "questions.csv": "bbbbbbbbbbbb"}


def _run(model: str, data: str, temperature: float, score: float, **arguments: object) -> RunResult:
    given = {"dataset": f"/data/{data}", "temperature": temperature, "structured": False,
             "evidence": None, **arguments}  # fmt: skip
    return RunResult(
        system="dahl", model=model,
        metrics={"dahl_score": score, "dahl_score_ci_low": score - 0.05,
                 "dahl_score_ci_high": score + 0.05, "paper_dahl_score": score, "scored": 2.0},
        record=record_of({"dataset_fingerprint": FINGERPRINTS[data], **given}),
        log=f"{model}-{data}-{temperature}-{score}-{sorted(arguments.items())}.eval",
        status="success", roles={"splitter": "openai/gpt-4o", "checker": "openai/gpt-4o"},
    )  # fmt: skip


def _figures(cells: list[object]) -> list[float]:
    return [c.value for c in cells if isinstance(c, Estimate)]


def test_the_temperature_table_keeps_every_run_a_row_per_model_and_data() -> None:
    demo = _run("embedded/smollm2", "dahl_illustrative.csv", 0.6, 0.351)
    runs = [
        demo,
        _run("embedded/smollm2", "questions.csv", 0.6, 0.0),  # the same model, other data
        _run("embedded/smollm2", "questions.csv", 0.2, 0.1),
        _run("embedded/smollm2", "dahl_illustrative.csv", 0.6, 0.3),  # a rerun of the demo
        _run("openai/gpt-4o", "dahl_illustrative.csv", 0.2, 0.8),
    ]
    table = dahl_sweep_table(runs)
    assert [c.name for c in table.columns] == ["Run", "temperature 0.2", "temperature 0.6"]
    # Every run's score once: none hidden behind another run's at the same temperature.
    shown = sorted(v for row in table.rows for v in _figures(row[1:]))
    assert shown == sorted(r.metrics["dahl_score"] for r in runs)
    by_name = {str(row[0]): row for row in table.rows}
    assert len(by_name) == len(table.rows) == 4
    # Points of different data are never joined: a row (a curve) holds one data's runs.
    [demo_row] = [r for n, r in by_name.items() if "dahl_illustrative" in n and "run 1" in n]
    assert "smollm2" in str(demo_row[0]) and _figures(demo_row[1:]) == [0.351]
    [other] = [r for n, r in by_name.items() if "questions.csv" in n]
    assert _figures(other[1:]) == [0.1, 0.0]  # 0.2, then 0.6
    series = temperature_series(runs)
    assert list(series) == list(by_name)
    for points in series.values():
        assert len({p.record.stored["dataset"] for p in points.values()}) == 1


def test_runs_on_answers_written_elsewhere_have_no_temperature_column() -> None:
    runs = [
        _run("openai/gpt-4o", "questions.csv", 0.2, 0.8),
        _run("openai/gpt-4o", "questions.csv", 0.6, 0.7),
        _run("system/acme", "questions.csv", math.nan, 0.5, responses="/data/acme.csv"),
    ]
    table = dahl_sweep_table(runs)
    assert [c.name for c in table.columns] == ["Run", "temperature 0.2", "temperature 0.6"]
    assert [str(row[0]) for row in table.rows] == ["openai/gpt-4o"]
    assert any("written elsewhere" in note for note in table.notes)


def test_rows_that_differ_say_how_and_the_grounded_run_is_marked() -> None:
    closed = _run("openai/gpt-4o", "questions.csv", 0.6, 0.8)
    grounded = _run("openai/gpt-4o", "questions.csv", 0.6, 0.85, evidence="/indexes/pubmed")
    other_data = _run("openai/gpt-4o", "dahl_illustrative.csv", 0.6, 0.7)
    rerun = _run("openai/gpt-4o", "questions.csv", 0.6, 0.81)
    table = dahl_table([closed, grounded, other_data, rerun]).narrow()
    assert "Settings" in [c.name for c in table.columns]
    rows = [tuple(table.formatted(row)) for row in table.rows]
    assert len(set(rows)) == len(rows) == 4  # no two rows read the same
    settings = {
        r.metrics["dahl_score"]: str(row[1])
        for r, row in zip([closed, grounded, other_data, rerun], table.rows, strict=True)
    }
    assert "evidence /indexes/pubmed" in settings[0.85]
    assert "evidence none" in settings[0.8] and "(run 1)" in settings[0.8]
    assert "(run 2)" in settings[0.81]
    assert "data /data/dahl_illustrative.csv" in settings[0.7]  # as the report shows paths
    assert any(note.startswith("Settings:") for note in table.notes)
