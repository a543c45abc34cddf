"""Reading DAHL results back from inspect logs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from inspect_ai.log import EvalLog

from medhalbench._logs import log_metrics, system_metadata


@dataclass(frozen=True)
class DahlResult:
    """One model's DAHL figures at one answering temperature."""

    model: str
    dataset: str
    temperature: float
    metrics: dict[str, float]
    log_location: str

    @property
    def categories(self) -> dict[str, float]:
        """Per-category scores."""
        return {k.split("/", 1)[1]: v for k, v in self.metrics.items() if k.startswith("category/")}


def dahl_result(log: EvalLog) -> DahlResult:
    """Collect a DAHL log's figures.

    Raises:
        ValueError: Not a DAHL log.
    """
    metadata = system_metadata(log, "dahl", "DAHL")
    metrics = log_metrics(log)
    return DahlResult(
        model=log.eval.model,
        dataset=Path(str(metadata.get("responses") or metadata.get("dataset", ""))).name,
        temperature=float(metadata.get("temperature", 0.0)),
        metrics=metrics,
        log_location=log.location,
    )
