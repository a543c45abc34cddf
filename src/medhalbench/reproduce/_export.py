"""The reproduction view as files (CSV, Markdown, JSON, LaTeX), and the reproductions a set
of logs holds (for the report: every packaged table one of its runs stands in)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path

from inspect_ai.log import EvalLog

from medhalbench._errors import DataError
from medhalbench._version import VERSION
from medhalbench.registry import benchmark, benchmark_of
from medhalbench.report import csv_frame, json_safe, latex_table, markdown, on_paper_data
from medhalbench.reproduce._tables import PAPER_TABLES, PaperTable
from medhalbench.reproduce._view import Cell, Tally, reproduction, reproduction_table
from medhalbench.results import ResultTable, log_paths, read_log, run_result
from medhalbench.settings import ReproductionFormat


def _paper_logs(paths: Sequence[str | Path]) -> list[EvalLog]:
    """The finished runs on their paper's data among the logs (files or folders), read
    whole; the others are read no further than their header (none: no log there)."""
    try:
        logs_found = log_paths(paths)
    except DataError:  # no log there: a report (the caller) says so, after its own checks
        return []
    on_paper = []
    for path in logs_found:
        try:
            header = read_log(path, header_only=True)
        except DataError:  # no log: the report says so; nothing of a table is in it
            continue
        if (
            header.status == "success"
            and benchmark_of(header) is not None
            and on_paper_data(run_result(header))
        ):
            on_paper.append(read_log(path))
    return on_paper


def _cells(table: PaperTable, logs: Sequence[EvalLog]) -> list[Cell]:
    return reproduction(
        table, [log for log in logs if benchmark_of(log) is benchmark(table.benchmark)]
    )


def table_cells(table: PaperTable, paths: Sequence[str | Path]) -> list[Cell]:
    """Each published cell of a table beside ours, from the logs (files or folders)."""
    return _cells(table, _paper_logs(paths))


def reproductions(paths: Sequence[str | Path]) -> list[tuple[PaperTable, list[Cell]]]:
    """Each packaged table that finished runs among the logs (files or folders) stand in
    for, cell by cell: runs on the paper's data, in a published row's condition, of a model
    its suite names."""
    logs = _paper_logs(paths)
    found = [(table, _cells(table, logs)) for table in PAPER_TABLES]
    return [(table, cells) for table, cells in found if any(c.paper is not None for c in cells)]


def reproduced_tables(paths: Sequence[str | Path]) -> list[ResultTable]:
    """The view of each packaged table that runs among the logs stand in for (the
    report's section)."""
    return [reproduction_table(table, cells) for table, cells in reproductions(paths)]


def reproduction_text(table: PaperTable, cells: Sequence[Cell], fmt: ReproductionFormat) -> str:
    """The view as CSV, Markdown, LaTeX (the table, verdict under it) or JSON (every cell,
    not-run ones included, with each field of `Cell`, its difference and whether it was
    reproduced; undefined figures as null, and the tally)."""
    view = reproduction_table(table, cells)
    if fmt == "csv":
        return str(csv_frame(view).to_csv(index=False))
    if fmt == "markdown":
        return markdown([view])
    if fmt == "latex":
        return latex_table(view)
    if fmt == "json":
        document = {
            "medhalbench": VERSION,
            "table": table.name,
            "title": view.title,
            "verdict": dataclasses.asdict(Tally.of(cells)),
            "cells": [
                {
                    **json_safe(dataclasses.asdict(c)),
                    "difference": json_safe(c.difference),
                    "reproduced": c.reproduced,
                }
                for c in cells
            ],
        }
        return json.dumps(document, ensure_ascii=False, allow_nan=False, indent=1) + "\n"
    raise ValueError(f"no text form for {fmt!r}: the terminal prints the table")
