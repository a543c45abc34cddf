"""Reading MedHal results back from inspect logs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from inspect_ai.log import EvalLog

from medhalbench._logs import log_metrics, system_metadata


@dataclass(frozen=True)
class MedHalResult:
    """One model's MedHal figures."""

    model: str
    dataset: str
    split: str
    metrics: dict[str, float]
    log_location: str

    @property
    def sources(self) -> list[str]:
        """The sources with figures of their own."""
        return sorted({k.split("/")[1] for k in self.metrics if k.startswith("source/")})


def medhal_result(log: EvalLog) -> MedHalResult:
    """Collect a MedHal log's figures.

    Raises:
        ValueError: Not a MedHal log.
    """
    metadata = system_metadata(log, "medhal", "MedHal")
    metrics = log_metrics(log)
    return MedHalResult(
        model=log.eval.model,
        dataset=Path(str(metadata.get("dataset", ""))).name,
        split=str(metadata.get("split", "")),
        metrics=metrics,
        log_location=log.location,
    )
