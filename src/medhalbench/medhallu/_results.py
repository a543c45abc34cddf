"""Reading MedHallu detection results back from inspect logs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from inspect_ai.log import EvalLog

from medhalbench._logs import log_metrics, system_metadata


@dataclass(frozen=True)
class DetectionResult:
    """One model's figures from one detection log, as in MedHallu's results table."""

    model: str
    dataset: str
    knowledge: bool
    not_sure: bool
    metrics: dict[str, float]
    log_location: str
    status: str


def detection_result(log: EvalLog) -> DetectionResult:
    """Collect the detection metrics of a MedHallu log.

    Raises:
        ValueError: The log is not a MedHallu detection log or holds no results.
    """
    metadata = system_metadata(log, "medhallu", "MedHallu detection")
    metrics = log_metrics(log)
    return DetectionResult(
        model=log.eval.model,
        dataset=Path(str(metadata.get("dataset", ""))).name,
        knowledge=bool(metadata.get("knowledge")),
        not_sure=bool(metadata.get("not_sure")),
        metrics=metrics,
        log_location=log.location,
        status=log.status,
    )
