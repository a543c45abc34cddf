"""Parsing MedHal's answer format: "Factual: YES/NO" and an explanation.

`parse_factual_verdict` is our strict reading, by the shared reader (`medhalbench.judging`:
labels, headings, JSON with any reasonable key, tables, negations by their meaning, the
verdict words of many languages; a reply offering both answers or whose label its own
explanation contradicts is not read); `paper_factual_reading` is MedHal's own (the first
yes/no word of the reply), for the authors' figures.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from medhalbench.judging import (
    Cues,
    Reading,
    VerdictSchema,
    read_reply,
    read_with_cues,
)
from medhalbench.outputs import PaperText

FACTUAL_SCHEMA = VerdictSchema(
    yes="holds",  # "Is the statement factual?": yes holds
    alone=frozenset({"truth", "correctness", "factuality", "casual"}),
)
_EXPLANATION_TRIM = " .,:;\n-—–"


@dataclass(frozen=True)
class FactualVerdict:
    """A parsed reply: `factual` is None when no verdict could be read."""

    factual: bool | None
    explanation: str | None
    reason: str = ""


class MedHalReadingMetadata(BaseModel):
    """What a score keeps of a reply's reading (a predict-only score keeps only this).

    Attributes:
        predicted: Whether the judge found the statement factual (None: not read).
        read_by: Who read the verdict: `strict`, `extractor`, or None.
        explanation: The judge's explanation.
        p_non_factual: P(non-factual) at the verdict token, where log-probabilities were kept.
        source: The sample's source.
        unread_reason: Why the strict reader read no verdict from the reply (None where it
            read one), kept where the extractor then read one.
    """

    model_config = ConfigDict(frozen=True, extra="ignore")

    predicted: bool | None = None
    read_by: str | None = None
    explanation: str | None = None
    p_non_factual: float | None = None
    source: str | None = None
    unread_reason: str | None = None


class MedHalScoreMetadata(MedHalReadingMetadata):
    """What a labelled score keeps: the reading, the gold answer and the authors' reading.

    Attributes:
        label: True for a factual statement (None: a predict-only score).
        paper_predicted: The authors' reading of the reply (its first yes/no word).
        paper_text: What their reading read: the reply's text as sent, or (a reply whose text
            was not kept, None in older logs) the completion.
        paper_pair: Whether the authors compare this statement's explanations.
        paper_explanation_similarity: Their similarity of the gold and the reply's explanation.
        gold_explanation: The dataset's explanation.
        explanation_similarity: Our similarity of the two explanations.
        item: The source item (None in older logs: the sample id stands for it).
    """

    label: bool | None = None
    paper_predicted: bool | None = None
    paper_text: PaperText | None = None
    paper_pair: bool = False
    paper_explanation_similarity: float | None = None
    gold_explanation: str | None = None
    explanation_similarity: float | None = None
    item: str | None = None


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


def _read(text: str, schema: VerdictSchema = FACTUAL_SCHEMA) -> Reading[tuple[bool, str | None]]:
    """Read a prepared reply without self-corrections: its verdict and explanation."""
    read, cues = read_with_cues(text, schema)
    if read.verdict not in ("holds", "fails") or cues is None:
        return Reading(None, read.reason)
    factual = read.verdict == "holds"
    return Reading((factual, _explanation(cues.text, cues, factual)), read.reason)


def parse_factual_verdict(reply: str, *, score_threshold: float | None = None) -> FactualVerdict:
    """Read a MedHal judge's reply (the reader's rules: `judging/README.md`). The
    explanation is the text after an "Explanation" label (the label itself excluded), else
    the text after the verdict.

    Args:
        reply: The model's completion.
        score_threshold: Where the prompt asks for the probability that the statement is
            factual: a score at or above it reads as factual, below it as not (None: a
            score is never a verdict).
    """
    schema = FACTUAL_SCHEMA.scored(score_threshold, "holds")
    read = read_reply(reply, functools.partial(_read, schema=schema))
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
