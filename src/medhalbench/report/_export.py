"""The report's tables as pandas DataFrames, written as CSV (plain column names, numbers,
counts as whole numbers, intervals in columns of their own, NaN where undefined), as JSON
data (the same names; null where undefined, left out where not computed) or Markdown (as the
terminal shows them)."""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence

import pandas as pd

from medhalbench.results import Estimate, ResultTable


def _number(value: float, digits: int) -> str:
    # NaN, not "–", so that CSV readers see a missing number; an empty cell: not computed.
    # Counts (no digits) stay whole numbers.
    if math.isnan(value):
        return "NaN"
    return str(round(value)) if digits == 0 and value == round(value) else f"{value:.6f}"


def json_table(table: ResultTable) -> dict[str, object]:
    """A table as JSON data: its title, slug, plain column names (as in CSV), a record per
    row (a figure that is undefined is null; one not computed is left out; `published`:
    the source of a paper's row) and its notes (why "–" cells are undefined first)."""
    header = _header(table)
    rows = []
    for row, source in zip(table.rows, table.published, strict=True):
        record: dict[str, object] = {
            name: None if isinstance(value, float) and math.isnan(value) else value
            for name, value in zip(header, _values(table, row), strict=False)
            if value is not None
        }
        if source:
            record["published"] = source
        rows.append(record)
    return {
        "title": table.title,
        "slug": table.slug,
        "columns": header if any(table.published) else header[:-1],
        "rows": rows,
        "notes": table.note_lines(),
    }


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


Value = float | int | str | None
"""A cell as data: a figure (NaN: undefined), a count, text, or None (not computed)."""


def _values(table: ResultTable, row: Sequence[object]) -> list[Value]:
    """A row's cells as data, in the columns of `_header` (without `published`): each
    figure, its interval's ends after it where its column has intervals, counts as whole
    numbers."""
    values: list[Value] = []
    for column, cell in zip(table.columns, row, strict=True):
        estimate = cell if isinstance(cell, Estimate) else None
        value = estimate.value if estimate is not None else cell
        if isinstance(value, float):
            whole = column.digits == 0 and math.isfinite(value) and value == round(value)
            values.append(round(value) if whole else value)
        else:
            values.append(None if value is None else str(value))
        if column.with_interval:
            values += [estimate.low, estimate.high] if estimate else [None, None]
    return values


def _csv_cells(table: ResultTable, row: Sequence[object]) -> list[str]:
    return [
        ""
        if value is None
        else str(value)
        if isinstance(value, int)
        else _number(value, 3)
        if isinstance(value, float)
        else spreadsheet_safe(value)
        for value in _values(table, row)
    ]


def _header(table: ResultTable) -> list[str]:
    """Plain, unique column names: each figure, its interval's ends as `<name>_ci_low` and
    `<name>_ci_high`, and `published` (the source of a paper's row; dropped where no row is
    a paper's)."""
    names: list[str] = []
    for c in table.columns:
        name = plain_name(c.heading)
        names += [name, f"{name}_ci_low", f"{name}_ci_high"] if c.with_interval else [name]
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
        parts += [markdown_text(note) for note in t.note_lines()]
    return "\n\n".join(parts) + "\n"
