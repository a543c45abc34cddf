"""Cleaning of long-form answers before they are split into atomic facts (DAHL)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from medhalbench.text._sentences import ends_complete, split_sentences

# A sentence that only declines: it opens (after an apology or interjection) with a refusal
# or a profession of ignorance and goes on to no claim ("..., but aspirin inhibits COX-1").
_DECLINE = re.compile(
    r"^(?:(?:i'?m\s+)?(?:sorry|unfortunately|apologies|regrettably)[,.!]?\s*(?:but\s+)?)?"
    r"(?:i\s+(?:do\s+not|don't|cannot|can't|am\s+not\s+able\s+to|am\s+unable\s+to|'m\s+unable\s+to)"
    r"\s+(?:know|answer|provide|help|say|determine|comment|give)"
    r"|i'?m\s+(?:not\s+able|unable)\s+to\s+(?:answer|provide|help|say)"
    r"|i\s+am\s+(?:not\s+able|unable)\s+to\s+(?:answer|provide|help|say)"
    r"|(?:this|the|that|your)\s+question\s+(?:cannot|can't|could\s+not)\s+be\s+answered"
    r"|(?:it\s+)?(?:cannot|can't|could\s+not)\s+be\s+answered"
    r"|no\s+(?:information|answer|data)\s+(?:is\s+)?available"
    r"|there\s+is\s+(?:no|not\s+enough)\s+information"
    r"|as\s+an\s+ai(?:\s+(?:language\s+)?model)?,?\s+i\s+(?:do\s+not|don't|cannot|can't|am\s+not))",
    re.IGNORECASE,
)
_GOES_ON = re.compile(r",\s*(?:but|however|although|though|yet)\s+\S|;\s*\S", re.IGNORECASE)


def is_declining(sentence: str) -> bool:
    """Whether a sentence only declines ("I don't know its effect on COX-3.", "As an AI, I
    cannot give medical advice."), with no claim after a "but" or a semicolon."""
    text = sentence.strip()
    match = _DECLINE.match(text)
    return match is not None and not _GOES_ON.search(text[match.end() :])


def _normalise(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


@dataclass(frozen=True)
class CleanedResponse:
    """An answer after cleaning, with a record of what was removed.

    Attributes:
        text: The cleaned answer.
        removed_instruction: Whether an echo of an instruction was removed.
        removed_question: Whether an echo of the question was removed.
        removed_repeats: How many repeated sentences were removed.
        removed_truncated: The cut-off last sentence that was dropped, if any.
        removed_declines: Sentences removed because they only decline.
        declined: Whether the answer declines and nothing factual is left (it is then
            excluded from the score).
    """

    text: str
    removed_instruction: bool = False
    removed_question: bool = False
    removed_repeats: int = 0
    removed_truncated: str | None = None
    removed_declines: int = 0
    declined: bool = False


def clean_response(
    question: str,
    response: str,
    *,
    truncated: bool | None = None,
    instructions: Sequence[str] = (),
) -> CleanedResponse:
    """Clean an answer as DAHL does before splitting it into atomic facts.

    0. Remove each instruction wherever the answer repeats it (a model that echoes its
       prompt).
    1. Remove the question where the answer repeats it (at the start, or as a sentence).
    2. Remove repeated sentences (keeping the first).
    3. Remove sentences that only decline; the answer counts as declined when nothing is
       left after them.
    4. Drop the last sentence when it was cut off by the token limit.

    Args:
        question: The question asked.
        response: The model's answer.
        truncated: Whether generation stopped at the token limit. When None, a last
            sentence without terminal punctuation counts as cut off.
        instructions: The instructions the answer may echo, removed whatever the
            whitespace between their words (blank ones are skipped).
    """
    text = response
    for instruction in filter(None, (i.split() for i in instructions)):
        # Whitespace-insensitive: an echo re-flows a prompt file's wrapped lines.
        text = re.sub(r"\s+".join(map(re.escape, instruction)), "", text)
    removed_instruction = text != response
    text = text.strip()
    removed_question = False
    q = question.strip()
    if q and text.lower().startswith(q.lower()):
        text = text[len(q) :].lstrip(" :\n-")
        removed_question = True
    sentences = split_sentences(text)
    question_key = _normalise(q)
    kept: list[str] = []
    seen: set[str] = set()
    repeats = declines = 0
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
        if is_declining(sentence):
            declines += 1
            continue
        kept.append(sentence)
    dropped: str | None = None
    if kept and (truncated is True or truncated is None) and not ends_complete(kept[-1]):
        dropped = kept.pop()
    cleaned = " ".join(kept)
    return CleanedResponse(
        text=cleaned,
        removed_instruction=removed_instruction,
        removed_question=removed_question,
        removed_repeats=repeats,
        removed_truncated=dropped,
        removed_declines=declines,
        declined=declines > 0 and not cleaned,
    )
