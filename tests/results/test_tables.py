"""A results table's column names the run figure it shows: each benchmark's own columns are
its settings, then figures that each name theirs, and a run's row shows under each figure
column the figure it names."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from helpers import record_of
from medhalbench.dahl._report import DAHL_COLUMNS, dahl_table
from medhalbench.medhal._report import MEDHAL_COLUMNS, medhal_table
from medhalbench.medhallu._report import MEDHALLU_COLUMNS, detection_table
from medhalbench.results import Column, Estimate, ResultTable, RunResult, figure_names

Table = Callable[[Sequence[RunResult]], ResultTable]
BENCHMARKS: dict[str, tuple[list[Column], list[str], Table]] = {
    "dahl": (DAHL_COLUMNS, ["Temperature", "Epochs", "Structured"], dahl_table),
    "medhallu": (
        MEDHALLU_COLUMNS,
        ["Difficulty", "Knowledge", "Not sure", "Structured", "Prompts"],
        detection_table,
    ),
    "medhal": (MEDHAL_COLUMNS, ["Source", "Structured"], medhal_table),
}
"""Each benchmark's own columns, the headers of its settings columns (shown before its
figures, none a figure), and its results table."""


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_every_column_after_the_settings_names_a_figure(benchmark: str) -> None:
    columns, settings, _ = BENCHMARKS[benchmark]
    assert [c.name for c in columns[: len(settings)]] == settings
    assert not any(c.figure for c in columns[: len(settings)])
    assert all(c.figure for c in columns[len(settings) :]), benchmark
    figures = figure_names(columns)
    assert len(figures) + len(settings) == len(columns)
    assert len(set(figures)) == len(figures)  # no figure shown twice


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_a_runs_row_shows_under_each_figure_column_the_figure_it_names(benchmark: str) -> None:
    columns, _, table_of = BENCHMARKS[benchmark]
    metrics = {name: float(i + 1) for i, name in enumerate(figure_names(columns))}
    run = RunResult(
        system=benchmark, model="embedded/smollm2", metrics=metrics,
        record=record_of({"dataset": "/data/rows.jsonl", "dataset_fingerprint": "aaaaaa"}),
        log=f"{benchmark}.eval", status="success",
    )  # fmt: skip
    table = table_of([run])
    [row] = table.rows
    shown = {
        column.figure: cell.value
        for column, cell in zip(table.columns, row, strict=True)
        if column.figure and isinstance(cell, Estimate)
    }
    assert shown == metrics


def test_figure_names_skips_columns_without_a_figure() -> None:
    columns = [
        Column("Model"),
        Column("F1", "f1", interval=True),
        Column("Samples", digits=0),
        Column("AUROC", "auroc"),
    ]
    assert figure_names(columns) == ["f1", "auroc"]
    assert figure_names([Column("Model")]) == []
