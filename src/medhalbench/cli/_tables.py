"""Rendering result tables in the terminal."""

from __future__ import annotations

from rich.table import Table

from medhalbench.report._tables import ResultTable


def rich_table(table: ResultTable) -> Table:
    """A rich table for a result table (text columns left, numbers right)."""
    rendered = Table(title=table.title)
    text_columns = {
        c for i, c in enumerate(table.columns) if any(isinstance(row[i], str) for row in table.rows)
    }
    for column in table.columns:
        rendered.add_column(column, justify="left" if column in text_columns else "right")
    for row in table.rows:
        rendered.add_row(*table.formatted(row))
    return rendered
