"""The report as one self-contained HTML page: Jinja2 templates, charts inline, no script
and no external request."""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from importlib import resources
from itertools import groupby

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from medhalbench._paths import shown_model
from medhalbench._version import VERSION
from medhalbench.report._layout import column_parts, column_width
from medhalbench.report._page import Page
from medhalbench.results import UNDEFINED, Column, Estimate, ResultTable, undefined_reason

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
class HeaderView:
    """A column's header as the page shows it (`title`: a path it shortens, whole)."""

    text: str
    title: str = ""


@dataclass(frozen=True)
class TablePart:
    """The columns of a table that fit the page at once: the columns that name its rows,
    then some of the others."""

    groups: list[tuple[str, int]]
    headers: list[HeaderView]
    rows: list[tuple[list[CellView], str | None]]


@dataclass(frozen=True)
class TableView:
    """A table as the page shows it: column groups, headers, rows, notes, and its columns in
    parts that each fit the page (one part where the whole table does)."""

    slug: str
    groups: list[tuple[str, int]]
    headers: list[HeaderView]
    rows: list[tuple[list[CellView], str | None]]
    notes: list[str]
    undefined: str
    parts: list[TablePart]


def shorten(text: str) -> str:
    """A text with each over-long word cut in its middle ("2026-11-23T18…hallu_6o6C.eval")."""
    words = text.split(" ")
    half = LONGEST_WORD // 2
    return " ".join(w if len(w) <= LONGEST_WORD else f"{w[: half - 1]}…{w[-half:]}" for w in words)


def whole(text: str, paths: Mapping[str, str]) -> str:
    """A text with each path it shows shortened (`paths`: the whole path by its shortened
    form) written whole."""
    for short in sorted(paths, key=len, reverse=True):
        if short in text:
            text = text.replace(short, paths[short])
    return text


def _cell(
    value: object, text: str, name: str, numeric: bool, reason: str, paths: Mapping[str, str]
) -> CellView:
    if text == UNDEFINED or text.startswith(f"{UNDEFINED} "):
        return CellView(text, name, numeric, f"undefined: {reason}" if reason else "")
    if isinstance(value, Estimate) and " [" in text:
        # The interval on a line of its own keeps numeric columns narrow.
        figure, interval = text.split(" [", 1)
        return CellView(figure, name, True, f"95% interval [{interval}", f"[{interval}")
    short, full = shorten(text), whole(text, paths)
    return CellView(short, name, numeric, full if short != full else "")


def _groups(columns: Sequence[Column]) -> list[tuple[str, int]]:
    groups = [(g, len(list(c))) for g, c in groupby(c.group for c in columns)]
    return groups if any(g for g, _ in groups) else []


def _parts(
    table: ResultTable,
    headers: list[HeaderView],
    rows: list[tuple[list[CellView], str | None]],
    compact: bool,
) -> list[TablePart]:
    """The table's columns in parts that fit the page, each beside the columns that name
    its rows (those of them that say anything)."""
    widths = [
        column_width(
            header.text,
            [cells[i].text for cells, _ in rows],
            [cells[i].interval for cells, _ in rows],
            numeric=table.numeric(i),
            compact=compact,
        )
        for i, header in enumerate(headers)
    ]
    named = table.key_columns()
    key = [i for i in named if i == named[0] or any(cells[i].text for cells, _ in rows)]
    return [
        TablePart(
            _groups([table.columns[i] for i in part]),
            [headers[i] for i in part],
            [([cells[i] for i in part], source) for cells, source in rows],
        )
        for part in column_parts(widths, key)
    ]


def table_view(
    table: ResultTable, paths: Mapping[str, str] | None = None, *, compact: bool = False
) -> TableView:
    """The view of a result table: each undefined cell titled with its reason, each long
    word shortened and each shortened path given whole in its title, intervals under their
    figures (beside them where `compact`), its columns in parts that fit the page.

    Args:
        table: The table.
        paths: Whole paths by the form tables show them in (`Page.paths`).
        compact: Whether the page shows it compact (intervals beside figures).
    """
    paths = paths or {}
    numeric = [table.numeric(i) for i in range(len(table.columns))]
    rows = []
    for row, source in zip(table.rows, table.published, strict=True):
        cells = [
            _cell(value, text, column.heading, numeric[i], undefined_reason(value, column), paths)
            for i, (column, value, text) in enumerate(
                zip(table.columns, row, table.formatted(row), strict=True)
            )
        ]
        rows.append((cells, source))
    headers = [
        HeaderView(c.name, full if (full := whole(c.name, paths)) != c.name else "")
        for c in table.columns
    ]
    notes = table.undefined_notes()
    return TableView(
        slug=table.slug,
        groups=_groups(table.columns),
        headers=headers,
        rows=rows,
        notes=[*table.interval_notes(), *table.notes],
        undefined=f"{UNDEFINED} undefined: " + "; ".join(notes) + "." if notes else "",
        parts=_parts(table, headers, rows, compact),
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
    environment.filters["shown_model"] = shown_model
    return environment


def render_html(page: Page) -> str:
    """The page as HTML."""
    css = resources.files(__package__).joinpath("templates", "report.css").read_text("utf-8")
    environment = _environment()
    # Each table's shortened paths given whole on hover.
    environment.globals["table_view"] = partial(table_view, paths=page.paths)
    environment.filters["whole"] = partial(whole, paths=page.paths)
    template = environment.get_template("report.html.j2")
    return template.render(page=page, css=css, version=VERSION, undefined=UNDEFINED)
