"""The report's tables as pandas DataFrames, written as CSV (numbers, intervals in columns of
their own, NaN where undefined) or Markdown (as the terminal shows them)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from medhalbench.results import UNDEFINED, Estimate, ResultTable


def _number(value: float) -> str:
    # NaN, not "–", so that CSV readers see a missing number; an empty cell: not computed.
    return "NaN" if math.isnan(value) else f"{value:.6f}"


def _csv_cells(table: ResultTable, row: Sequence[object]) -> list[str]:
    cells: list[str] = []
    for column, value in zip(table.columns, row, strict=True):
        estimate = value if isinstance(value, Estimate) else None
        if estimate is not None:
            cells.append(_number(estimate.value))
        elif isinstance(value, float):
            cells.append(_number(value))
        else:
            cells.append("" if value is None else str(value))
        if column.interval:
            cells += [_number(estimate.low), _number(estimate.high)] if estimate else ["", ""]
    return cells


def csv_frame(table: ResultTable) -> pd.DataFrame:
    """A table for CSV: each figure a number, its interval's ends in columns of their own,
    and the published source of a paper's row."""
    header: list[str] = []
    for c in table.columns:
        header += (
            [c.heading, f"{c.heading} CI low", f"{c.heading} CI high"]
            if c.interval
            else [c.heading]
        )
    rows = [
        [*_csv_cells(table, row), source or ""]
        for row, source in zip(table.rows, table.published, strict=True)
    ]
    return pd.DataFrame(rows, columns=[*header, "Published"], dtype=str)


def markdown(tables: Sequence[ResultTable]) -> str:
    """Tables as Markdown, each under its title with its notes."""
    parts = []
    for t in tables:
        frame = pd.DataFrame(
            [t.formatted(row) for row in t.rows], columns=[c.heading for c in t.columns]
        )
        parts.append(f"### {t.title}\n\n{frame.to_markdown(index=False, disable_numparse=True)}")
        notes = t.undefined_notes()
        if notes:
            parts.append(f"{UNDEFINED} undefined: " + "; ".join(notes) + ".")
        parts += t.notes
    return "\n\n".join(parts) + "\n"
