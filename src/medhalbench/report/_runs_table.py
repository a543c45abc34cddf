"""A benchmark's results table, framed alike for every benchmark: each row names its run
(model, what sets it apart from the others, judges, dataset) before the benchmark's own
columns and its log after them; a published row names the paper's model and dataset."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from medhalbench._paths import shown_model, shown_path
from medhalbench.report._published import published_condition
from medhalbench.report._summary import SETTINGS, distinctions, mark_distinctions
from medhalbench.results import (
    Cell,
    Column,
    PublishedRow,
    ResultTable,
    RunResult,
    local_path,
    results_table,
)

RUN_COLUMNS = (
    Column("Model"),
    Column(SETTINGS),
    Column("Judges", wide=True),
    Column("Dataset", wide=True),
)
"""The columns that name a row's run, first in every benchmark's results table."""
NAMING_COLUMNS = ("Model", SETTINGS)
"""The columns of `RUN_COLUMNS` that tell a row's run from the others: a table shown in
parts repeats them in each (with a benchmark's own column that tells a run's rows apart)."""
LOG_COLUMN = Column("Log", wide=True)
"""The last column of every benchmark's results table: the run's log (a published row's source)."""


def _run_dataset(run: RunResult) -> str:
    return run.dataset


@dataclass(frozen=True)
class OwnColumns:
    """A benchmark's own columns of its results table, between the columns that name a
    row's run (`RUN_COLUMNS`) and its log (`LOG_COLUMN`), and how each row fills them.

    Attributes:
        columns: The columns.
        cells: A run's cells in them, a list per row (a run may have several rows).
        published_cells: A published row's cells in them.
        published_dataset: The dataset a published row names.
    """

    columns: Sequence[Column]
    cells: Callable[[RunResult], list[list[Cell]]]
    published_cells: Callable[[PublishedRow], list[Cell]]
    published_dataset: str


def runs_table(
    title: str,
    slug: str,
    own: OwnColumns,
    runs: Sequence[RunResult],
    published: Sequence[PublishedRow],
    *,
    shown: Collection[str] = (),
    dataset: Callable[[RunResult], str] = _run_dataset,
) -> ResultTable:
    """A benchmark's results table: a row (or rows) per run, then the published rows, each
    row framed by `RUN_COLUMNS` and `LOG_COLUMN`, the benchmark's `own` columns between.

    Args:
        title: The table's title.
        slug: The table's file name.
        own: The benchmark's own columns.
        runs: Runs of the benchmark.
        published: The paper's rows.
        shown: Settings with a column of their own (left out of the Settings text).
        dataset: How a run's row names its dataset (default: the run's).
    """
    differs = dict(zip((r.log for r in runs), distinctions(runs, shown=shown), strict=True))

    def rows(run: RunResult) -> list[list[Cell]]:
        judges = ", ".join(f"{role}: {shown_model(m)}" for role, m in run.roles.items())
        named: list[Cell] = [
            shown_model(run.model),
            differs[run.log],
            judges or "none",
            dataset(run),
        ]
        return [[*named, *row, shown_path(local_path(run.log))] for row in own.cells(run)]

    def published_row(row: PublishedRow) -> list[Cell]:
        named: list[Cell] = [f"{row.model} (published)", published_condition(row), "as published"]
        return [*named, own.published_dataset, *own.published_cells(row), row.source]

    framed = [*RUN_COLUMNS, *own.columns, LOG_COLUMN]
    table = results_table(title, slug, framed, runs, rows, published, published_row)
    table.key = NAMING_COLUMNS
    mark_distinctions(table, list(differs.values()))
    return table
