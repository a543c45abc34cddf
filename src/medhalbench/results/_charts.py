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


COUNT_ROOM = 10.0
"""Points between a bar chart's axis and its group labels, where each bar's n is written."""
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
    where: str = "",
) -> None:
    """Say what the marks mean, over the plot (only the marks it shows; `where`: where each
    mark's n is written)."""
    shown = [f"{mark}: ours" + (" with 95% intervals" if any(b.error for b in bars) else "")]
    if any(b.n is not None for b in bars):
        shown.append(f"n: {unit} per {mark.removesuffix('s')}" + (f", {where}" if where else ""))
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
                if b.n is not None:  # under the axis: the plot keeps to the figure's range
                    axes.annotate(
                        str(b.n), (x, 0), xycoords=("data", "axes fraction"), xytext=(0, -2),
                        textcoords="offset points", ha="center", va="top", fontsize=6,
                        color="#444444", annotation_clip=False,
                    )  # fmt: skip
            every += list(bars)
        axes.set_xticks(range(len(groups)), list(groups))
        if any(b.n is not None for b in every):
            axes.tick_params(axis="x", length=0, pad=COUNT_ROOM)  # the groups under the counts
        axes.set_ylim(0, y_max)
        axes.set_ylabel(y_label)
        _key(figure, axes, every, legend=True, unit=unit, where="under each bar")
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
        _markers(axes, list(range(len(bars))), bars, horizontal=True)
        axes.set_yticks(range(len(labels)), list(labels))
        axes.invert_yaxis()  # the first label on top, as in the tables
        axes.set_xlim(0, x_max)
        # Each bar's figure and n in a column right of the plot, not inside its range.
        values = axes.twinx()
        values.set_ylim(axes.get_ylim())
        values.set_yticks(
            range(len(bars)),
            [
                (format(b.value, ".3f") if b.value is not None else "–")
                + (f" (n={b.n})" if b.n is not None else "")
                for b in bars
            ],
            fontsize=7,
        )
        values.tick_params(axis="y", length=0)
        values.grid(False)
        for spine in values.spines.values():
            spine.set_visible(False)
        _key(figure, axes, bars, legend=False, unit=unit, where="right of each bar")
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
            drawn = axes.errorbar(
                [x for x, _ in ordered], [b.value or 0.0 for _, b in ordered],
                yerr=[[e[0] for e in errors], [e[1] for e in errors]], marker="o",
                capsize=2, label=name,
            )  # fmt: skip
            for artist in drawn.get_children():  # a point on the range's end is drawn whole
                artist.set_clip_on(False)
            _markers(axes, [x for x, _ in ordered], [b for _, b in ordered], horizontal=False)
            for x, b in ordered:
                if b.n is not None:  # beside the point, inside the range: below a high one
                    high = (b.value or 0.0) > y_max / 2
                    axes.annotate(
                        str(b.n), (x, b.value or 0.0), xytext=(4, -4 if high else 4),
                        textcoords="offset points", ha="left", va="top" if high else "bottom",
                        fontsize=6, color="#444444",
                    )  # fmt: skip
            every += [b for _, b in ordered]
        axes.set_xlabel(x_label)
        axes.set_ylim(0, y_max)
        _key(figure, axes, every, legend=True, unit=unit, mark="points", where="beside each point")
        return _svg(figure, title)


@dataclass(frozen=True)
class ReliabilityBin:
    """One bin of a reliability diagram: the samples whose predicted probability falls in
    [low, high].

    Attributes:
        low: The bin's lower edge.
        high: Its upper edge.
        predicted: The mean predicted probability of its samples (NaN: an empty bin).
        observed: The share of them that are positive (NaN: an empty bin).
        count: How many samples it holds.
    """

    low: float
    high: float
    predicted: float
    observed: float
    count: int

    @property
    def empty(self) -> bool:
        """Whether nothing can be drawn of it (no sample, so no mean or share)."""
        return not (self.count and math.isfinite(self.predicted) and math.isfinite(self.observed))

    @property
    def label(self) -> str:
        """Its range as text ("0.6–0.8")."""
        return f"{self.low:.1f}–{self.high:.1f}"


CALIBRATION = "calibration"
"""The prefix of a run's calibration figures (`calibration/<bin>/count`, ...)."""


def reliability_bins(run: RunResult) -> list[ReliabilityBin]:
    """A run's calibration bins, in order (equal-width bins of the predicted probability; an
    empty bin has an undefined mean and share); none where it kept no verdict probabilities."""
    count = len(run.prefixed(CALIBRATION))
    metrics = run.metrics
    return [
        ReliabilityBin(
            low=i / count,
            high=(i + 1) / count,
            predicted=metrics.get(f"{CALIBRATION}/{i}/mean_predicted", math.nan),
            observed=metrics.get(f"{CALIBRATION}/{i}/observed", math.nan),
            count=int(metrics.get(f"{CALIBRATION}/{i}/count", 0.0)),
        )
        for i in range(count)
    ]


def reliability_diagram(
    title: str, bins: Sequence[ReliabilityBin], *, positive: str = "positive"
) -> str:
    """A reliability diagram: each bin's mean predicted probability against the share of its
    samples that are positive, beside the diagonal of perfect calibration, each point with
    the samples it is over; bins without a sample are left out, and the key says which.

    Args:
        title: The chart's title.
        bins: The bins, in order.
        positive: What the probability is of (the benchmark's positive class).
    """
    drawn = [b for b in bins if not b.empty]
    with _plot(3.6) as (figure, axes):
        axes.plot([0, 1], [0, 1], linestyle="--", color="#888888", linewidth=0.8,
                  label="perfect calibration")  # fmt: skip
        points = axes.plot(
            [b.predicted for b in drawn], [b.observed for b in drawn], marker="o",
            label="bins: mean predicted vs observed share",
        )  # fmt: skip
        for artist in points:  # a point on the range's end is drawn whole
            artist.set_clip_on(False)
        for b in drawn:  # inside the square: left of a point near its right edge, ...
            right, high = b.predicted > 0.75, b.observed > 0.85
            axes.annotate(
                f"n={b.count}", (b.predicted, b.observed),
                xytext=(-4 if right else 4, -4 if high else 4), textcoords="offset points",
                ha="right" if right else "left", va="top" if high else "bottom", fontsize=6,
                color="#444444",
            )  # fmt: skip
        axes.set_xlim(0, 1)
        axes.set_ylim(0, 1)
        axes.set_aspect("equal", adjustable="box")
        axes.set_xlabel(f"mean predicted P({positive})")
        axes.set_ylabel(f"observed share {positive}")
        empty = [b.label for b in bins if b.empty]
        key = "points: bins of the predicted probability; n: samples per bin"
        if empty:
            key += f"; left out, no sample: {', '.join(empty)}"
        axes.set_title(textwrap.fill(key, 70), fontsize=7, color="#555555", loc="left")
        figure.legend(loc="outside lower center", fontsize=7, frameon=False, ncols=2)
        return _svg(figure, title)
