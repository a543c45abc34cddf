"""A figure shown without its 95% interval says why: too few sampled units, a figure
undefined in too many resamples, resampling turned off, or a published figure."""

from __future__ import annotations

import math

import numpy as np
import pytest

from helpers import record_of
from medhalbench.results import Column, ResultTable, RunResult
from medhalbench.statistics import NO_INTERVAL, NO_INTERVAL_REASONS, estimate, share_figure


def _run(metrics: dict[str, float], **settings: object) -> RunResult:
    return RunResult(
        system="medhallu", model="openai/gpt-4o-mini", metrics=metrics,
        record=record_of({"dataset": "rows.jsonl", **settings}), log="run.eval", status="success",
    )  # fmt: skip


def _shown(run: RunResult) -> tuple[str, list[str]]:
    table = ResultTable("t", "t", [Column("Run"), Column("Hard F1", "f1", interval=True)])
    table.add(["run", run.figure("f1")])
    return table.formatted(table.rows[0])[1], table.note_lines()


def test_one_sampled_unit_has_no_interval_and_says_so() -> None:
    figures = estimate([share_figure("f1", ["a", "a"], [True, False])], resamples=200)
    assert figures["f1"] == 0.5 and math.isnan(figures["f1_ci_low"])
    assert NO_INTERVAL_REASONS[figures[f"f1{NO_INTERVAL}"]].startswith("fewer than two")
    cell, notes = _shown(_run(figures))
    assert cell == "0.500 °"
    assert any(n.startswith("° no interval: fewer than two sampled units") for n in notes)


def test_a_figure_undefined_in_many_resamples_has_no_interval_and_says_so() -> None:
    # One of 10 clusters holds the only counted sample: most resamples leave it out.
    include = [i == 0 for i in range(10)]
    figure = share_figure("f1", [str(i) for i in range(10)], [True] * 10, include)
    figures = estimate([figure], resamples=300)
    assert figures["f1"] == 1.0 and math.isnan(figures["f1_ci_high"])
    cell, notes = _shown(_run(figures))
    assert cell == "1.000 °"
    assert any("undefined in more than 5% of resamples" in n for n in notes)


def test_resampling_off_is_said() -> None:
    cell, notes = _shown(_run({"f1": 0.667}, bootstrap=0))
    assert cell == "0.667 °"
    assert any("resampling off (--bootstrap 0)" in n for n in notes)


def test_a_figure_with_an_interval_or_undefined_has_no_mark() -> None:
    defined = estimate(
        [share_figure("f1", [str(i) for i in range(40)], np.arange(40) % 3 == 0)], resamples=200
    )
    assert f"f1{NO_INTERVAL}" not in defined
    cell, notes = _shown(_run(defined))
    assert "°" not in cell and "[" in cell and not any("no interval" in n for n in notes)
    cell, notes = _shown(_run({"f1": math.nan, "f1_ci_low": math.nan, "f1_ci_high": math.nan}))
    assert cell == "–" and not any("no interval" in n for n in notes)


@pytest.mark.parametrize("published", [True, False])
def test_published_rows_say_the_papers_give_no_interval(published: bool) -> None:
    table = ResultTable("t", "t", [Column("Run"), Column("F1", "f1", interval=True)])
    table.add(["GPT-4o (published)", 0.737], "MedHallu Table 2" if published else None)
    said = "published rows: the papers give no intervals" in table.note_lines()
    assert said is published
