"""Marked cues in sentences: a verdict digit in verdict position ("the answer is 1", "I'd say
0", a digit alone on its line, a final "0") and a value after a label in a sentence ("The
final answer is YES")."""

from __future__ import annotations

import functools
import re

from medhalbench.judging._prose import frame_end, in_condition, set_aside
from medhalbench.judging._schema import Cue, VerdictSchema
from medhalbench.judging._values import read_value
from medhalbench.judging._vocabulary import vocabulary

DIGIT_TOKEN = r"(?<![\w.\-])([012])(?![\w])(?!\.\d)(?!-\w)"
"""A verdict digit standing alone (not in a number, a word or a hyphenated term)."""

_CLOSERS = r"[\s.!)\]\"'}}。।]"
_FINAL_DIGIT = re.compile(rf"{DIGIT_TOKEN}{_CLOSERS}*$")
_DIGIT_LINE = re.compile(r"^[\s\-*•>\"'(\[]*([012])[\s.!)\]\"']*$", re.MULTILINE)
_NOT_THIS = re.compile(
    r"(?:\bnot|\brather\s+than|\binstead\s+of|\bnor)\s*[\"'(\[]*$", re.IGNORECASE
)


@functools.cache
def _digit_phrase() -> re.Pattern[str]:
    """A digit after the words that put it in verdict position ("answer:", "I'd say",
    "therefore", "→")."""
    leads = vocabulary().digit_leads.pattern
    return re.compile(
        rf"(?:{leads}|[→⇒]|->|=>)\s*[\"'(\[]*{DIGIT_TOKEN}", re.IGNORECASE | re.MULTILINE
    )


@functools.cache
def _value_phrase() -> re.Pattern[str]:
    """A neutral label in a sentence, before its value: "the final answer is", "my verdict
    is:"."""
    neutral = vocabulary().labels["neutral"].pattern
    return re.compile(rf"(?:{neutral})\s+(?:is|was|remains)\s*[:=\-]?\s*", re.IGNORECASE)


def _final(masked: str, start: int, end: int) -> bool:
    """Whether the words just before a verdict mark it final ("Final answer: 1")."""
    return bool(vocabulary().final_labels.search(masked[max(0, start - 25) : end]))


def phrase_cues(masked: str, schema: VerdictSchema) -> list[Cue]:
    """Values stated after a label in a sentence ("The final answer is YES")."""
    cues = []
    for match in _value_phrase().finditer(masked):
        if set_aside(masked, match.start()) or frame_end(masked, match.start()) is not None:
            continue
        value = read_value(masked, match.end(), schema, "neutral")
        if value.tone is None or value.tone in ("partial", "hedge") or value.word is not None:
            continue  # verdict words are read as prose, with their negations and frames
        final = _final(masked, match.start(), match.end())
        cues.append(Cue(value.tone, match.start(), value.end, "phrase", marked=True, final=final))
    return cues


def digit_cues(masked: str, schema: VerdictSchema) -> list[Cue]:
    """Verdict digits in verdict position."""
    cues = []
    for pattern in (_digit_phrase(), _DIGIT_LINE, _FINAL_DIGIT):
        for match in pattern.finditer(masked):
            tone = schema.digits.get(match.group(1))
            if tone is None or in_condition(masked, match.start(1)):
                continue  # "it could also be 0"
            if _NOT_THIS.search(masked[max(0, match.start(1) - 20) : match.start(1)]):
                continue  # "1, not 0": the digit it rules out
            final = _final(masked, match.start(), match.start(1))
            cues.append(Cue(tone, match.start(1), match.end(1), "digit", marked=True, final=final))
    return cues
