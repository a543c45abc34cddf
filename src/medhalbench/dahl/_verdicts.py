"""Parsing a fact checker's verdict on one atomic fact: true, false or unknown."""

from __future__ import annotations

import re
from typing import Literal

from medhalbench.judging import json_field, normalise_reply, offers_alternatives

TruthVerdict = Literal["true", "false", "unknown"]

# "True or false?", "Is this statement true or false:": the question, not an answer.
_OPTIONS_QUESTION = re.compile(
    r"^(?:(?:is\s+)?(?:this|the|it)?\s*(?:statement\s+)?)?(?:true\s*(?:or|/)\s*false|false\s*(?:or|/)\s*true)"
    r"\s*[?:]\s*"
)
_LEAD = re.compile(
    r"^[\s\"'(\[]*(?:(?:answer|verdict|judge?ment|label)\s*[:=\-]?\s*)?[\s\"'(\[]*"
    r"(true|false|correct|incorrect|yes|no)\b"
)
_LEAD_VALUES: dict[str, TruthVerdict] = {
    "true": "true", "correct": "true", "yes": "true",
    "false": "false", "incorrect": "false", "no": "false",
}  # fmt: skip
_MIXED = re.compile(
    r"\b(?:partially|partly|mostly|somewhat|half|largely)\s+(?:true|correct|accurate|false)\b"
    r"|\b(?:unknown|unverifiable|cannot\s+be\s+(?:verified|determined)|can(?:not|'t)\s+(?:verify|determine|tell|say)"
    r"|not\s+(?:sure|certain)|unsure|uncertain|insufficient\s+(?:information|evidence)|depends)\b"
)
_FALSE = re.compile(
    r"\b(false|incorrect|inaccurate|unsupported|untrue|wrong|not\s+(?:true|correct|accurate|supported|right))\b"
)
_TRUE = re.compile(r"\b(true|correct|accurate|supported|right)\b")
_JSON_KEYS = ("verdict", "answer", "label", "judgement", "judgment")


def parse_truth_verdict(reply: str) -> TruthVerdict:
    """Read a checker's reply; anything not clearly true or false is `unknown`.

    Rules, in order: a JSON object's `verdict` field is read by these rules; a leading
    question that restates the options ("True or false?") is skipped; a leading
    True/False (or Correct/Incorrect, Yes/No; optionally after "Answer:") wins unless
    another verdict is offered beside it ("True and false") or the reply hedges ("True,
    but I am not sure"); otherwise the reply must hold cues of one kind only ("not true"
    counts as false, not as true) and no hedge ("partly true", "cannot be verified").
    """
    text = normalise_reply(reply)
    if not text:
        return "unknown"
    field = json_field(text, _JSON_KEYS)
    if field is not None:
        return parse_truth_verdict(field)
    text = _OPTIONS_QUESTION.sub("", text, count=1)
    hedged = bool(_MIXED.search(text))
    lead = _LEAD.match(text)
    if lead:
        if offers_alternatives(text[lead.end() :], "true|false|correct|incorrect|yes|no"):
            return "unknown"
        return "unknown" if hedged else _LEAD_VALUES[lead.group(1)]
    if hedged:
        return "unknown"
    has_false = bool(_FALSE.search(text))
    has_true = bool(_TRUE.search(_FALSE.sub(" ", text)))
    if has_true != has_false:
        return "true" if has_true else "false"
    return "unknown"


_LIST_MARKER = re.compile(r"^\s*(?:[-*•]+|\d+[.)]|\(\d+\))\s*")


def parse_truth_verdicts(reply: str) -> list[TruthVerdict]:
    """Read one verdict per non-blank line (a checker judging several facts at once);
    list markers ("1.", "-") before a verdict are not part of it."""
    return [
        parse_truth_verdict(_LIST_MARKER.sub("", line))
        for line in reply.splitlines()
        if line.strip()
    ]
