"""The summary as LaTeX for a paper: per benchmark, its headline figure (ours) for every run
and condition with its 95% interval, one `table` each (booktabs rules, through pandas'
Styler), the summary's notes and why a "--" is undefined in the caption."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from medhalbench._version import VERSION
from medhalbench.report._summary import BenchmarkSummary
from medhalbench.results import UNDEFINED, Cell, Estimate, ResultTable, format_cell

_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    UNDEFINED: "--",
    "−": "$-$",
    "·": r"$\cdot$",
    "…": r"\ldots{}",
    "‡": r"\ddag{}",
    "§": r"\S{}",
    "★": r"$\star$",
    "◆": r"$\diamond$",
    "°": r"$^{\circ}$",
}
_PATTERN = re.compile("|".join(re.escape(c) for c in _SPECIAL))

RUN_COLUMN = "p{5cm}"
"""The run column's width (names wrap); figures are right-aligned."""


def latex_text(text: str) -> str:
    """Text as LaTeX typesets it as written: its special characters escaped, and the
    report's dashes, dots and marks as LaTeX commands (no package needed)."""
    return _PATTERN.sub(lambda m: _SPECIAL[m.group(0)], text)


def _figure(cell: Cell, digits: int) -> str:
    """A figure with its mark and, smaller, its 95% interval; "--" where undefined, empty
    where not computed."""
    if cell is None:
        return ""
    if not isinstance(cell, Estimate):
        return latex_text(str(cell))
    text = latex_text(format_cell(cell, digits, interval=not cell.has_interval))
    if cell.has_interval and math.isfinite(cell.value):
        text += rf" {{\footnotesize [{cell.low:.{digits}f}, {cell.high:.{digits}f}]}}"
    return text


def _heading(text: str) -> str:
    """A column heading, one phrase ("knowledge no") a line."""
    lines = [latex_text(part) for part in text.split(" · ")]
    return lines[0] if len(lines) == 1 else r"\shortstack[r]{" + r"\\".join(lines) + "}"


def latex_table(table: ResultTable) -> str:
    """One summary table (a row per run, a column per condition) as a LaTeX `table`."""
    from pandas import DataFrame

    frame = DataFrame(
        [
            [latex_text(str(row[0])), *(_figure(c, col.digits) for c, col in
                                         zip(row[1:], table.columns[1:], strict=True))]
            for row in table.rows
        ],
        columns=[latex_text(table.columns[0].name), *(_heading(c.name) for c in table.columns[1:])],
    )  # fmt: skip
    undefined = table.undefined_notes()
    caption = " ".join(
        [
            f"{latex_text(table.title)} (ours) with its 95\\% bootstrap interval.",
            *(latex_text(note) for note in [*table.interval_notes(), *table.notes]),
            *([f"-- undefined: {latex_text('; '.join(undefined))}."] if undefined else []),
        ]
    )
    return frame.style.hide(axis="index").to_latex(
        column_format=RUN_COLUMN + "r" * (len(table.columns) - 1),
        hrules=True,
        caption=caption,
        label=f"tab:{table.slug.replace('_', '-')}",
        position="htbp",
        position_float="centering",
    )


def latex(summaries: Sequence[BenchmarkSummary], reproduced: Sequence[ResultTable] = ()) -> str:
    """The summary of every benchmark as LaTeX tables of our headline figures (the
    paper protocol's figures and the published range are in the HTML, CSV and JSON), then
    the papers' tables reproduced, cell by cell."""
    head = (
        f"% medhalbench {VERSION}: each benchmark's headline figure per run and condition,\n"
        "% with its 95% bootstrap interval. Needs \\usepackage{booktabs}.\n"
    )
    tables = [t for s in summaries for t in s.ours] + list(reproduced)
    return head + "\n".join(latex_table(t) for t in tables)
