"""Parsing a fact checker's verdict on one atomic fact: true, false or unknown.

Read by the shared strict reader (`medhalbench.judging`): reasoning blocks removed, an
explicit self-correction makes the verdict stated after it the one read, negations read by
their meaning ("not false" is true), structured replies with any reasonable key
(`{"is_true": false}`), and the verdict words of many languages. A reply that says it cannot
tell, hedges ("partly true", "True (or false, depending ...)") or states a verdict beside
doubt is `unknown`; one whose verdicts disagree, or that states none, cannot be read (None,
counted as unknown). `paper_truth_reading` is the authors' own substring reading.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from medhalbench.judging import (
    Reading,
    Stance,
    VerdictSchema,
    read_reply,
    read_stance,
    strip_reasoning,
)

TruthVerdict = Literal["true", "false", "unknown"]
PaperTruth = Literal["true", "false", "bad"]

TRUTH_SCHEMA = VerdictSchema(
    yes="holds",  # "Is this statement true?": yes holds
    alone=frozenset({"truth", "correctness", "factuality", "casual"}),
    unsure=True,
    hedge_is_unsure=True,
)
_VERDICTS: dict[Stance, TruthVerdict] = {"holds": "true", "fails": "false", "unsure": "unknown"}


def _read(text: str, schema: VerdictSchema) -> Reading[TruthVerdict]:
    read = read_stance(text, schema)
    return Reading(None if read.verdict is None else _VERDICTS[read.verdict], read.reason)


def parse_truth_verdict(reply: str, score_threshold: float | None = None) -> TruthVerdict:
    """Read a checker's reply; anything not clearly true or false is `unknown` (see
    `read_truth_verdict`)."""
    return read_truth_verdict(reply, score_threshold).verdict or "unknown"


def read_truth_verdict(reply: str, score_threshold: float | None = None) -> Reading[TruthVerdict]:
    """Read a checker's reply: true, false, `unknown` when the reply says it cannot tell or
    hedges ("partly true", "cannot be verified", both offered), or None when it cannot be
    read (the reader's rules: `judging/README.md`).

    Args:
        reply: The checker's reply.
        score_threshold: Where the prompt asks for the probability that the statement is
            true: a score at or above it reads as true, below it as false (None: a score is
            never a verdict).
    """
    schema = TRUTH_SCHEMA.scored(score_threshold, "holds")
    return read_reply(reply, lambda text: _read(text, schema))


_LIST_MARKER = re.compile(r"^\s*(?:[-*•]+|\d+[.)]|\(\d+\))\s*")


def parse_truth_verdicts(reply: str, score_threshold: float | None = None) -> list[TruthVerdict]:
    """Read one verdict per non-blank line (a checker judging several facts at once);
    list markers ("1.", "-") before a verdict are not part of it."""
    return [
        parse_truth_verdict(_LIST_MARKER.sub("", line), score_threshold)
        for line in strip_reasoning(reply).splitlines()
        if line.strip()
    ]


def unread_reasons(
    replies: Sequence[str], units: int, score_threshold: float | None = None
) -> list[str | None]:
    """Why the strict reader read no verdict from each unit's reply (None where it read
    one): one reply per unit, or one reply for all units read line by line."""
    if len(replies) == 1 and units != 1:
        lines = [line for line in strip_reasoning(replies[0]).splitlines() if line.strip()]
        replies = [_LIST_MARKER.sub("", line) for line in lines]
    readings = [read_truth_verdict(reply, score_threshold) for reply in replies]
    return [None if read.verdict is not None else read.reason for read in readings]


def paper_truth_reading(reply: str) -> PaperTruth:
    """The authors' reading of a checker's reply (`evaluate/evaluate_with_pplai.py` in
    seemdog/DAHL): lower-cased, "true" and "false" both in it is bad, else "true" in it is
    true, else "false" in it is false, else bad. Substrings: "Not true." reads true."""
    text = reply.lower()
    if "true" in text and "false" in text:
        return "bad"
    if "true" in text:
        return "true"
    if "false" in text:
        return "false"
    return "bad"
