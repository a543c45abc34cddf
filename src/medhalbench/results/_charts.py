"""Small inline SVG charts (no plotting library, no external resources)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

from medhalbench.results._runs import RunResult

PALETTE = ("#3b6ea5", "#d1793a", "#5a9e5a", "#b5485b", "#7d62a8", "#8c6d4f", "#4f9ca8", "#a8a14f")
WIDTH = 640


def defined_metric(run: RunResult, name: str) -> float | None:
    """A run's metric for plotting: None when absent or undefined."""
    value = run.metrics.get(name)
    return None if value is None or math.isnan(value) else value


def grouped_bars(
    title: str,
    groups: Sequence[str],
    series: Mapping[str, Sequence[float | None]],
    *,
    y_max: float = 1.0,
) -> str:
    """Vertical grouped bars: one group per label, one bar per series in each."""
    height, left, bottom, top = 260, 48, 40, 28
    plot_w, plot_h = WIDTH - left - 10, height - bottom - top
    names = list(series)
    group_w = plot_w / max(1, len(groups))
    bar_w = max(2.0, group_w * 0.8 / max(1, len(names)))
    parts = [_frame(title, height), *_y_axis(left, top, plot_h, plot_w, y_max)]
    for g, group in enumerate(groups):
        x0 = left + g * group_w + group_w * 0.1
        for s, name in enumerate(names):
            value = series[name][g]
            if value is None:
                continue
            h = plot_h * max(0.0, min(value, y_max)) / y_max
            parts.append(
                f'<rect x="{x0 + s * bar_w:.1f}" y="{top + plot_h - h:.1f}" width="{bar_w - 1:.1f}" height="{h:.1f}" '
                f'fill="{PALETTE[s % len(PALETTE)]}"><title>{escape(name)} / {escape(group)}: {value:.3f}</title></rect>'
            )
        parts.append(
            f'<text x="{left + g * group_w + group_w / 2:.1f}" y="{height - bottom + 16}" text-anchor="middle" font-size="11">{escape(group)}</text>'
        )
    parts += _legend(names, height - 12)
    return "".join(parts) + "</svg>"


def horizontal_bars(
    title: str, labels: Sequence[str], values: Sequence[float], *, x_max: float = 1.0
) -> str:
    """Horizontal bars, one per label (e.g. DAHL score per category)."""
    row, left, top = 18, 200, 28
    height = top + row * len(labels) + 24
    plot_w = WIDTH - left - 60
    parts = [_frame(title, height)]
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        y = top + i * row
        w = plot_w * max(0.0, min(value, x_max)) / x_max
        parts.append(
            f'<text x="{left - 6}" y="{y + 13}" text-anchor="end" font-size="11">{escape(label)}</text>'
        )
        parts.append(
            f'<rect x="{left}" y="{y + 3}" width="{w:.1f}" height="{row - 6}" fill="{PALETTE[0]}"><title>{escape(label)}: {value:.3f}</title></rect>'
        )
        parts.append(f'<text x="{left + w + 4:.1f}" y="{y + 13}" font-size="10">{value:.3f}</text>')
    return "".join(parts) + "</svg>"


def line_chart(
    title: str,
    series: Mapping[str, Sequence[tuple[float, float]]],
    *,
    x_label: str,
    y_max: float = 1.0,
) -> str:
    """Lines of (x, y) points, one per series (e.g. DAHL score by temperature per model)."""
    height, left, bottom, top = 260, 48, 44, 28
    plot_w, plot_h = WIDTH - left - 10, height - bottom - top
    xs = sorted({x for points in series.values() for x, _ in points}) or [0.0]
    x_min, x_span = xs[0], (xs[-1] - xs[0]) or 1.0

    def px(x: float) -> float:
        return left + plot_w * (x - x_min) / x_span

    def py(y: float) -> float:
        return top + plot_h - plot_h * max(0.0, min(y, y_max)) / y_max

    parts = [_frame(title, height), *_y_axis(left, top, plot_h, plot_w, y_max)]
    for x in xs:
        parts.append(
            f'<text x="{px(x):.1f}" y="{top + plot_h + 14}" text-anchor="middle" font-size="10">{x:g}</text>'
        )
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h + 28}" text-anchor="middle" font-size="11">{escape(x_label)}</text>'
    )
    for s, (name, points) in enumerate(series.items()):
        color = PALETTE[s % len(PALETTE)]
        ordered = sorted(points)
        path = " ".join(
            f"{'M' if i == 0 else 'L'}{px(x):.1f},{py(y):.1f}" for i, (x, y) in enumerate(ordered)
        )
        parts.append(f'<path d="{path}" fill="none" stroke="{color}" stroke-width="2"/>')
        for x, y in ordered:
            parts.append(
                f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{color}"><title>{escape(name)} @ {x:g}: {y:.3f}</title></circle>'
            )
    parts += _legend(list(series), height - 4)
    return "".join(parts) + "</svg>"


def _frame(title: str, height: int) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{escape(title)}" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif"><text x="8" y="16" font-size="13" font-weight="bold">{escape(title)}</text>'
    )


def _y_axis(left: int, top: int, plot_h: int, plot_w: int, y_max: float) -> list[str]:
    parts = []
    for tick in range(5):
        value = y_max * tick / 4
        y = top + plot_h - plot_h * tick / 4
        parts.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>'
        )
        parts.append(
            f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="10">{value:.2f}</text>'
        )
    return parts


def _legend(names: Sequence[str], y: int) -> list[str]:
    parts, x = [], 8.0
    for s, name in enumerate(names):
        parts.append(
            f'<rect x="{x:.1f}" y="{y - 9}" width="10" height="10" fill="{PALETTE[s % len(PALETTE)]}"/>'
        )
        parts.append(f'<text x="{x + 14:.1f}" y="{y}" font-size="10">{escape(name)}</text>')
        x += 24 + 6.5 * len(name)
    return parts
