"""Parsing MedHal's answer format: "Factual: YES/NO" and an explanation.

`parse_factual_verdict` is our strict reading, by the shared reader (`medhalbench.judging`:
labels, headings, JSON with any reasonable key, tables, negations by their meaning, the
verdict words of many languages; a reply offering both answers or whose label its own
explanation contradicts is not read); `paper_factual_reading` is MedHal's own (the first
yes/no word of the reply), for the authors' figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from medhalbench.judging import (
    Cues,
    Reading,
    VerdictSchema,
    prepare_reply,
    read_last_verdict,
    read_with_cues,
)

FACTUAL_SCHEMA = VerdictSchema(
    yes="holds",  # "Is the statement factual?": yes holds
    alone=frozenset({"truth", "correctness", "factuality"}),
)
_EXPLANATION_TRIM = " .,:;\n-—–"


@dataclass(frozen=True)
class FactualVerdict:
    """A parsed reply: `factual` is None when no verdict could be read."""

    factual: bool | None
    explanation: str | None
    reason: str = ""


def _explanation(text: str, cues: Cues, factual: bool) -> str | None:
    """The text after an explanation label after the verdict, else the text after the
    first marked verdict (or, without one, after the first prose verdict) that agrees."""
    stance = "holds" if factual else "fails"
    agreeing = [c for c in cues.marked if c.tone == stance] or [
        c for c in cues.prose(FACTUAL_SCHEMA) if c.tone == stance
    ]
    first = agreeing[0].end if agreeing else 0
    labels = [end for start, end in cues.explanations if start >= first] or [
        end for _, end in cues.explanations
    ]
    if labels:
        explanation = text[labels[0] :].strip()
    else:
        explanation = text[first:].lstrip(_EXPLANATION_TRIM).rstrip()
    return explanation or None


def _read(text: str) -> Reading[tuple[bool, str | None]]:
    """Read a prepared reply without self-corrections: its verdict and explanation."""
    read, cues = read_with_cues(text, FACTUAL_SCHEMA)
    if read.verdict not in ("holds", "fails") or cues is None:
        return Reading(None, read.reason)
    factual = read.verdict == "holds"
    return Reading((factual, _explanation(cues.text, cues, factual)), read.reason)


def parse_factual_verdict(reply: str) -> FactualVerdict:
    """Read a MedHal judge's reply.

    The verdict comes from labels ("Factual: YES/NO", "Verdict: not factual", a "###
    Factual" heading, a JSON field such as `factual`, `is_factual` or `is_hallucinated`, a
    table row), from a verdict at the start ("No, the statement is not factual.", "NO.",
    "False."), and from what the reply says of the statement ("The statement is factual.");
    all that are present must agree, and an echo such as "Factual: YES or NO" is no verdict.
    The explanation is the text after an "Explanation" label (the label itself excluded),
    else the text after the verdict.
    """
    text = prepare_reply(reply)
    if not text:
        return FactualVerdict(None, None, "empty reply")
    read = read_last_verdict(text, _read)
    if read.verdict is None:
        return FactualVerdict(None, None, read.reason)
    factual, explanation = read.verdict
    return FactualVerdict(factual, explanation, read.reason)


_FIRST_YES_NO = re.compile(r"\b(yes|no)\b", re.IGNORECASE)


def paper_factual_reading(reply: str) -> bool | None:
    """MedHal's own reading (`MedHalParser._get_prediction`): the first "yes" or "no" word
    of the reply (any case), None when there is none (the reply does not match the format)."""
    match = _FIRST_YES_NO.search(reply)
    return None if match is None else match.group(1).lower() == "yes"


def paper_explanation(reply: str) -> str:
    """MedHal's own explanation of a reply: the lower-cased text after its first yes/no
    word, stripped (a label, JSON or an empty string included)."""
    text = reply.lower()
    match = _FIRST_YES_NO.search(text)
    return text[match.end() :].strip() if match else ""
