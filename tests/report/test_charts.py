"""Charts keep every word inside the picture, however many runs and however long their names."""

from __future__ import annotations

import re

import pytest

from medhalbench.results import Bar, grouped_bars, line_chart

NAMES = [
    f"openai-api/together/meta-llama/Llama-3.3-70B-Instruct-Turbo · temperature 0.{i} · "
    "structured yes · judged by checker perplexity/sonar · data pqa_labeled_dev.jsonl · "
    "samples 20 · knowledge no"
    for i in range(8)
]
BAR = Bar(0.5, 0.4, 0.6, 10, paper=0.45)


def _number(pattern: str, text: str) -> float:
    found = re.search(pattern, text)
    assert found is not None, (pattern, text)
    return float(found.group(1))


def _texts(svg: str) -> list[tuple[float, float, float, str]]:
    """Each <text> of an SVG: x, y (its baseline's start), font size, content."""
    found = []
    for attributes, text in re.findall(r"<text([^>]*)>([^<]*)</text>", svg):
        moved = re.search(r"translate\(([-\d.]+)[ ,]([-\d.]+)\)", attributes)
        if moved:
            x, y = map(float, moved.groups())
        else:
            x, y = _number(r' x="([-\d.]+)"', attributes), _number(r' y="([-\d.]+)"', attributes)
        found.append((x, y, _number(r"font-size: ([\d.]+)px", attributes), text))
    return found


@pytest.mark.parametrize(
    "svg",
    [
        grouped_bars("F1 by difficulty", ["easy", "medium", "hard"], {n: [BAR] * 3 for n in NAMES}),
        line_chart("Score by temperature", {n: [(0.2, BAR), (0.8, BAR)] for n in NAMES},
                   x_label="temperature"),
    ],
    ids=["bars", "lines"],
)  # fmt: skip
def test_a_legend_of_many_long_run_names_is_never_cut_off(svg: str) -> None:
    width = _number(r'viewBox="0 0 ([\d.]+) [\d.]+"', svg)
    height = _number(r'viewBox="0 0 [\d.]+ ([\d.]+)"', svg)
    texts = _texts(svg)
    legend = [t for t in texts if "openai-api" in t[3] or "pqa_labeled" in t[3]]
    # Every run named, each line of its name inside the picture: left and bottom edges,
    # and the right edge at the narrowest a character of the font can be.
    assert sum("openai-api" in t[3] for t in legend) == len(NAMES)
    for x, y, _size, text in texts:
        assert 0 <= x and 0 <= y <= height, (x, y, width, height, text)
    for x, _, size, text in legend:
        assert x + 0.45 * size * len(text) <= width, (x, width, text)
