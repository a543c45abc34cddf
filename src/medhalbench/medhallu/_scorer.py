"""Scorer reading a detector's verdict strictly, and as the authors' script reads it."""

from __future__ import annotations

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from medhalbench.judging import verdict_probability
from medhalbench.medhallu._metrics import PREDICTION_NAMES, UNPARSEABLE, detection_metrics
from medhalbench.medhallu._verdicts import paper_detection_reading, parse_detection_verdict

_DIGITS = {"0": "0", "1": "1"}


@scorer(metrics=[detection_metrics()])
def detection_verdict(not_sure: bool = False) -> Scorer:
    """Score a detection reply.

    The value is 1 when the verdict matches the label, else 0. The metadata holds our
    prediction's name (`factual`, `hallucinated`, `not_sure` or `unparseable`), the
    authors' reading of the same reply (`paper_prediction`, 0/1/2) and, when the provider
    returned log-probabilities, P(hallucinated) at the verdict token; the parser's reason
    is the explanation.
    """

    async def score(state: TaskState, target: Target) -> Score:
        reply = state.output.completion if state.output else ""
        verdict = parse_detection_verdict(reply, allow_not_sure=not_sure)
        prediction = PREDICTION_NAMES[verdict.label] if verdict.label is not None else UNPARSEABLE
        label = int(target.text)
        logprobs = (
            state.output.choices[0].logprobs if state.output and state.output.choices else None
        )
        return Score(
            value=int(verdict.label is not None and int(verdict.label) == label),
            answer=str(int(verdict.label)) if verdict.label is not None else None,
            explanation=verdict.reason,
            metadata={
                "label": label,
                "prediction": prediction,
                "paper_prediction": int(paper_detection_reading(reply)),
                "p_hallucinated": verdict_probability(logprobs, _DIGITS, "1", "0"),
            },
        )

    return score
