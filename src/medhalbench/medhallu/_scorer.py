"""Scorer reading a detector's verdict strictly."""

from __future__ import annotations

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from medhalbench.judging import parse_detection_verdict
from medhalbench.medhallu._metrics import PREDICTION_NAMES, UNPARSEABLE, detection_metrics


@scorer(metrics=[detection_metrics()])
def detection_verdict(not_sure: bool = False) -> Scorer:
    """Score a detection reply.

    The value is 1 when the verdict matches the label, else 0. The prediction's name
    (`factual`, `hallucinated`, `not_sure` or `unparseable`) is in the metadata, which
    inspect's epoch reducers keep (they turn string values into numbers); the parser's
    reason is the explanation.
    """

    async def score(state: TaskState, target: Target) -> Score:
        reply = state.output.completion if state.output else ""
        verdict = parse_detection_verdict(reply, allow_not_sure=not_sure)
        prediction = PREDICTION_NAMES[verdict.label] if verdict.label is not None else UNPARSEABLE
        label = int(target.text)
        return Score(
            value=int(verdict.label is not None and int(verdict.label) == label),
            answer=str(int(verdict.label)) if verdict.label is not None else None,
            explanation=verdict.reason,
            metadata={"label": label, "prediction": prediction},
        )

    return score
