"""Scorer reading a detector's verdict strictly (and, where it cannot, by the extractor when
one is named), and as the authors' script reads it."""

from __future__ import annotations

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from medhalbench.judging import read_then_extract, verdict_probability
from medhalbench.medhallu._metrics import PREDICTION_NAMES, detection_metrics
from medhalbench.medhallu._verdicts import (
    UNPARSEABLE,
    DetectionLabel,
    MedHalluScoreMetadata,
    paper_detection_reading,
    parse_detection_verdict,
)
from medhalbench.outputs import paper_text, reply_as_sent

_DIGITS = {"0": "0", "1": "1"}
_MEANINGS = {
    "0": "the answer is factual",
    "1": "the answer is hallucinated",
    "2": "not sure",
}
QUESTION = "Is the answer to a medical question factual (0) or hallucinated (1)?"


@scorer(metrics=[detection_metrics()])
def detection_verdict(
    not_sure: bool = False, extract_template: str = "", score_threshold: float | None = None
) -> Scorer:
    """Score a detection reply.

    The value is 1 when the verdict matches the label, else 0. The metadata holds our
    prediction's name (`factual`, `hallucinated`, `not_sure` or `unparseable`), who read
    it (`read_by`: `strict`, `extractor`, or none), the authors' reading of the same reply
    (`paper_prediction`, 0/1/2), why the strict reader read no verdict (`unread_reason`,
    kept where the extractor then read one) and, when the provider returned
    log-probabilities, P(hallucinated) at the verdict token; the parser's reason is the
    explanation.

    Args:
        not_sure: Whether "2: not sure" is an allowed answer.
        extract_template: The extractor's prompt, for replies the strict reader cannot read
            (used only when the `extractor` role names a model).
        score_threshold: Where the prompt asks for P(hallucinated): the threshold a score
            is read against (None: a score is never a verdict).
    """

    async def score(state: TaskState, target: Target) -> Score:
        reply = state.output.completion if state.output else ""
        verdict = parse_detection_verdict(
            reply, allow_not_sure=not_sure, score_threshold=score_threshold
        )
        choices = {k: v for k, v in _MEANINGS.items() if not_sure or k != "2"}
        label, read_by = await read_then_extract(
            verdict.label, reply, choices, question=QUESTION, template=extract_template,
            verdict=lambda read: DetectionLabel(int(read)),
        )  # fmt: skip
        reason = verdict.reason
        if read_by == "extractor":
            reason = f"read by the extractor ({reason})"
        return Score(
            value=int(label is not None and int(label) == int(target.text)),
            answer=str(int(label)) if label is not None else None,
            explanation=reason,
            metadata=MedHalluScoreMetadata(
                label=int(target.text),
                prediction=PREDICTION_NAMES[label] if label is not None else UNPARSEABLE,
                read_by=read_by,
                paper_prediction=int(paper_detection_reading(reply_as_sent(state.output))),
                paper_text=paper_text([state.output]),
                p_hallucinated=verdict_probability(state.output, _DIGITS, "1", "0"),
                unread_reason=None if verdict.parsed else verdict.reason,
            ).model_dump(),
        )

    return score
