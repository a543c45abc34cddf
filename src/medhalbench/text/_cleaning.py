"""Cleaning of long-form answers before they are split into atomic facts (DAHL)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from medhalbench.text._sentences import ends_complete, split_sentences

_DECLINE = re.compile(
    r"\b(i\s+(?:do\s+not|don't|cannot|can't)\s+(?:know|answer|provide|help)"
    r"|i\s+am\s+(?:not\s+able|unable)\s+to\s+(?:answer|provide)"
    r"|i'm\s+(?:not\s+able|unable|sorry,?\s+but\s+i\s+can(?:not|'t))"
    r"|(?:cannot|can't|could\s+not)\s+be\s+answered"
    r"|no\s+(?:information|answer)\s+(?:is\s+)?available"
    r"|as\s+an\s+ai(?:\s+language\s+model)?,?\s+i\s+(?:do\s+not|don't|cannot|can't))",
    re.IGNORECASE,
)


def _normalise(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


@dataclass(frozen=True)
class CleanedResponse:
    """An answer after cleaning, with a record of what was removed.

    Attributes:
        text: The cleaned answer.
        removed_question: Whether an echo of the question was removed.
        removed_repeats: How many repeated sentences were removed.
        removed_truncated: The cut-off last sentence that was dropped, if any.
        declined: Whether the answer declines to answer (excluded from the score).
    """

    text: str
    removed_question: bool = False
    removed_repeats: int = 0
    removed_truncated: str | None = None
    declined: bool = False


def is_declining(text: str) -> bool:
    """Whether an answer declines ("I don't know", "cannot be answered", ...)."""
    return bool(_DECLINE.search(text))


def clean_response(
    question: str, response: str, *, truncated: bool | None = None
) -> CleanedResponse:
    """Clean an answer as DAHL does before splitting it into atomic facts.

    1. Remove the question where the answer repeats it (at the start, or as a sentence).
    2. Remove repeated sentences (keeping the first).
    3. Drop the last sentence when it was cut off by the token limit.

    Args:
        question: The question asked.
        response: The model's answer.
        truncated: Whether generation stopped at the token limit. When None, a last
            sentence without terminal punctuation counts as cut off.
    """
    text = response.strip()
    removed_question = False
    q = question.strip()
    if q and text.lower().startswith(q.lower()):
        text = text[len(q) :].lstrip(" :\n-")
        removed_question = True
    sentences = split_sentences(text)
    question_key = _normalise(q)
    kept: list[str] = []
    seen: set[str] = set()
    repeats = 0
    for sentence in sentences:
        key = _normalise(sentence)
        if not key:
            continue
        if key == question_key:
            removed_question = True
            continue
        if key in seen:
            repeats += 1
            continue
        seen.add(key)
        kept.append(sentence)
    dropped: str | None = None
    if kept and (truncated is True or truncated is None) and not ends_complete(kept[-1]):
        dropped = kept.pop()
    cleaned = " ".join(kept)
    return CleanedResponse(
        text=cleaned,
        removed_question=removed_question,
        removed_repeats=repeats,
        removed_truncated=dropped,
        declined=is_declining(response),
    )
