"""Charts of shares keep their value axis to the share's range (0 to 1: labels that need room
go beside the plot, never above 1.0), and a reliability diagram draws each calibration bin
against the diagonal, says how many samples each holds and which bins it left out."""

from __future__ import annotations

import math
import re

import pytest

from medhalbench.results import (
    Bar,
    ReliabilityBin,
    grouped_bars,
    horizontal_bars,
    line_chart,
    reliability_diagram,
)

# Figures at the top of the range, with intervals to it and counts to write.
TOP = Bar(1.0, 0.9, 1.0, 12, paper=1.0)
HIGH = Bar(0.97, 0.9, 1.0, 8)


def _axes(svg: str) -> tuple[float, float, float, float]:
    """The plot's box (the first axes' background): left, top, right, bottom."""
    found = re.search(r'<g id="patch_2">\s*<path d="([^"]*)"', svg)
    assert found is not None
    numbers = [float(n) for n in re.findall(r"[-\d.]+", found.group(1))]
    xs, ys = numbers[0::2], numbers[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def _ticks(svg: str, axis: str) -> dict[str, float]:
    """The first axes' tick labels on an axis (`x` or `y`) by text, at their position."""
    ticks = {}
    part = svg.split('<g id="matplotlib.axis_1">' if axis == "x" else '<g id="matplotlib.axis_2">')
    for tick in re.findall(rf'<g id="{axis}tick_\d+">(.*?)</text>', part[1], re.DOTALL):
        at = re.search(rf'<use [^>]* {axis}="([-\d.]+)"', tick)
        text = re.search(r">([^<>]*)$", tick)
        if at and text:
            ticks[text.group(1)] = float(at.group(1))
    return ticks


@pytest.mark.parametrize(
    ("svg", "axis"),
    [
        (grouped_bars("F1 by difficulty", ["easy", "hard"], {"a": [TOP, HIGH], "b": [HIGH, TOP]},
                      y_label="F1"), "y"),
        (horizontal_bars("DAHL score by category", ["oncology", "cardiology"], [TOP, HIGH],
                         unit="scored responses"), "x"),
        (line_chart("Score by temperature", {"a": [(0.2, TOP), (0.8, HIGH)]},
                    x_label="temperature"), "y"),
    ],
    ids=["grouped bars", "horizontal bars", "lines"],
)  # fmt: skip
def test_the_axis_of_a_share_stops_at_one(svg: str, axis: str) -> None:
    left, top, right, bottom = _axes(svg)
    ticks = _ticks(svg, axis)
    values = {float(t): at for t, at in ticks.items() if re.fullmatch(r"[\d.]+", t)}
    assert max(values) == 1.0, ticks  # no tick past 1.0 (the category chart ran to 1.2)
    end = right if axis == "x" else top  # the axis ends at 1.0
    assert values[1.0] == pytest.approx(end, abs=0.5), (values, end)
    assert values[0.0] == pytest.approx(left if axis == "x" else bottom, abs=0.5)


def test_the_counts_and_figures_of_a_share_chart_are_still_written() -> None:
    bars = grouped_bars("F1", ["easy", "hard"], {"a": [TOP, HIGH]})
    assert {"12", "8"} <= set(re.findall(r">(\d+)</text>", bars))
    assert "n: samples per bar, under each bar" in bars
    categories = horizontal_bars("Score", ["oncology", "cardiology"], [TOP, HIGH])
    assert "1.000 (n=12)" in categories and "0.970 (n=8)" in categories


def _bins() -> list[ReliabilityBin]:
    nan = math.nan
    return [
        ReliabilityBin(0.0, 0.2, 0.09, 0.57, 7),
        ReliabilityBin(0.2, 0.4, 0.30, 0.50, 14),
        ReliabilityBin(0.4, 0.6, nan, nan, 0),
        ReliabilityBin(0.6, 0.8, 0.71, 0.80, 5),
        ReliabilityBin(0.8, 1.0, nan, nan, 0),
    ]


def test_a_reliability_diagram_draws_each_bin_against_the_diagonal() -> None:
    svg = reliability_diagram("Reliability diagram: run", _bins(), positive="hallucinated")
    assert 'aria-label="Reliability diagram: run"' in svg
    texts = re.findall(r">([^<>]+)</text>", svg)
    assert [t for t in texts if t.startswith("n=")] == ["n=7", "n=14", "n=5"]  # drawn bins
    assert "perfect calibration" in texts
    assert "mean predicted P(hallucinated)" in texts and "observed share hallucinated" in texts
    # The bins without a sample are left out, and the key says which.
    key = " ".join(t for t in texts if "bins" in t or "left out" in t or "0.8" in t)
    assert "left out, no sample: 0.4–0.6, 0.8–1.0" in " ".join(key.split())
    # Both axes are the probability's range, 0 to 1.
    for axis in ("x", "y"):
        values = {float(t) for t in _ticks(svg, axis) if re.fullmatch(r"[\d.]+", t)}
        assert min(values) == 0.0 and max(values) == 1.0


def test_a_reliability_diagram_of_no_empty_bin_says_none_was_left_out() -> None:
    full = [b for b in _bins() if b.count]
    svg = reliability_diagram("Reliability diagram: run", full)
    assert "left out" not in svg and "P(positive)" in svg
