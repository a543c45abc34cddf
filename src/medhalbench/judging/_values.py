"""Values: what stands after a label ("Factual: NO", "Verdict: 1", "Hallucinated: ✅") or at
the start of a reply ("False.", "1 - hallucinated"), read by one small reader per form."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from medhalbench.judging._schema import OPPOSITE, Value, VerdictSchema
from medhalbench.judging._vocabulary import LabelSense, Stance, vocabulary

_VALUE_LEAD = re.compile(r"[\s\"'(\[{*`>~=:\-–—→•]*")
# A verdict digit, not a number, a count or a quantity ("1 patient", "0.5", "1/2", "2 mg").
_DIGIT = re.compile(
    r"([0-2])(?![\w])(?!\.\d)(?!-\w)(?!\s*(?:%|/\s*\d|\.\d))"
    r"(?![ \t]+(?:patients?|stud(?:y|ies)|mg|ml|years?|months?|weeks?|days?|hours?|cases?|"
    r"trials?|groups?|cohorts?|participants?|subjects?|arms?|doses?|of|in|out)\b)",
    re.IGNORECASE,
)
_SPACE = re.compile(r"[ \t]+")
_SAME_LINE = re.compile(r"[ \t]*[^\s]")


def affirms(tone: Stance, sense: LabelSense) -> Stance:
    """The stance of an affirmation (yes, true, ✅, 1) or denial under a label."""
    if sense == "fails":
        return OPPOSITE[tone]
    return tone


def answer_stance(schema: VerdictSchema, affirm: bool) -> Stance | None:
    """What a bare yes (or no) states in a schema (None: its question is no yes/no one)."""
    if schema.yes is None:
        return None
    return schema.yes if affirm else OPPOSITE[schema.yes]


def digit_tone(digit: str, schema: VerdictSchema, sense: LabelSense) -> Stance | None:
    """A digit's stance: a verdict code where the schema has codes, a yes/no flag (1/0)
    under a yes/no label; where both readings apply they must agree ("Hallucinated: 1"
    does, "Factual: 1" does not: is it true, or verdict 1?)."""
    code = schema.digits.get(digit)
    if sense == "neutral" or digit not in "01":
        return code
    flag = affirms("holds" if digit == "1" else "fails", sense)
    if code is not None and code != flag:
        return None
    return flag


@functools.cache
def negation_ahead() -> re.Pattern[str]:
    """A negation and the blanks after it, matched before a verdict word."""
    return re.compile(rf"(?:{vocabulary().negation.pattern})[ \t]*", re.IGNORECASE)


@dataclass(frozen=True)
class _At:
    """Where a value is read: the text, the value's position, and how it is read."""

    text: str
    position: int
    start: int
    schema: VerdictSchema
    sense: LabelSense
    leading: bool

    @property
    def rest(self) -> str:
        return self.text[self.position :]

    def signed(self, affirm: bool, end: int) -> Value:
        """An affirmation or denial: under a yes/no label it says the label's stance, in a
        neutral place what the schema's yes says."""
        if self.sense == "neutral":
            return Value(answer_stance(self.schema, affirm), end)
        return Value(affirms("holds" if affirm else "fails", self.sense), end)


_Reader = Callable[[_At], Value | None]
"""One form of value: the value it reads, a value of no tone where the form stands but says
nothing here (which ends the reading), or None where the form does not stand."""


def _sign(at: _At) -> Value | None:
    """A sign standing for yes or no (✅, ❌); beside a verdict word it only decorates it
    ("❌ Hallucinated" is hallucinated)."""
    words = vocabulary()
    signs = words.affirm | words.deny
    rest = at.rest
    mark = next((rest[:n] for n in (1, 2) if rest[:n] in signs), "")
    if not mark:
        mark = _alone_mark(at)
    if not mark:
        return None
    after = at.position + len(mark)
    if _SAME_LINE.match(at.text, after):  # "❌ Hallucinated", not "✓\nFalse" (a table's cells)
        behind = read_value(at.text, after, at.schema, at.sense, leading=at.leading)
        if behind.tone is not None:
            return behind
    return at.signed(mark in words.affirm or mark in words.affirm_alone, after)


def _alone_mark(at: _At) -> str:
    """A letter that stands for yes or no only as a whole value (a quiz's "O" or "X")."""
    words = vocabulary()
    head = at.rest[:1]
    if head in words.affirm_alone | words.deny_alone and _ENDS_VALUE.match(at.rest, 1):
        return head
    return ""


_ENDS_VALUE = re.compile(r"[ \t]*(?:[.!)\]\"'。]*[ \t]*(?:$|\n)|[ \t]+[-–—(])")


def _unsure(at: _At) -> Value | None:
    unsure = vocabulary().unsure.match(at.rest)
    return Value("unsure", at.position + unsure.end()) if unsure else None


def _partial(at: _At) -> Value | None:
    """ "partly true": a partial verdict, not the verdict."""
    partial = vocabulary().partial.match(at.rest)
    if not partial:
        return None
    inner = read_value(at.text, at.position + partial.end(), at.schema, at.sense)
    return Value("partial", inner.end, inner.word) if inner.word is not None else None


def _word(at: _At) -> Value | None:
    """A verdict word, negated where a negation stands before or after it ("not factual",
    "誤りではありません"); a negated fault ("no errors") holds."""
    words = vocabulary()
    rest, position, negated = at.rest, at.position, False
    negation = negation_ahead().match(rest)
    if negation and negation.end() > 0:
        following = rest[negation.end() :]
        if words.faults.match(following) or words.words.match(following):
            negated, rest, position = True, following, position + negation.end()
    word = words.words.match(rest)
    if word is None:
        fault = words.faults.match(rest) if negated else None
        return Value("holds", position + fault.end()) if fault else None
    meaning = words.meaning(word)
    if meaning.start_only and not at.leading and at.sense == "neutral" and not _after_colon(at):
        return Value(None, position)  # a short word that means other things in a sentence
    tone: Stance = meaning.stance
    if meaning.kind in ("truth", "correctness") and at.sense != "neutral":
        tone = affirms(tone, at.sense)
    end = position + word.end()
    after = words.negation_after.match(at.text[end:])
    if after:
        negated, end = not negated, end + after.end()
    return Value(OPPOSITE[tone] if negated else tone, end, meaning)


def _after_colon(at: _At) -> bool:
    return at.start > 0 and at.text[at.start - 1 : at.start] in (":", "：")


def _digit(at: _At) -> Value | None:
    if not at.schema.digits and at.sense == "neutral":
        return None
    digit = _DIGIT.match(at.rest)
    if digit is None:
        return None
    return Value(digit_tone(digit.group(1), at.schema, at.sense), at.position + digit.end())


def _answer(at: _At) -> Value | None:
    """A yes or no word; "No errors found" is no answer but a fault denied."""
    words = vocabulary()
    for pattern, affirm in ((words.yes, True), (words.no, False)):
        answer = pattern.match(at.rest)
        if not answer:
            continue
        end = at.position + answer.end()
        space = _SPACE.match(at.text, end)
        noun = words.faults.match(at.text, space.end()) if space and not affirm else None
        if noun:
            return Value("holds", noun.end())
        return at.signed(affirm, end)
    return None


def _none(at: _At) -> Value | None:
    """ "Errors: none", "Incorrect: N/A": under a label naming a fault, there is none
    ("Factual: N/A" is no verdict)."""
    if at.sense != "fails":
        return None
    none = vocabulary().none.match(at.rest)
    return Value(affirms("fails", at.sense), at.position + none.end()) if none else None


_READERS: tuple[_Reader, ...] = (_sign, _unsure, _partial, _word, _digit, _answer, _none)


def read_value(
    text: str, start: int, schema: VerdictSchema, sense: LabelSense, *, leading: bool = False
) -> Value:
    """The verdict value at `start` (after a label of `sense`, or at the reply's start).

    Affirmations (yes, true, correct, ✅, and 1/0 under a yes/no label) answer the label's
    question; factuality and hallucination words say their own stance; digits say what the
    schema says; unsure words are unsure."""
    lead = _VALUE_LEAD.match(text, start)
    position = lead.end() if lead else start
    at = _At(text, position, start, schema, sense, leading)
    for reader in _READERS:
        value = reader(at)
        if value is not None:
            return value
    return Value(None, position)
