"""Reading figures back from inspect logs."""

from __future__ import annotations

from typing import Any

from inspect_ai.log import EvalLog


def log_metrics(log: EvalLog) -> dict[str, float]:
    """Every metric of a log by name (empty when it has no results)."""
    return {
        name: float(m.value)
        for s in (log.results.scores if log.results else [])
        for name, m in s.metrics.items()
    }


def system_metadata(log: EvalLog, system: str, name: str) -> dict[str, Any]:
    """The task metadata of a log of one of our systems.

    Raises:
        ValueError: The log is not of that system.
    """
    metadata = log.eval.metadata or {}
    if metadata.get("system") != system:
        raise ValueError(f"{log.location}: not a {name} log")
    return metadata
