"""Strict parsing of a detector's verdict: 0 factual, 1 hallucinated, 2 not sure.

Never guesses. A reply is read only when its cues agree; an echo of the prompt's options,
a numbered list or a restated hallucination type is no verdict; anything else is
unparseable and counted as such by the metrics. `paper_detection_reading` is MedHallu's
own substring reading, for the `paper_*` figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from medhalbench.judging import json_field, normalise_reply, offers_alternatives


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
    r"\b(not\s+(?:sure|certain|confident)|unsure|uncertain|can(?:not|'t)\s+(?:determine|tell|say|decide)"
    r"|i\s+(?:do\s+not|don't)\s+know|hard\s+to\s+(?:say|tell))\b"
)
# A verdict digit: not part of a number ("10", "0.5"), a word or a hyphenated term ("1-Year").
_DIGIT = r"(?<![\w.\-])([012])(?![\w])(?!\.\d)(?!-\w)"
_VERDICT_PHRASE = (
    r"(?:(?:final\s+)?(?:answer|verdict|label|output|prediction|classification|judge?ment|rating)"
    r"(?:\s+is)?\s*[:=\-]?|i\s+(?:would\s+)?(?:say|choose|pick|answer|rate\s+(?:it|this))(?:\s+it(?:'s|\s+is))?"
    r"|(?:it|this)\s+is|boxed\{)"
)
_LEADING = re.compile(rf"^[\s\"'(\[]*(?:{_VERDICT_PHRASE}\s*)?[\s\"'(\[]*{_DIGIT}")
_PHRASED_DIGIT = re.compile(rf"{_VERDICT_PHRASE}\s*[\"'(\[]*{_DIGIT}")
_FINAL_DIGIT = re.compile(rf"{_DIGIT}[\s.!)\]\"'}}]*$")
# "0 if the answer is factual", "1 = hallucinated", "2: not sure": the prompt's options.
_OPTION = re.compile(
    r"(?<![\w.])\(?([012])\)?\s*(?:if|=|:|-|–|—|means|for|->|→)\s*(?:the\s+answer\s+is\s+)?"
    r"(?:factual|hallucinated|not\s+sure|unsure)"
)
_LIST_ITEM = re.compile(r"^\s*(\d+)[.)]\s+\S", re.MULTILINE)
_HALLUCINATION_TYPES = re.compile(
    r"^\s*(?:\d+[.)]\s*)?(?:type\s*:?\s*)?(?:misinterpretation\s+of|incomplete\s+information"
    r"|mechanism\s+and\s+pathway|methodological\s+and\s+evidence)"
)
_HALLUCINATED = re.compile(
    r"\b(?:(not|no|non|isn't|is\s+not|free\s+of|(?:does\s+not|doesn't)\s+contain(?:\s+any)?)[\s-]+)?"
    r"(hallucinat\w*)\b"
)
_FACTUAL = re.compile(r"\b(?:(not|non|isn't|is\s+not)[\s-]+)?(factual(?:ly\s+correct)?)\b")
_JSON_KEYS = ("verdict", "label", "answer", "prediction", "judgement", "judgment")


def _word_cues(text: str) -> set[DetectionLabel]:
    cues: set[DetectionLabel] = set()
    for negation, _ in _HALLUCINATED.findall(text):
        cues.add(DetectionLabel.FACTUAL if negation else DetectionLabel.HALLUCINATED)
    for negation, _ in _FACTUAL.findall(text):
        cues.add(DetectionLabel.HALLUCINATED if negation else DetectionLabel.FACTUAL)
    return cues


def _cues(text: str) -> set[DetectionLabel]:
    """Every verdict cue in a text: not-sure phrases, label words, digits in verdict position."""
    cues = {DetectionLabel.NOT_SURE} if _NOT_SURE.search(text) else set()
    # Without the not-sure phrases, so that their "not" cannot negate a following word.
    rest = _NOT_SURE.sub(" ", text)
    digits = [m.group(1) for m in _PHRASED_DIGIT.finditer(rest)]
    final = _FINAL_DIGIT.search(rest)
    if final:
        digits.append(final.group(1))
    return cues | {DetectionLabel(int(d)) for d in digits} | _word_cues(rest)


def _names(labels: set[DetectionLabel]) -> str:
    return ", ".join(sorted(str(int(label)) for label in labels))


def parse_detection_verdict(reply: str, *, allow_not_sure: bool = False) -> DetectionVerdict:
    """Read a detector's reply.

    Rules, in order:
    1. A JSON object's `verdict` (or `label`, `answer`) field is read by these rules.
    2. An echo of the prompt's options (`0 if ... factual` / `1 if ... hallucinated`), a
       numbered list, or a restated hallucination type is no verdict.
    3. A verdict digit at the start of the reply (optionally after "Answer:") wins, unless
       another digit is offered as an alternative ("0 or 1"). A list-style "1." followed by
       text is read only when the text holds no conflicting cue.
    4. Otherwise every cue must agree: digits in verdict position ("the answer is 1", a
       final "1"), "not sure" phrases, and "hallucinated"/"factual" with their negations.
       Digits inside numbers, words or hyphenated terms ("1-Year") are not cues.

    Args:
        reply: The model's completion.
        allow_not_sure: Whether 2 / "not sure" is a valid answer in this setting; when it
            is not, such a reply is unparseable.

    Returns:
        The verdict, or an unparseable verdict with the reason.
    """
    text = normalise_reply(reply)
    if not text:
        return DetectionVerdict(None, "empty reply")
    field = json_field(text, _JSON_KEYS)
    if field is not None:
        inner = parse_detection_verdict(field, allow_not_sure=allow_not_sure)
        return DetectionVerdict(inner.label, f"JSON field: {inner.reason}")

    def accept(label: DetectionLabel, how: str) -> DetectionVerdict:
        if label is DetectionLabel.NOT_SURE and not allow_not_sure:
            return DetectionVerdict(None, f"'not sure' ({how}) is not an allowed answer here")
        return DetectionVerdict(label, how)

    if len({m.group(1) for m in _OPTION.finditer(text)}) > 1:
        return DetectionVerdict(None, "echoes the prompt's options")
    if len({m.group(1) for m in _LIST_ITEM.finditer(text)}) > 1:
        return DetectionVerdict(None, "a numbered list, no single verdict")
    if _HALLUCINATION_TYPES.match(text):
        return DetectionVerdict(None, "restates a hallucination type, no verdict")

    leading = _LEADING.match(text)
    if leading:
        label = DetectionLabel(int(leading.group(1)))
        rest = text[leading.end() :]
        if offers_alternatives(rest, "0|1|2"):
            return DetectionVerdict(None, "alternatives offered, no single verdict")
        if re.match(r"[.)]\s*\S", rest):  # "1. ..." reads like a list item
            others = _cues(rest[1:]) - {label}
            if others:
                return DetectionVerdict(None, f"conflicting verdicts ({_names(others | {label})})")
        return accept(label, "leading digit")

    cues = _cues(text)
    if not cues:
        return DetectionVerdict(None, "no verdict found")
    if len(cues) > 1:
        return DetectionVerdict(None, f"conflicting verdicts ({_names(cues)})")
    return accept(cues.pop(), "single cue")


def paper_detection_reading(reply: str, *, not_sure: bool = False) -> DetectionLabel:
    """MedHallu's own reading of a reply, by substring tests on the lower-cased text.

    Any of "1", "not", "non" reads as hallucinated; with the not-sure option, otherwise
    any of "not sure", "pass", "skip", "2" reads as not sure; everything else, unreadable
    replies included, reads as factual. The hallucinated test comes first, so "not sure"
    itself reads as hallucinated, as in the authors' script.
    """
    text = reply.lower()
    if any(s in text for s in ("1", "not", "non")):
        return DetectionLabel.HALLUCINATED
    if not_sure and any(s in text for s in ("not sure", "pass", "skip", "2")):
        return DetectionLabel.NOT_SURE
    return DetectionLabel.FACTUAL
