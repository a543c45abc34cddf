"""The report as one self-contained HTML page: Jinja2 templates, charts inline, no script
and no external request."""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from itertools import groupby

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from medhalbench._version import VERSION
from medhalbench.report._page import Page
from medhalbench.results import UNDEFINED, Estimate, ResultTable, undefined_reason

LONGEST_WORD = 36
"""Longer words (log files, long model names) are shortened in cells, whole on hover."""


@dataclass(frozen=True)
class CellView:
    """A cell as the page shows it."""

    text: str
    column: str
    numeric: bool
    title: str = ""
    interval: str = ""


@dataclass(frozen=True)
class TableView:
    """A table as the page shows it: column groups, headers, rows, notes."""

    slug: str
    groups: list[tuple[str, int]]
    headers: list[str]
    rows: list[tuple[list[CellView], str | None]]
    notes: list[str]
    undefined: str


def shorten(text: str) -> str:
    """A text with each over-long word cut in its middle ("2026-11-23T18…hallu_6o6C.eval")."""
    words = text.split(" ")
    half = LONGEST_WORD // 2
    return " ".join(w if len(w) <= LONGEST_WORD else f"{w[: half - 1]}…{w[-half:]}" for w in words)


def _cell(value: object, text: str, name: str, numeric: bool, reason: str) -> CellView:
    if text == UNDEFINED or text.startswith(f"{UNDEFINED} "):
        return CellView(text, name, numeric, f"undefined: {reason}" if reason else "")
    if isinstance(value, Estimate) and " [" in text:
        # The interval on a line of its own keeps numeric columns narrow.
        figure, interval = text.split(" [", 1)
        return CellView(figure, name, True, f"95% interval [{interval}", f"[{interval}")
    short = shorten(text)
    return CellView(short, name, numeric, text if short != text else "")


def table_view(table: ResultTable) -> TableView:
    """The view of a result table: each undefined cell titled with its reason, each long
    word shortened with the whole text as its title, intervals under their figures."""
    numeric = [table.numeric(i) for i in range(len(table.columns))]
    rows = []
    for row, source in zip(table.rows, table.published, strict=True):
        cells = [
            _cell(value, text, column.heading, numeric[i], undefined_reason(value, column))
            for i, (column, value, text) in enumerate(
                zip(table.columns, row, table.formatted(row), strict=True)
            )
        ]
        rows.append((cells, source))
    groups = [(g, len(list(c))) for g, c in groupby(c.group for c in table.columns)]
    notes = table.undefined_notes()
    return TableView(
        slug=table.slug,
        groups=groups if any(g for g, _ in groups) else [],
        headers=[c.name for c in table.columns],
        rows=rows,
        notes=table.notes,
        undefined=f"{UNDEFINED} undefined: " + "; ".join(notes) + "." if notes else "",
    )


def chart_title(svg: str) -> str:
    """A chart's title (its SVG's `aria-label`), as text."""
    found = re.search(r'aria-label="([^"]*)"', svg)
    return html.unescape(found.group(1)) if found else "chart"


def chart_titles(svgs: list[str]) -> str:
    """What a set of charts shows, short: each kind of chart once, with how many there are
    of it ("DAHL score by category (4); DAHL score by answering temperature")."""
    kinds = Counter(chart_title(svg).split(": ", 1)[0] for svg in svgs)
    return "; ".join(f"{kind} ({n})" if n > 1 else kind for kind, n in kinds.items())


def _environment() -> Environment:
    environment = Environment(
        loader=PackageLoader("medhalbench.report", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.globals["table_view"] = table_view
    environment.globals["zip"] = zip
    environment.filters["shorten"] = shorten
    environment.filters["chart_titles"] = chart_titles
    return environment


def render_html(page: Page) -> str:
    """The page as HTML."""
    css = resources.files(__package__).joinpath("templates", "report.css").read_text("utf-8")
    template = _environment().get_template("report.html.j2")
    return template.render(page=page, css=css, version=VERSION, undefined=UNDEFINED)
