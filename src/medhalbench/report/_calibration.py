"""The reliability diagrams of the runs that kept verdict probabilities: each run's
calibration bins (as its calibration table lists them) drawn against the diagonal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from medhalbench.results import RunResult, reliability_bins, reliability_diagram


def reliability_charts(runs: Sequence[RunResult], labels: Mapping[str, str]) -> list[str]:
    """A reliability diagram per run that kept verdict probabilities, each titled with the
    run's label (`labels`, by log): P(positive) as the calibration table gives it (the
    benchmark's positive class: hallucinated, non-factual)."""
    return [
        reliability_diagram(f"Reliability diagram: {labels[run.log]}", bins)
        for run in runs
        if (bins := reliability_bins(run))
    ]
