"""The reliability diagrams of the runs that kept verdict probabilities: each run's
calibration bins (as its calibration table lists them) drawn against the diagonal."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from medhalbench.results import ReliabilityBin, RunResult, reliability_diagram

CALIBRATION = "calibration"
"""The prefix of a run's calibration figures (`calibration/<bin>/count`, ...)."""


def reliability_bins(run: RunResult) -> list[ReliabilityBin]:
    """A run's calibration bins, in order (equal-width bins of the predicted probability; an
    empty bin has an undefined mean and share)."""
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


def reliability_charts(runs: Sequence[RunResult], labels: Mapping[str, str]) -> list[str]:
    """A reliability diagram per run that kept verdict probabilities, each titled with the
    run's label (`labels`, by log): P(positive) as the calibration table gives it (the
    benchmark's positive class: hallucinated, non-factual)."""
    return [
        reliability_diagram(f"Reliability diagram: {labels[run.log]}", reliability_bins(run))
        for run in runs
        if f"{CALIBRATION}/0/count" in run.metrics
    ]
