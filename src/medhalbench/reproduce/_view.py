"""A reproduced table, cell by cell: each published figure beside ours, from the runs of the
paper's data, condition and protocol (several runs of one cell pooled, as MedHallu's two
configurations make its 10,000 questions), with its 95% interval, the difference, and
whether the published figure lies inside the interval."""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from inspect_ai.log import EvalLog

from medhalbench.data import read_settings_file
from medhalbench.registry import benchmark, benchmark_of
from medhalbench.report import in_setting, on_paper_data
from medhalbench.reproduce._tables import PaperTable
from medhalbench.results import (
    Column,
    Estimate,
    PublishedRow,
    ResultTable,
    RunResult,
    every_figure,
    metric_scores,
    run_result,
    served_models,
    setting_text,
)
from medhalbench.settings import SuiteFile, SuiteModel

NaN = math.nan


@dataclass(frozen=True)
class Cell:
    """One published figure and ours.

    Attributes:
        model: The model, as the paper names it.
        condition: The published row's settings as text ("knowledge yes · not_sure no").
        figure: The published figure, by our metric name (the paper protocol's).
        published: Its published value.
        paper: Ours under the paper's protocol, with its interval (None: not run).
        ours: Ours under our own reading (None: not run, or none beside this figure).
        served: The model versions the provider named in its replies, over the cell's runs
            (empty: not run, or no reply named one).
    """

    model: str
    condition: str
    figure: str
    published: float
    paper: Estimate | None = None
    ours: Estimate | None = None
    served: tuple[str, ...] = ()

    @property
    def difference(self) -> float | None:
        """Ours under the paper's protocol less the published figure (None: not run)."""
        return None if self.paper is None else self.paper.value - self.published

    @property
    def reproduced(self) -> bool | None:
        """Whether the published figure lies in our 95% interval (None: not run, or our
        interval undefined)."""
        if self.paper is None or math.isnan(self.paper.low) or math.isnan(self.paper.high):
            return None
        return self.paper.low <= self.published <= self.paper.high


def _suite(table: PaperTable) -> SuiteFile:
    return SuiteFile.model_validate(read_settings_file(table.suite, what="suite file"))


def _estimate(figures: Mapping[str, float], name: str | None) -> Estimate | None:
    if name is None or name not in figures:
        return None
    low, high = figures.get(f"{name}_ci_low", NaN), figures.get(f"{name}_ci_high", NaN)
    return Estimate(figures[name], low, high)


def _pooled(runs: Sequence[tuple[EvalLog, RunResult]]) -> dict[str, float]:
    """Every figure of the runs' sample scores pooled, by the first run's own metric (a
    cell's runs share their condition)."""
    first = runs[0][0]
    scorer = first.results.scores[0].scorer if first.results and first.results.scores else ""
    scores = [s for log, _ in runs for s in metric_scores(log, scorer)]
    return every_figure(first, scores) or {}


def _latest(runs: Sequence[tuple[EvalLog, RunResult]]) -> list[tuple[EvalLog, RunResult]]:
    """One run per model and settings, the latest: a run made again (`--force`, or an eval
    into the same folder) replaces the earlier one in its cell, never adds its samples."""
    kept: dict[str, tuple[EvalLog, RunResult]] = {}
    for log, run in sorted(runs, key=lambda x: str(x[0].eval.created)):
        kept[json.dumps([run.model, run.record.stored], sort_keys=True, default=str)] = (log, run)
    return list(kept.values())


def _made_as_listed(run: RunResult, model: SuiteModel) -> bool:
    """Whether a run is of the suite's model, made with the settings the suite gives it (the
    authors' call): a run of the same model made otherwise is no run of the table's."""
    return run.model == model.name and all(
        setting_text(run.settings.get(k)) == setting_text(v) for k, v in model.run_args.items()
    )


def _rows(table: PaperTable) -> list[PublishedRow]:
    published = benchmark(table.benchmark).implementation.published()
    return [r for r in published if r.source.endswith(table.table)]


def _condition(row: PublishedRow, shown: Collection[str]) -> str:
    return " · ".join(f"{k} {v}" for k, v in row.settings.items() if k in shown)


def reproduction(table: PaperTable, logs: Sequence[EvalLog]) -> list[Cell]:
    """Each published cell of a table beside ours, from finished logs of its suite.

    Args:
        table: The table.
        logs: Logs with their samples (others, and runs on other data, are left out).
    """
    suite = _suite(table)
    by_paper = {m.paper_model: m for m in suite.models if m.paper_model}
    runs: list[tuple[EvalLog, RunResult]] = [
        (log, run_result(log))
        for log in logs
        if log.status == "success" and benchmark_of(log) is benchmark(table.benchmark)
    ]
    runs = _latest([(log, run) for log, run in runs if on_paper_data(run)])
    shown = set(benchmark(table.benchmark).settings.model_fields)
    cells = []
    for row in _rows(table):
        model = by_paper.get(row.model)
        chosen = [
            (log, run)
            for log, run in runs
            if model is not None and _made_as_listed(run, model) and in_setting(row, run)
        ]
        figures = _pooled(chosen) if chosen else {}
        served = tuple(dict.fromkeys(v for log, _ in chosen for v in served_models(log)))
        for figure, ours in table.figures.items():
            if figure not in row.metrics:
                continue
            cells.append(
                Cell(row.model, _condition(row, shown), figure, row.metrics[figure],
                     _estimate(figures, figure), _estimate(figures, ours), served)
            )  # fmt: skip
    return cells


@dataclass(frozen=True)
class Tally:
    """A table's cells counted by outcome."""

    cells: int
    reproduced: int
    not_reproduced: int
    not_run: int
    without_interval: int

    @classmethod
    def of(cls, cells: Sequence[Cell]) -> Tally:
        """The outcomes of cells."""
        reproduced = sum(c.reproduced is True for c in cells)
        missed = sum(c.reproduced is False for c in cells)
        unrun = sum(c.paper is None for c in cells)
        return cls(len(cells), reproduced, missed, unrun, len(cells) - reproduced - missed - unrun)


def verdict(cells: Sequence[Cell]) -> str:
    """A table's verdict in one line: cells reproduced, not, not run."""
    t = Tally.of(cells)
    said = (
        f"{t.reproduced} of {t.cells} cells reproduced, {t.not_reproduced} not, {t.not_run} not run"
    )
    return said + (f", {t.without_interval} without an interval" if t.without_interval else "")


def reproduction_table(table: PaperTable, cells: Sequence[Cell]) -> ResultTable:
    """The view: each cell's published figure, ours (paper protocol and ours) with its 95%
    interval, the difference, and whether it is reproduced; the verdict under it."""
    shown = ResultTable(
        f"{benchmark(table.benchmark).title} {table.table}: {table.title}",
        table.name,
        [
            Column("model", digits=0),
            Column("condition", digits=0),
            Column("figure", digits=0),
            Column("published"),
            Column("ours, paper protocol", interval=True),
            Column("ours", interval=True),
            Column("difference"),
            Column("reproduced", digits=0),
            Column("served as", digits=0),
        ],
    )
    marks = {True: "yes", False: "no", None: "–"}
    for c in (c for c in cells if c.paper is not None):
        shown.add(
            [c.model, c.condition, c.figure, c.published, c.paper, c.ours, c.difference,
             marks[c.reproduced], ", ".join(c.served) or "–"]
        )  # fmt: skip
    shown.notes.append(verdict(cells))
    unrun = list(dict.fromkeys(c.model for c in cells if c.paper is None))
    if unrun:  # a row per cell not run says nothing: their models, once
        shown.notes.append(f"Not run: {', '.join(unrun)}.")
    return shown
