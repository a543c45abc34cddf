"""The report draws a reliability diagram beside the calibration table of each run that kept
verdict probabilities: its bins as the table lists them, the empty ones left out and said."""

from __future__ import annotations

import math
import re

from helpers import record_of
from medhalbench.report import CollectedResults, build_page, render_html
from medhalbench.report._calibration import reliability_charts
from medhalbench.results import RunResult, reliability_bins

BINS = [(0.1, 0.6, 7), (0.3, 0.5, 14), (math.nan, math.nan, 0), (0.7, 0.8, 5), (0.9, 1.0, 2)]


def _run(model: str, calibrated: bool = True) -> RunResult:
    metrics = {"f1": 0.5, "samples": 28.0}
    if calibrated:
        for i, (predicted, observed, count) in enumerate(BINS):
            metrics |= {
                f"calibration/{i}/mean_predicted": predicted,
                f"calibration/{i}/observed": observed,
                f"calibration/{i}/count": float(count),
            }
    settings = {"dataset": "/data/rows.jsonl", "dataset_fingerprint": "abc", "rows": 14}
    return RunResult(
        system="medhallu", model=model, metrics=metrics, log=f"{model}.eval", status="success",
        record=record_of({**settings, "knowledge": False, "probabilities": calibrated}),
    )  # fmt: skip


def test_a_run_s_bins_are_read_as_its_calibration_table_lists_them() -> None:
    bins = reliability_bins(_run("openai/gpt-4o"))
    assert [b.label for b in bins] == ["0.0–0.2", "0.2–0.4", "0.4–0.6", "0.6–0.8", "0.8–1.0"]
    assert [b.count for b in bins] == [7, 14, 0, 5, 2]
    assert [b.empty for b in bins] == [False, False, True, False, False]
    assert bins[0].predicted == 0.1 and bins[0].observed == 0.6


def test_a_diagram_per_run_that_kept_probabilities() -> None:
    runs = [_run("openai/gpt-4o"), _run("openai/gpt-4o-mini", calibrated=False)]
    charts = reliability_charts(runs, {r.log: f"MedHallu · {r.model}" for r in runs})
    assert len(charts) == 1
    assert 'aria-label="Reliability diagram: MedHallu · openai/gpt-4o"' in charts[0]
    texts = " ".join(re.findall(r">([^<>]+)</text>", charts[0]))
    assert "left out, no sample: 0.4–0.6" in " ".join(texts.split())


def test_the_page_shows_the_diagram_beside_the_calibration_table() -> None:
    runs = [_run("openai/gpt-4o"), _run("openai/gpt-4o-mini", calibrated=False)]
    page = build_page(CollectedResults(runs=runs), published=False)
    [diagram] = page.charts["calibration"]
    html = render_html(page)
    section = html.split('id="calibration-heading"')[1].split("</section>")[0]
    assert 'id="calibration"' in section and "Charts: Reliability diagram" in section
    assert diagram.split(">", 1)[0] in section
