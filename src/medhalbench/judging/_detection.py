"""Strict parsing of a detector's verdict: 0 factual, 1 hallucinated, 2 not sure.

Never guesses. A reply is read only when its cues agree; anything else is unparseable
and counted as such by the metrics (MedHallu's own script maps such replies to "factual").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from medhalbench.judging._choice import offers_alternatives


class DetectionLabel(IntEnum):
    """A detector's answer, in MedHallu's numbering."""

    FACTUAL = 0
    HALLUCINATED = 1
    NOT_SURE = 2


@dataclass(frozen=True)
class DetectionVerdict:
    """The result of parsing one reply.

    Attributes:
        label: The verdict, or None when the reply could not be read.
        reason: Why it was read that way (or why not), for the log.
    """

    label: DetectionLabel | None
    reason: str

    @property
    def parsed(self) -> bool:
        """Whether the reply gave a readable verdict."""
        return self.label is not None


_NOT_SURE = re.compile(
    r"\b(not\s+(?:sure|certain)|unsure|uncertain|can(?:not|'t)\s+(?:determine|tell|say)"
    r"|i\s+(?:do\s+not|don't)\s+know)\b"
)
# "Answer: 1", "**1**", "1.", "1 - hallucinated", "(0)" at the very start of the reply.
_LEADING_DIGIT = re.compile(
    r"^[\s*\"'`(\[]*(?:(?:final\s+)?(?:answer|verdict|label|output|prediction|classification)"
    r"\s*(?:is)?\s*[:=\-]?\s*)?[\s*\"'`(\[]*([012])(?![\d])(?!\.\d)"
)
_DIGIT = re.compile(r"(?<![\w.])([012])(?![\w])(?!\.\d)")
_HALLUCINATED = re.compile(r"\b(?:(not|no|non|isn't|is\s+not)[\s-]+)?(hallucinat\w*)\b")
_FACTUAL = re.compile(r"\b(?:(not|non|isn't|is\s+not)[\s-]+)?(factual(?:ly\s+correct)?)\b")


def _word_cues(text: str) -> set[DetectionLabel]:
    cues: set[DetectionLabel] = set()
    for negation, _ in _HALLUCINATED.findall(text):
        cues.add(DetectionLabel.FACTUAL if negation else DetectionLabel.HALLUCINATED)
    for negation, _ in _FACTUAL.findall(text):
        cues.add(DetectionLabel.HALLUCINATED if negation else DetectionLabel.FACTUAL)
    return cues


def parse_detection_verdict(reply: str, *, allow_not_sure: bool = False) -> DetectionVerdict:
    """Read a detector's reply.

    Rules, in order: a verdict digit at the start of the reply (optionally after
    "Answer:") wins; otherwise every cue in the reply (standalone digits 0/1/2, "not sure"
    phrases, "hallucinated"/"factual" with their negations) must agree on one label.
    "Not sure" is a phrase of its own and is never read as the "not" of a negation.

    Args:
        reply: The model's completion.
        allow_not_sure: Whether 2 / "not sure" is a valid answer in this setting; when it
            is not, such a reply is unparseable.

    Returns:
        The verdict, or an unparseable verdict with the reason.
    """
    text = reply.strip().lower().replace("**", "")
    if not text:
        return DetectionVerdict(None, "empty reply")

    def accept(label: DetectionLabel, how: str) -> DetectionVerdict:
        if label is DetectionLabel.NOT_SURE and not allow_not_sure:
            return DetectionVerdict(None, f"'not sure' ({how}) is not an allowed answer here")
        return DetectionVerdict(label, how)

    leading = _LEADING_DIGIT.match(text)
    if leading and offers_alternatives(text[leading.end() :], "0|1|2"):
        return DetectionVerdict(None, "alternatives offered, no single verdict")
    if leading:
        return accept(DetectionLabel(int(leading.group(1))), "leading digit")

    not_sure = bool(_NOT_SURE.search(text))
    # Remove the not-sure phrases so their "not" cannot negate a following word.
    rest = _NOT_SURE.sub(" ", text)
    cues = {DetectionLabel(int(d)) for d in _DIGIT.findall(rest)} | _word_cues(rest)
    if not_sure:
        cues.add(DetectionLabel.NOT_SURE)
    if not cues:
        return DetectionVerdict(None, "no verdict found")
    if len(cues) > 1:
        names = ", ".join(sorted(str(int(c)) for c in cues))
        return DetectionVerdict(None, f"conflicting verdicts ({names})")
    return accept(cues.pop(), "single cue")
