"""Parsing a fact checker's verdict on one atomic fact: true, false or unknown."""

from __future__ import annotations

import re
from typing import Literal

TruthVerdict = Literal["true", "false", "unknown"]

_TRUE = re.compile(r"\b(true|correct|accurate|supported)\b")
_FALSE = re.compile(
    r"\b(false|incorrect|inaccurate|unsupported|not\s+(?:true|correct|accurate|supported))\b"
)
_LEAD = re.compile(
    r"^[\s*\"'`(\[]*(?:(?:answer|verdict|judgement|judgment)\s*[:=\-]?\s*)?[\s*\"'`(\[]*(true|false)\b"
)


def parse_truth_verdict(reply: str) -> TruthVerdict:
    """Read a checker's reply; anything not clearly true or false is `unknown`.

    A leading "True"/"False" (optionally after "Answer:") wins; otherwise the reply must
    hold cues of one kind only ("not true" counts as false, not as true).
    """
    text = reply.strip().lower().replace("**", "")
    if not text:
        return "unknown"
    lead = _LEAD.match(text)
    if lead:
        return "true" if lead.group(1) == "true" else "false"
    has_false = bool(_FALSE.search(text))
    has_true = bool(_TRUE.search(_FALSE.sub(" ", text)))
    if has_true and not has_false:
        return "true"
    if has_false and not has_true:
        return "false"
    return "unknown"


def parse_truth_verdicts(reply: str) -> list[TruthVerdict]:
    """Read one verdict per non-blank line (a checker judging several facts at once)."""
    return [parse_truth_verdict(line) for line in reply.splitlines() if line.strip()]
