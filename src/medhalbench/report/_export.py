"""The report's tables as pandas DataFrames, written as CSV (plain column names, numbers,
counts as whole numbers, intervals in columns of their own, NaN where undefined) or Markdown
(as the terminal shows them)."""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence

import pandas as pd

from medhalbench.results import UNDEFINED, Estimate, ResultTable


def _number(value: float, digits: int) -> str:
    # NaN, not "–", so that CSV readers see a missing number; an empty cell: not computed.
    # Counts (no digits) stay whole numbers.
    if math.isnan(value):
        return "NaN"
    return str(round(value)) if digits == 0 and value == round(value) else f"{value:.6f}"


def plain_name(heading: str) -> str:
    """A column heading as a plain column name: lower case, words joined by "_"
    ("Paper F1" -> `paper_f1`, "knowledge no · not sure yes" -> `knowledge_no_not_sure_yes`)."""
    return re.sub(r"[^a-z0-9]+", "_", heading.lower()).strip("_") or "value"


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: str) -> str:
    """A CSV cell that a spreadsheet shows as text: one that starts as a formula would (`=`,
    `+`, `-`, `@`, a tab or a carriage return; a model's or a file's name can) gets a leading
    apostrophe, unless it is a number."""
    if text.startswith(_FORMULA_START):
        try:
            float(text)
        except ValueError:
            return "'" + text
    return text


def markdown_text(text: str) -> str:
    """Text that a Markdown viewer shows as written: HTML in it (a `<script>` in a model's
    or a system's name) escaped, never rendered."""
    return html.escape(text, quote=False)


def markdown_cell(text: str) -> str:
    """`markdown_text` for a table cell, its pipes escaped too (a `|` would split the cell)."""
    return markdown_text(text).replace("|", "\\|")


def _csv_cells(table: ResultTable, row: Sequence[object]) -> list[str]:
    cells: list[str] = []
    for column, value in zip(table.columns, row, strict=True):
        estimate = value if isinstance(value, Estimate) else None
        if estimate is not None:
            cells.append(_number(estimate.value, column.digits))
        elif isinstance(value, float):
            cells.append(_number(value, column.digits))
        else:
            cells.append("" if value is None else spreadsheet_safe(str(value)))
        if column.interval:
            low, high = (estimate.low, estimate.high) if estimate else (math.nan, math.nan)
            cells += [_number(low, 3), _number(high, 3)] if estimate else ["", ""]
    return cells


def _header(table: ResultTable) -> list[str]:
    """Plain, unique column names: each figure, its interval's ends as `<name>_ci_low` and
    `<name>_ci_high`, and `published` (the source of a paper's row; dropped where no row is
    a paper's)."""
    names: list[str] = []
    for c in table.columns:
        name = plain_name(c.heading)
        names += [name, f"{name}_ci_low", f"{name}_ci_high"] if c.interval else [name]
    names.append("published")
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name}_{seen[name]}")
    return unique


def csv_frame(table: ResultTable) -> pd.DataFrame:
    """A table for CSV: plain column names, each figure a number (counts whole), its
    interval's ends in columns of their own, and the published source of a paper's row."""
    rows = [
        [*_csv_cells(table, row), spreadsheet_safe(source or "")]
        for row, source in zip(table.rows, table.published, strict=True)
    ]
    frame = pd.DataFrame(rows, columns=_header(table), dtype=str)
    # The source column only where a row is a paper's.
    return frame if any(table.published) else frame.drop(columns=frame.columns[-1])


def markdown(tables: Sequence[ResultTable]) -> str:
    """Tables as Markdown, each under its title with its notes."""
    parts = []
    for t in tables:
        frame = pd.DataFrame(
            [[markdown_cell(str(cell)) for cell in t.formatted(row)] for row in t.rows],
            columns=[markdown_cell(c.heading) for c in t.columns],
        )
        table = frame.to_markdown(index=False, disable_numparse=True)
        parts.append(f"### {markdown_text(t.title)}\n\n{table}")
        notes = t.undefined_notes()
        if notes:
            parts.append(markdown_text(f"{UNDEFINED} undefined: " + "; ".join(notes) + "."))
        parts += [markdown_text(note) for note in t.notes]
    return "\n\n".join(parts) + "\n"
