"""Reading figures back from inspect logs."""

from __future__ import annotations

from inspect_ai.log import EvalLog


def log_metrics(log: EvalLog) -> dict[str, float]:
    """Every metric of a log by name (empty when it has no results)."""
    return {
        name: float(m.value)
        for s in (log.results.scores if log.results else [])
        for name, m in s.metrics.items()
    }
