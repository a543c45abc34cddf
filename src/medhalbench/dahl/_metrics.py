"""The inspect metric reporting every DAHL figure."""

from __future__ import annotations

from inspect_ai.scorer import Metric, SampleScore, Value, metric

from medhalbench.dahl._scoring import ResponseScore, dahl_scores


def response_from_score(sample_score: SampleScore) -> ResponseScore:
    """Rebuild a response's judgement from its score metadata."""
    m = sample_score.score.metadata or {}
    return ResponseScore(
        status=m.get("status", "no_units"),
        units=int(m.get("units", 0)),
        true=int(m.get("true", 0)),
        false=int(m.get("false", 0)),
        unknown=int(m.get("unknown", 0)),
        length=int(m.get("length", 0)),
        category=str(m.get("category", "")),
    )


@metric
def dahl_metrics() -> Metric:
    """DAHL score, exclusion counts, mean units and length, per-category scores."""

    def compute(scores: list[SampleScore]) -> Value:
        return dahl_scores([response_from_score(s) for s in scores])

    return compute
