"""Reading a run's figures and settings back from an inspect log."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog


def log_metrics(log: EvalLog) -> dict[str, float]:
    """Every metric of a log by name (empty when it has no results)."""
    return {
        name: float(m.value)
        for s in (log.results.scores if log.results else [])
        for name, m in s.metrics.items()
    }


@dataclass(frozen=True)
class Estimate:
    """A figure and its 95% interval (NaN where undefined or not computed)."""

    value: float
    low: float = math.nan
    high: float = math.nan

    @property
    def has_interval(self) -> bool:
        """Whether both ends of the interval are defined."""
        return math.isfinite(self.low) and math.isfinite(self.high)


@dataclass(frozen=True)
class RunResult:
    """One run's figures, read from its log.

    Attributes:
        system: The benchmark's registry name (`medhallu`, `dahl`, `medhal`, ...).
        model: The model under test.
        metrics: Every metric by name (intervals as `<name>_ci_low` / `<name>_ci_high`).
        settings: The task's metadata (dataset, knowledge, temperature, ...).
        log: The log file.
        status: The log's status.
        usage: Input and output tokens by role (`model`: the model under test) of the calls
            the run made (answers served from inspect's cache cost nothing and are not
            counted).
    """

    system: str
    model: str
    metrics: dict[str, float]
    settings: dict[str, Any]
    log: str
    status: str
    usage: dict[str, tuple[int, int]] = field(default_factory=dict)

    def figure(self, name: str) -> Estimate | None:
        """A figure with its interval; None when the run did not compute it."""
        if name not in self.metrics:
            return None
        return Estimate(
            self.metrics[name],
            self.metrics.get(f"{name}_ci_low", math.nan),
            self.metrics.get(f"{name}_ci_high", math.nan),
        )

    @property
    def dataset(self) -> str:
        """The dataset's file name (or hub id)."""
        return Path(str(self.settings.get("responses") or self.settings.get("dataset", ""))).name

    def prefixed(self, prefix: str) -> list[str]:
        """The distinct second parts of metric names `<prefix>/<part>/...` or `<prefix>/<part>`."""
        parts = {k.split("/")[1] for k in self.metrics if k.startswith(f"{prefix}/")}
        return sorted(p.removesuffix("_ci_low").removesuffix("_ci_high") for p in parts)


def run_result(log: EvalLog) -> RunResult:
    """The figures and settings of a log of a benchmark task (its metadata names the system).

    Raises:
        ValueError: The log's task metadata names no benchmark.
    """
    metadata = log.eval.metadata or {}
    system = metadata.get("system")
    if not system:
        raise ValueError(f"{log.location}: not a medhalbench log")
    return RunResult(
        system=str(system),
        model=log.eval.model,
        metrics=log_metrics(log),
        settings=dict(metadata),
        log=log.location,
        status=log.status,
        usage=role_usage(log),
    )


MAIN_ROLE = "model"
"""The role name of the model under test (inspect's main model) in usage and plans."""


def role_usage(log: EvalLog) -> dict[str, tuple[int, int]]:
    """Input and output tokens by role; the model under test's are its model's usage less
    that of roles played by the same model."""
    stats = log.stats
    usage = {r: (u.input_tokens, u.output_tokens) for r, u in stats.role_usage.items()}
    main = stats.model_usage.get(log.eval.model)
    if main is not None:
        roles = log.eval.model_roles or {}
        shared = [
            usage[r]
            for r, config in roles.items()
            if r in usage and getattr(config, "model", None) == log.eval.model
        ]
        usage[MAIN_ROLE] = (
            main.input_tokens - sum(u[0] for u in shared),
            main.output_tokens - sum(u[1] for u in shared),
        )
    return usage
