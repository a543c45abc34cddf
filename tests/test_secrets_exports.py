"""Exports a reader opens elsewhere execute nothing: HTML in a model's or a system's name is
escaped in Markdown (and a `|` stays inside its cell), and a CSV cell that a spreadsheet
would take for a formula is kept as text; numbers stay numbers."""

from __future__ import annotations

import csv
import io
import math

import pytest
from markdown_it import MarkdownIt

from medhalbench.report._export import csv_frame, markdown, spreadsheet_safe
from medhalbench.results import Column, Estimate, ResultTable

HOSTILE_NAMES = [
    "openai-api/x/<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    '=HYPERLINK("http://evil.example","click")',
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "a|b",
]


def table() -> ResultTable:
    result = ResultTable(
        title="<b>MedHallu</b> of <script>x</script>",
        slug="t",
        columns=[Column("Model"), Column("F1", interval=True), Column("n", digits=0)],
        notes=["A note with <iframe src=x></iframe>."],
    )
    for name in HOSTILE_NAMES:
        result.add([name, Estimate(-0.25, -0.5, 0.1), 4.0], published="=evil()")
    result.add(["plain/model", Estimate(math.nan, math.nan, math.nan), 3.0])
    return result


def test_markdown_shows_markup_as_text() -> None:
    text = markdown([table()])
    rendered = MarkdownIt("commonmark", {"html": True}).enable("table").render(text)
    for tag in ("<script", "<img", "<iframe", "<b>"):
        assert tag not in rendered, tag
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in rendered  # shown, as written
    rows = [line for line in text.splitlines() if line.startswith("|")]
    assert len(rows) == 2 + len(HOSTILE_NAMES) + 1  # header, rule, one row each
    assert all(row.count("|") - row.count("\\|") == 4 for row in rows)  # 3 cells each


@pytest.mark.parametrize("name", HOSTILE_NAMES[2:7])
def test_csv_cells_that_look_like_formulas_are_text(name: str) -> None:
    out = io.StringIO()
    csv_frame(table()).to_csv(out, index=False)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    cells = [cell for row in rows[1:] for cell in row]
    assert "'" + name in cells
    assert not any(c.startswith(("=", "+", "@", "\t")) for c in cells)
    assert "-0.250000" in cells and "-0.500000" in cells  # negative numbers stay numbers
    assert "'=evil()" in cells  # the published column too


@pytest.mark.parametrize(
    ("cell", "safe"),
    [("-1.5", "-1.5"), ("+2", "+2"), ("-inf", "-inf"), ("NaN", "NaN"), ("-", "'-"),
     ("=1", "'=1"), ("\r=1", "'\r=1"), ("model", "model"), ("", "")],
)  # fmt: skip
def test_spreadsheet_safe(cell: str, safe: str) -> None:
    assert spreadsheet_safe(cell) == safe
