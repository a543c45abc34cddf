"""The papers' figures as inline SVG, drawn with matplotlib (text kept as text, so that a
page stays searchable and a test can read the categories and series a chart shows)."""

from __future__ import annotations

import io
import math
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from medhalbench.results._runs import RunResult

if TYPE_CHECKING:
    from matplotlib.figure import Figure

WIDTH_INCHES = 6.4
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


def _figure(height: float) -> Figure:
    from matplotlib.figure import Figure

    # A Figure of its own (not pyplot's global state): safe in threads, nothing left open.
    return Figure(figsize=(WIDTH_INCHES, height), layout="constrained")


def _svg(figure: Figure, title: str) -> str:
    import matplotlib

    figure.suptitle(title, fontweight="bold", fontsize=10, x=0.01, horizontalalignment="left")
    buffer = io.StringIO()
    with matplotlib.rc_context(STYLE):
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    svg = buffer.getvalue()
    # Inline in HTML: no XML prolog or DOCTYPE, and no RDF metadata; name the chart.
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.DOTALL)
    return svg.replace("<svg ", f'<svg role="img" aria-label="{_attribute(title)}" ', 1)


def _attribute(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def grouped_bars(
    title: str,
    groups: Sequence[str],
    series: Mapping[str, Sequence[float | None]],
    *,
    y_max: float = 1.0,
    y_label: str = "",
) -> str:
    """Vertical grouped bars: one group per label, one bar per series in each (a missing
    value leaves its bar out)."""
    import matplotlib

    with matplotlib.rc_context(STYLE):
        figure = _figure(2.2 + 0.2 * len(series))
        axes = figure.add_subplot()
        width = 0.8 / max(1, len(series))
        for s, (name, values) in enumerate(series.items()):
            xs = [g + (s - (len(series) - 1) / 2) * width for g in range(len(groups))]
            kept = [(x, v) for x, v in zip(xs, values, strict=True) if v is not None]
            axes.bar([x for x, _ in kept], [v for _, v in kept], width * 0.95, label=name)
        axes.set_xticks(range(len(groups)), list(groups))
        axes.set_ylim(0, y_max)
        axes.set_ylabel(y_label)
        figure.legend(loc="outside lower center", frameon=False)
        return _svg(figure, title)


def horizontal_bars(
    title: str, labels: Sequence[str], values: Sequence[float], *, x_max: float = 1.0
) -> str:
    """Horizontal bars, one per label, each with its value (e.g. DAHL score per category)."""
    import matplotlib

    with matplotlib.rc_context(STYLE):
        figure = _figure(0.8 + 0.28 * len(labels))
        axes = figure.add_subplot()
        bars = axes.barh(range(len(labels)), values, 0.7)
        axes.bar_label(bars, fmt="%.3f", padding=3)
        axes.set_yticks(range(len(labels)), list(labels))
        axes.invert_yaxis()  # the first label on top, as in the tables
        axes.set_xlim(0, x_max * 1.1)
        return _svg(figure, title)


def line_chart(
    title: str,
    series: Mapping[str, Sequence[tuple[float, float]]],
    *,
    x_label: str,
    y_max: float = 1.0,
) -> str:
    """Lines of (x, y) points, one per series (e.g. DAHL score by temperature per model)."""
    import matplotlib

    with matplotlib.rc_context(STYLE):
        figure = _figure(2.6 + 0.2 * len(series))
        axes = figure.add_subplot()
        for name, points in series.items():
            ordered = sorted(points)
            axes.plot([x for x, _ in ordered], [y for _, y in ordered], marker="o", label=name)
        axes.set_xlabel(x_label)
        axes.set_ylim(0, y_max)
        figure.legend(loc="outside lower center", frameon=False)
        return _svg(figure, title)
