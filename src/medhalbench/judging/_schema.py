"""The strict reader's shared types: how a benchmark's replies are read (`VerdictSchema`),
what a reply says of its verdict (`Cue`) and a value read at one position (`Value`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from medhalbench.judging._vocabulary import Stance, VerdictWord, WordKind

Tone = Stance | Literal["partial", "hedge"]
"""What a cue says: a stance, a partial verdict ("partly true"), or a hedge ("it depends")."""

OPPOSITE: dict[Stance, Stance] = {"holds": "fails", "fails": "holds", "unsure": "unsure"}
"""The stance a negation turns each stance into."""


@dataclass(frozen=True)
class VerdictSchema:
    """How one benchmark's replies are read.

    Attributes:
        yes: The stance a plain "yes" states (None: the question is no yes/no question, and
            yes/no say nothing).
        digits: Verdict digits and their stances (MedHallu: 0 holds, 1 fails, 2 unsure).
        alone: Word kinds a reply may state without a subject ("False.", "Vero").
        anywhere: Word kinds that are cues about whatever they stand beside ("parts are
            hallucinated" fails the answer); other kinds count only of the whole text.
        unsure: Whether "cannot tell" is an answer here.
        hedge_is_unsure: A hedge, a partial verdict or doubt beside a verdict reads as
            unsure (DAHL's checker: "partly true" is unknown), instead of unreadable.
        score: Where the prompt asks for a score from 0 to 1: the threshold it states and
            the stance a score at or above it gives (None: a score is never a verdict).
    """

    yes: Stance | None = None
    digits: Mapping[str, Stance] = field(default_factory=dict)
    alone: frozenset[WordKind] = frozenset()
    anywhere: frozenset[WordKind] = frozenset()
    unsure: bool = False
    hedge_is_unsure: bool = False
    score: tuple[float, Stance] | None = None

    def scored(self, threshold: float | None, high: Stance) -> VerdictSchema:
        """This schema where the prompt asks for a score, a score at or above `threshold`
        giving `high` (None: no score asked for, the schema as it is)."""
        return self if threshold is None else replace(self, score=(threshold, high))


@dataclass(frozen=True)
class Cue:
    """One thing a reply says about its verdict.

    Attributes:
        tone: What it says.
        start: Where it starts in the reply.
        end: Where it ends.
        how: What kind of cue ("label", "lead", "digit", "word", "evidence", "fault",
            "unsure", "hedge", "partial", "withdrawal").
        marked: A marked answer (label, leading verdict, verdict digit), not prose.
        final: Labelled as the final answer.
        initial: Labelled as an answer a final one replaces ("Initial answer: 0").
        whole: About the judged text as a whole (prose cues).
        kind: The verdict word's kind, for word cues.
    """

    tone: Tone
    start: int
    end: int
    how: str
    marked: bool = False
    final: bool = False
    initial: bool = False
    whole: bool = True
    kind: WordKind | None = None


@dataclass(frozen=True)
class Value:
    """A value read at a position.

    Attributes:
        tone: The stance it gives under the label sense it was read with (None: none).
        end: Where it ends.
        word: The verdict word it holds, if any.
    """

    tone: Tone | None
    end: int
    word: VerdictWord | None = None


def mask(text: str, spans: list[tuple[int, int]], fill: str = " ") -> str:
    """The text with each span blanked (line breaks kept), so that what was read once is
    not read again; a `fill` of letters keeps a masked phrase a subject ("qqq is true")."""
    chars = list(text)
    for start, end in spans:
        for i in range(start, min(end, len(chars))):
            if chars[i] != "\n":
                chars[i] = fill
    return "".join(chars)
