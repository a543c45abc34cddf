"""The inspect metric reporting every DAHL figure, and the reducer that keeps each epoch's
response (so that figures are over responses and intervals over questions)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    ScoreReducer,
    Value,
    metric,
    score_reducer,
)

from medhalbench.dahl._paper import PaperResponse
from medhalbench.dahl._scoring import JudgedResponse, ResponseScore, dahl_figures, dahl_scores
from medhalbench.statistics import DEFAULT_RESAMPLES, Figure

# Per-response counts of what cleaning and unit normalisation changed, summed in the metrics.
CHANGE_COUNTS = (
    "removed_declines",
    "units_markdown_stripped",
    "units_split",
    "list_intros_dropped",
    "read_by_extractor",
)


def _response(m: dict[str, Any], category: str) -> ResponseScore:
    return ResponseScore(
        status=m.get("status", "no_units"),
        units=int(m.get("units", 0)),
        true=int(m.get("true", 0)),
        false=int(m.get("false", 0)),
        unknown=int(m.get("unknown", 0)),
        length=int(m.get("length", 0)),
        category=category,
    )


def response_from_metadata(m: dict[str, Any]) -> JudgedResponse:
    """Rebuild a response's judgements from its score metadata."""
    category = str(m.get("category", ""))
    paper, strict = m.get("paper"), m.get("strict")
    return JudgedResponse(
        ours=_response(m, category),
        paper=PaperResponse(**paper) if isinstance(paper, dict) else None,
        strict=_response(strict, category) if isinstance(strict, dict) else None,
    )


def responses_of(sample_score: SampleScore) -> list[dict[str, Any]]:
    """The metadata of each response behind a sample's score (one per epoch)."""
    metadata = sample_score.score.metadata or {}
    return list(metadata["epochs"]) if "epochs" in metadata else [metadata]


@score_reducer(name="dahl_epochs")
def dahl_epochs() -> ScoreReducer:
    """Keep every epoch's response: the value is the mean precision over scored epochs and
    the metadata lists each epoch's judgement, so that the metric counts every response."""

    def reduce(scores: list[Score]) -> Score:
        precisions = [
            float(p) for s in scores if (p := (s.metadata or {}).get("precision")) is not None
        ]
        value = math.fsum(precisions) / len(precisions) if precisions else 0.0
        return Score(
            value=value,
            explanation=f"{len(precisions)} of {len(scores)} epochs scored",
            metadata={"epochs": [s.metadata or {} for s in scores]},
        )

    return reduce


def judged_responses(scores: Sequence[SampleScore]) -> tuple[list[JudgedResponse], list[Any]]:
    """Every response behind the scores (one per epoch) and its question."""
    responses, questions = [], []
    for sample_score in scores:
        for metadata in responses_of(sample_score):
            responses.append(response_from_metadata(metadata))
            questions.append(sample_score.sample_id)
    return responses, questions


HEADLINE = ("dahl_score", "paper_dahl_score")


def headline_figures(scores: Sequence[SampleScore], settings: Mapping[str, Any]) -> list[Figure]:
    """The figures a comparison of two runs reports (over questions)."""
    responses, questions = judged_responses(scores)
    return [f for f in dahl_figures(responses, questions) if f.name in HEADLINE]


@metric
def dahl_metrics(resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> Metric:
    """DAHL score (ours and the paper's rule) with 95% intervals over questions, exclusion
    counts, mean units and length, per-category scores, and what cleaning changed."""

    def compute(scores: list[SampleScore]) -> Value:
        responses, questions = judged_responses(scores)
        changes = {
            name: float(sum(m.get(name, 0) for s in scores for m in responses_of(s)))
            for name in CHANGE_COUNTS
        }
        return {**dahl_scores(responses, questions, resamples=resamples, seed=seed), **changes}

    return compute
