"""Reading a run's figures and settings back from an inspect log."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, EvalSample, EvalSpec
from inspect_ai.model import ModelConfig
from inspect_ai.scorer import SampleScore, Score

from medhalbench._paths import shown_path
from medhalbench.results._figures import log_metrics
from medhalbench.results._record import RunRecord
from medhalbench.settings import SETTINGS_KEY
from medhalbench.statistics import (
    FIGURE_FLAGS,
    NO_INTERVAL,
    NO_INTERVAL_REASONS,
    SCRIPT_FAILS,
    ZERO_FOR_UNDEFINED,
)

ZERO_MARK = "‡"
"""Marks a 0 that a paper's code prints where the figure is undefined."""
FAILS_MARK = "§"
"""Marks a figure a paper's code does not print: it stops with an error on these replies."""
NO_INTERVAL_MARK = "°"
"""Marks a defined figure shown without its interval; why is said under its table."""
MARK_NOTES = {
    ZERO_MARK: "the paper's code prints 0 where the figure is undefined "
    "(scikit-learn's zero_division=0)",
    FAILS_MARK: "the paper's code stops with an error on these replies and prints no figure",
}


@dataclass(frozen=True)
class Estimate:
    """A figure and its 95% interval (NaN where undefined or not computed).

    Attributes:
        value: The figure.
        low: The interval's lower end.
        high: Its upper end.
        mark: A mark shown beside the value (see `MARK_NOTES`), explained under its table.
        why: Why the value is undefined, where this cell's reason is not its column's.
        no_interval: Why a defined value has no interval (empty where it has one, or where
            no reason is known: a published figure).
    """

    value: float
    low: float = math.nan
    high: float = math.nan
    mark: str = ""
    why: str = ""
    no_interval: str = ""

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
        record: Its settings, typed (see `RunRecord`).
        log: The log file.
        status: The log's status.
        usage: Input and output tokens by role (`model`: the model under test) of the calls
            the run made (answers served from inspect's cache cost nothing and are not
            counted).
        roles: The model of each role besides the model under test (`splitter`, ...).
        sample_ids: The ids of the samples the run scored, as its log lists them (empty
            where a log does not): what decides whether two runs judged the same samples,
            whatever selected them (a limit, a file of outputs written elsewhere).
    """

    system: str
    model: str
    metrics: dict[str, float]
    record: RunRecord
    log: str
    status: str
    usage: dict[str, tuple[int, int]] = field(default_factory=dict)
    roles: dict[str, str] = field(default_factory=dict)
    sample_ids: tuple[str, ...] = ()

    @property
    def judges(self) -> str:
        """Each role's model, as text ("splitter: a, checker: b"; "none" without roles)."""
        return ", ".join(f"{role}: {name}" for role, name in self.roles.items()) or "none"

    def figure(self, name: str) -> Estimate | None:
        """A figure with its interval; None when the run did not compute it."""
        if name not in self.metrics:
            return None
        estimate = Estimate(
            self.metrics[name],
            self.metrics.get(f"{name}_ci_low", math.nan),
            self.metrics.get(f"{name}_ci_high", math.nan),
            ZERO_MARK
            if self.metrics.get(f"{name}{ZERO_FOR_UNDEFINED}")
            else FAILS_MARK
            if self.metrics.get(f"{name}{SCRIPT_FAILS}")
            else "",
        )
        if estimate.has_interval or not math.isfinite(estimate.value):
            return estimate
        return replace(estimate, no_interval=self._no_interval(name))

    def _no_interval(self, name: str) -> str:
        """Why a defined figure of this run has no interval."""
        if f"{name}_ci_low" not in self.metrics:
            resamples = self.record.stored.get("bootstrap")
            return "resampling off (--bootstrap 0)" if resamples == 0 else "none computed for it"
        code = self.metrics.get(f"{name}{NO_INTERVAL}")
        return NO_INTERVAL_REASONS.get(
            code or 0.0, "fewer than two sampled units, or undefined in too many resamples"
        )

    @property
    def dataset(self) -> str:
        """The data judged, as tables name it: outputs written elsewhere, or the dataset; a
        local one as `shown_path` shows paths, a hub dataset by its name."""
        data = self.record.data
        source = str(data.responses or data.dataset or "")
        return shown_path(source) if os.path.isabs(source) else Path(source).name

    @property
    def settings(self) -> dict[str, Any]:
        """The settings by name as tables show them (`RunRecord.shown`)."""
        return self.record.shown

    def prefixed(self, prefix: str) -> list[str]:
        """The distinct second parts of metric names `<prefix>/<part>/...` or `<prefix>/<part>`."""
        parts = {k.split("/")[1] for k in self.metrics if k.startswith(f"{prefix}/")}
        return sorted({_figure_name(p) for p in parts})


def _figure_name(metric: str) -> str:
    """The figure a metric is of: the name without an interval's or a flag's suffix."""
    for suffix in ("_ci_low", "_ci_high", *FIGURE_FLAGS):
        metric = metric.removesuffix(suffix)
    return metric


def benchmark_name(task: str) -> str:
    """The name of the benchmark a task (by its registered name, as a log carries it) is of:
    the name without its package (`medhallu` for `medhalbench/medhallu`)."""
    return task.split("/")[-1]


def run_record(log: EvalLog) -> RunRecord:
    """A run's settings, typed: its task's settings record, the generation settings its calls
    were sent with (inspect's effective `GenerateConfig`, whichever route set them: a task
    default, `-T`, our options or inspect's) and what its task computed."""
    metadata = log.eval.metadata or {}
    if SETTINGS_KEY not in metadata:  # a log written before the record: its task's arguments
        metadata = {**metadata, SETTINGS_KEY: dict(log.eval.task_args or {})}
    return RunRecord.of(metadata, log.plan.config)


def run_result(log: EvalLog) -> RunResult:
    """The figures and settings of a log of a benchmark task."""
    return RunResult(
        system=benchmark_name(log.eval.task),
        model=log.eval.model,
        metrics=log_metrics(log),
        record=run_record(log),
        log=log.location,
        status=log.status,
        usage=role_usage(log),
        roles=log_roles(log),
        sample_ids=tuple(str(i) for i in log.eval.dataset.sample_ids or ()),
    )


def role_configs(spec: EvalSpec) -> dict[str, list[ModelConfig]]:
    """The model configurations of each role of a run (a role of one model: one)."""
    roles = spec.model_roles or {}
    return {name: role if isinstance(role, list) else [role] for name, role in roles.items()}


def log_roles(log: EvalLog) -> dict[str, str]:
    """The model of each role a log's run used (several models of one role joined)."""
    roles = role_configs(log.eval).items()
    return {name: ", ".join(config.model for config in role) for name, role in roles}


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


def sample_scores(
    log: EvalLog, scorer: str
) -> dict[tuple[str | int, int], tuple[SampleScore, EvalSample]]:
    """Each sample a log's `scorer` scored, by sample id and epoch: its score as inspect's
    metrics take it, and the sample."""
    return {
        (sample.id, sample.epoch): (
            SampleScore(score=score, sample_id=sample.id, sample_metadata=sample.metadata),
            sample,
        )
        for sample in log.samples or []
        if (score := (sample.scores or {}).get(scorer)) is not None
    }


def served_models(log: EvalLog) -> tuple[str, ...]:
    """The model names the provider gave in its replies to the model under test (the
    version it served, such as `gpt-4o-mini-2024-07-18` for `gpt-4o-mini`), in order of
    first reply; empty where no reply names one (outputs written elsewhere)."""
    return tuple(
        dict.fromkeys(s.output.model for s in log.samples or [] if s.output and s.output.model)
    )


def sample_score(sample: EvalSample) -> Score | None:
    """A sample's score in a log of one of our tasks (each has one scorer); None when the
    sample failed before it was scored."""
    return next(iter((sample.scores or {}).values()), None)
