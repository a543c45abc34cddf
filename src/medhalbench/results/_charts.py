"""The papers' figures as inline SVG, drawn with matplotlib (text kept as text, so that a
page stays searchable and a test can read the categories and series a chart shows)."""

from __future__ import annotations

import contextlib
import io
import math
import re
import textwrap
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from medhalbench.results._published import PublishedRow
from medhalbench.results._runs import RunResult

if TYPE_CHECKING:
    from matplotlib.figure import Figure

WIDTH_INCHES = 6.4
TITLE_CHARACTERS = 90
"""Characters of a title's line at the chart's width (10-point bold)."""
LEGEND_CHARACTERS = 100
"""Characters of a legend entry's line (8 points): a longer run name wraps."""
LEGEND_LINE_INCHES = 0.17
"""The height a legend line takes (the figure grows by it, so that the plot keeps its size)."""
STYLE: Any = {
    "svg.fonttype": "none",  # <text> elements, not glyph paths
    "svg.hashsalt": "medhalbench",  # the same figure, the same SVG
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "axes.axisbelow": True,
}


def defined_metric(run: RunResult, name: str) -> float | None:
    """A run's metric for plotting: None when absent or undefined."""
    value = run.metrics.get(name)
    return None if value is None or math.isnan(value) else value


@contextlib.contextmanager
def _plot(height: float) -> Iterator[tuple[Figure, Any]]:
    """A figure of the charts' width with one plot in it, drawn in their style."""
    import matplotlib
    from matplotlib.figure import Figure

    with matplotlib.rc_context(STYLE):
        # A Figure of its own (not pyplot's global state): safe in threads, nothing left open.
        figure = Figure(figsize=(WIDTH_INCHES, height), layout="constrained")
        yield figure, figure.add_subplot()


def _svg(figure: Figure, title: str) -> str:
    import matplotlib

    # A long title (a run's name) wraps rather than running off the figure.
    wrapped = textwrap.fill(title, TITLE_CHARACTERS)
    figure.suptitle(wrapped, fontweight="bold", fontsize=10, x=0.01, horizontalalignment="left")
    buffer = io.StringIO()
    with matplotlib.rc_context(STYLE):
        # Tight: the saved picture holds every artist (a legend wider or taller than the
        # figure is never cut off).
        figure.savefig(
            buffer, format="svg", bbox_inches="tight", pad_inches=0.05,
            metadata={"Date": None, "Creator": None},
        )  # fmt: skip
    svg = buffer.getvalue()
    # Inline in HTML: no XML prolog or DOCTYPE, and no RDF metadata; name the chart.
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.DOTALL)
    return svg.replace("<svg ", f'<svg role="img" aria-label="{_attribute(title)}" ', 1)


def _attribute(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


@dataclass(frozen=True)
class Bar:
    """One plotted figure: its value, 95% interval, the count it is over, and the paper's
    figures beside it.

    Attributes:
        value: The figure (None: not plotted).
        low: Its interval's lower end (None or NaN: no interval).
        high: Its upper end.
        n: How many samples (or responses) it is over.
        paper: The paper protocol's figure on the same replies.
        published: The figure the paper published for the same model and setting.
    """

    value: float | None
    low: float | None = None
    high: float | None = None
    n: int | None = None
    paper: float | None = None
    published: float | None = None

    @property
    def error(self) -> tuple[float, float] | None:
        """The distance from the value down and up to the interval's ends (None: none)."""
        if self.value is None or self.low is None or self.high is None:
            return None
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            return None
        return max(0.0, self.value - self.low), max(0.0, self.high - self.value)


def bar_of(
    run: RunResult, name: str, *, n: str = "", paper: str = "", row: PublishedRow | None = None
) -> Bar:
    """A run's figure as a bar: value and interval (None where undefined), the count metric
    `n`, the paper protocol's figure `paper`, and `paper` as published for the same model and
    setting (`row`: the paper's published row, where it has one)."""
    value = defined_metric(run, name)
    count = run.metrics.get(n) if n else None
    return Bar(
        value,
        run.metrics.get(f"{name}_ci_low"),
        run.metrics.get(f"{name}_ci_high"),
        int(count) if count is not None and math.isfinite(count) else None,
        defined_metric(run, paper) if paper else None,
        row.metrics.get(paper) if row and paper else None,
    )


PAPER_MARKER: Any = {"marker": "D", "color": "black", "s": 14, "zorder": 4}
PUBLISHED_MARKER: Any = {"marker": "*", "color": "#d62728", "s": 60, "zorder": 5}
INTERVAL: Any = {"ecolor": "#333333", "capsize": 2, "elinewidth": 0.8}


def _markers(axes: Any, xs: Sequence[float], bars: Sequence[Bar], *, horizontal: bool) -> None:
    for kind, style in (("paper", PAPER_MARKER), ("published", PUBLISHED_MARKER)):
        points = [(x, getattr(b, kind)) for x, b in zip(xs, bars, strict=True)]
        points = [(x, v) for x, v in points if v is not None]
        if points:
            at, values = [p[0] for p in points], [p[1] for p in points]
            axes.scatter(*((values, at) if horizontal else (at, values)), **style)


def _key(
    figure: Figure,
    axes: Any,
    bars: Sequence[Bar],
    *,
    legend: bool,
    unit: str,
    mark: str = "bars",
) -> None:
    """Say what the marks mean, over the plot (only the marks it shows)."""
    shown = [f"{mark}: ours" + (" with 95% intervals" if any(b.error for b in bars) else "")]
    if any(b.n is not None for b in bars):
        shown.append(f"n: {unit} per {mark.removesuffix('s')}")
    if any(b.paper is not None for b in bars):
        shown.append("◆ paper protocol, same replies")
    if any(b.published is not None for b in bars):
        shown.append("★ published, same model")
    axes.set_title("; ".join(shown), fontsize=7, color="#555555", loc="left")
    if legend:
        handles, labels = axes.get_legend_handles_labels()
        figure.legend(
            handles, [_legend_label(label) for label in labels], loc="outside lower center",
            frameon=False, fontsize=8,
        )  # fmt: skip


def _legend_label(name: str) -> str:
    """A series name as its legend entry: wrapped at `LEGEND_CHARACTERS`."""
    return textwrap.fill(name, LEGEND_CHARACTERS, break_long_words=False)


def legend_height(names: Sequence[str]) -> float:
    """The inches a legend of these series takes, one line per wrapped line."""
    return LEGEND_LINE_INCHES * sum(_legend_label(n).count("\n") + 1 for n in names)


def grouped_bars(
    title: str,
    groups: Sequence[str],
    series: Mapping[str, Sequence[Bar]],
    *,
    y_max: float = 1.0,
    y_label: str = "",
    unit: str = "samples",
) -> str:
    """Vertical grouped bars: one group per label, one bar per series in each, each with its
    95% interval, its n over it, and the paper's figures as markers (a bar without a value
    is left out, its n still shown)."""
    with _plot(2.4 + legend_height(list(series))) as (figure, axes):
        width = 0.8 / max(1, len(series))
        every: list[Bar] = []
        for s, (name, bars) in enumerate(series.items()):
            xs = [g + (s - (len(series) - 1) / 2) * width for g in range(len(groups))]
            kept = [(x, b) for x, b in zip(xs, bars, strict=True) if b.value is not None]
            errors = [b.error or (0.0, 0.0) for _, b in kept]
            axes.bar(
                [x for x, _ in kept], [b.value or 0.0 for _, b in kept], width * 0.95,
                yerr=[[e[0] for e in errors], [e[1] for e in errors]] if kept else None,
                error_kw=INTERVAL, label=name,
            )  # fmt: skip
            _markers(axes, [x for x, _ in kept], [b for _, b in kept], horizontal=False)
            for x, b in zip(xs, bars, strict=True):
                if b.n is not None:
                    top = b.high if b.error else b.value
                    axes.text(x, (top or 0.0) + 0.02 * y_max, str(b.n), ha="center",
                              va="bottom", fontsize=6, color="#444444")  # fmt: skip
            every += list(bars)
        axes.set_xticks(range(len(groups)), list(groups))
        axes.set_ylim(0, y_max * 1.12)
        axes.set_ylabel(y_label)
        _key(figure, axes, every, legend=True, unit=unit)
        return _svg(figure, title)


def horizontal_bars(
    title: str,
    labels: Sequence[str],
    bars: Sequence[Bar],
    *,
    x_max: float = 1.0,
    unit: str = "samples",
) -> str:
    """Horizontal bars, one per label, each with its value, 95% interval, n and the paper's
    figures as markers (e.g. DAHL score per category)."""
    with _plot(1.0 + 0.28 * len(labels)) as (figure, axes):
        errors = [b.error or (0.0, 0.0) for b in bars]
        axes.barh(
            range(len(labels)), [b.value or 0.0 for b in bars], 0.7,
            xerr=[[e[0] for e in errors], [e[1] for e in errors]], error_kw=INTERVAL,
        )  # fmt: skip
        for y, b in enumerate(bars):
            text = format(b.value, ".3f") if b.value is not None else "–"
            text += f" (n={b.n})" if b.n is not None else ""
            right = b.high if b.error else b.value
            axes.text((right or 0.0) + 0.02 * x_max, y, text, va="center", fontsize=7)
        _markers(axes, list(range(len(bars))), bars, horizontal=True)
        axes.set_yticks(range(len(labels)), list(labels))
        axes.invert_yaxis()  # the first label on top, as in the tables
        axes.set_xlim(0, x_max * 1.3)
        _key(figure, axes, bars, legend=False, unit=unit)
        return _svg(figure, title)


def line_chart(
    title: str,
    series: Mapping[str, Sequence[tuple[float, Bar]]],
    *,
    x_label: str,
    y_max: float = 1.0,
    unit: str = "samples",
) -> str:
    """Lines of (x, figure) points with their 95% intervals, one per series (e.g. DAHL
    score by temperature per model)."""
    with _plot(2.8 + legend_height(list(series))) as (figure, axes):
        every: list[Bar] = []
        for name, points in series.items():
            ordered = sorted(((x, b) for x, b in points if b.value is not None), key=lambda p: p[0])
            errors = [b.error or (0.0, 0.0) for _, b in ordered]
            axes.errorbar(
                [x for x, _ in ordered], [b.value or 0.0 for _, b in ordered],
                yerr=[[e[0] for e in errors], [e[1] for e in errors]], marker="o",
                capsize=2, label=name,
            )  # fmt: skip
            _markers(axes, [x for x, _ in ordered], [b for _, b in ordered], horizontal=False)
            for x, b in ordered:
                if b.n is not None:
                    top = b.high if b.error else b.value
                    axes.text(x, (top or 0.0) + 0.02 * y_max, str(b.n), ha="center",
                              va="bottom", fontsize=6, color="#444444")  # fmt: skip
            every += [b for _, b in ordered]
        axes.set_xlabel(x_label)
        axes.set_ylim(0, y_max * 1.05)
        _key(figure, axes, every, legend=True, unit=unit, mark="points")
        return _svg(figure, title)
