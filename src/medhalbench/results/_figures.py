"""Which figures a benchmark's inspect metric returns, and where a run's every figure is kept.

inspect shows every value a task's metrics return, in its progress line and its closing panel
(for a benchmark, over a hundred lines), and recomputes them while the run goes. So a task's
metric returns only its benchmark's headline figures (`Benchmark.headline`), without
resampling; when the task ends, its own metric is made again asking for every figure, applied
to the log's scored samples, and the result is kept in the log's header under `FIGURES_KEY`
(`keep_every_figure`). Readers take the figures from there (`log_metrics`), and from the
metrics of a log written before this.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, cast

from inspect_ai.log import EvalLog
from inspect_ai.scorer import SampleScore, Value
from inspect_ai.util import registry_create

FigureSet = Literal["headline", "all"]
"""Which figures a benchmark's metric returns: its headline ones (a task's, for inspect's
display) or every figure with its interval (what the log keeps, a direct call's default)."""

FIGURES_KEY = "medhalbench_figures"
"""The key of a run's every figure in its log's `results.metadata`."""

FIGURES_OPTION = "figures"
"""The parameter of a benchmark's metric that takes a `FigureSet`."""


def chosen_figures(
    figures: FigureSet,
    headline: Sequence[str],
    compute: Callable[[int], Mapping[str, float]],
    resamples: int,
) -> dict[str, float]:
    """A benchmark metric's value: every figure (`compute(resamples)`), or only the headline
    ones computed without resampling (`compute(0)`: inspect shows no interval).

    Args:
        figures: Which figures.
        headline: The benchmark's headline figures, in order.
        compute: Every figure, given the resamples of its intervals.
        resamples: The resamples a run asked for.
    """
    if figures == "all":
        return dict(compute(resamples))
    every = compute(0)
    return {name: every[name] for name in headline if name in every}


def _task_metric(log: EvalLog) -> tuple[str, dict[str, Any]] | None:
    """The name and options of the log's metric that was asked for a set of figures (a
    benchmark task's), as the task gave it: its options hold the set (`FIGURES_OPTION`)."""
    given = log.eval.metrics or [
        m for s in log.eval.scorers or [] if isinstance(s.metrics, list) for m in s.metrics
    ]
    for definition in given if isinstance(given, list) else []:
        if not isinstance(definition, dict) and FIGURES_OPTION in (definition.options or {}):
            return definition.name, dict(definition.options or {})
    return None


def every_figure(log: EvalLog, scores: list[SampleScore]) -> dict[str, float] | None:
    """Every figure of `scores` by the metric of `log`'s task, made again with its options
    asking for all figures; None where its task has no such metric (its metrics are all).

    Args:
        log: A log of a benchmark's task (its header is enough).
        scores: Sample scores of its scorer (the log's, or several runs' pooled).
    """
    found = _task_metric(log)
    if found is None:
        return None
    name, options = found
    # Our metrics take sample scores (inspect's current metric protocol) and return floats.
    metric = cast(
        Callable[[list[SampleScore]], Value],
        registry_create("metric", name, **{**options, FIGURES_OPTION: "all"}),
    )
    value = metric(scores)
    return (
        {k: float(cast(float, v)) for k, v in value.items()} if isinstance(value, Mapping) else None
    )


def metric_scores(log: EvalLog, scorer: str) -> list[SampleScore]:
    """The sample scores a log's metrics took: each sample's scores of `scorer` reduced over
    its epochs (the log's reductions; else each sample's own), with its sample's metadata,
    less those inspect leaves unscored (NaN)."""
    metadata: dict[str | int | None, dict[str, Any]] = {
        sample.id: sample.metadata for sample in log.samples or []
    }
    reduced = next((r.samples for r in log.reductions or [] if r.scorer == scorer), None)
    scores = (
        [
            SampleScore(score=r, sample_id=r.sample_id, sample_metadata=metadata.get(r.sample_id))
            for r in reduced
        ]
        if reduced is not None
        else [
            SampleScore(score=found, sample_id=sample.id, sample_metadata=sample.metadata)
            for sample in log.samples or []
            if (found := (sample.scores or {}).get(scorer)) is not None
        ]
    )
    return [
        s for s in scores if not (isinstance(s.score.value, float) and math.isnan(s.score.value))
    ]


def keep_every_figure(log: EvalLog, scored: EvalLog | None = None) -> bool:
    """Compute every figure of a finished run and keep it in `log`'s results (`FIGURES_KEY`);
    False where there is nothing to add (no results, or metrics that are all its figures).

    Args:
        log: The run's log (its header is enough where `scored` is given).
        scored: The same log read with its samples (default: `log` itself).
    """
    if log.results is None or not log.results.scores:
        return False
    scores = metric_scores(scored or log, log.results.scores[0].scorer)
    figures = every_figure(log, scores)
    if figures is None:
        return False
    log.results.metadata = {**(log.results.metadata or {}), FIGURES_KEY: figures}
    return True


def log_metrics(log: EvalLog) -> dict[str, float]:
    """Every figure of a log by name: those kept at its task's end (`FIGURES_KEY`), else its
    metrics (a log written before figures were kept apart, or one whose metrics are all its
    figures); empty when it has no results."""
    if log.results is None:
        return {}
    kept = (log.results.metadata or {}).get(FIGURES_KEY)
    if isinstance(kept, Mapping):
        return {name: float(value) for name, value in kept.items()}
    return {name: float(m.value) for s in log.results.scores for name, m in s.metrics.items()}
