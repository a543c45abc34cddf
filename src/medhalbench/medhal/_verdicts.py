"""Parsing MedHal's answer format: "Factual: YES/NO" and an explanation.

`parse_factual_verdict` is our strict reading; `paper_factual_reading` is MedHal's own
(the first yes/no word of the reply), for the authors' format-matching figures.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from medhalbench.judging import normalise_reply, offers_alternatives

_LABEL = re.compile(r"\bfactual\s*[:\-=?]\s*(yes|no)\b", re.IGNORECASE)
# "Explanation: ...", "Reason: ...", or a header line "Explanation" (markdown marks removed).
_EXPLANATION = re.compile(
    r"(?:^\s*explanation\s*[:\-]?|\b(?:explanation|reason(?:ing)?)\s*:)\s*",
    re.IGNORECASE | re.MULTILINE,
)
# Clear verdicts in the reply's first sentence, without the "Factual:" label.
# Each pattern's groups: an optional negation, then the verdict word.
_FIRST_SENTENCE_VERDICTS = [
    re.compile(r"^()(yes|no)\b(?!\s*(?:or|/)\s*(?:yes|no)\b)"),
    re.compile(
        r"^(?:the|this)\s+statement\s+(?:is|appears|seems)\s+(?:to\s+be\s+)?"
        r"(not\s+|non-?)?(factual|accurate|correct|true|false|inaccurate|incorrect|wrong)\b"
    ),
    re.compile(r"^(not\s+|non-?)?(factual)[.!]?$"),
]
_NEGATIVE_WORDS = {"no", "false", "inaccurate", "incorrect", "wrong"}


@dataclass(frozen=True)
class FactualVerdict:
    """A parsed reply: `factual` is None when no verdict could be read."""

    factual: bool | None
    explanation: str | None
    reason: str = ""


def _first_sentence_verdict(sentence: str) -> bool | None:
    for pattern in _FIRST_SENTENCE_VERDICTS:
        match = pattern.match(sentence)
        if match:
            negation, word = match.groups()
            return (word not in _NEGATIVE_WORDS) != bool(negation)
    return None


def _json_verdict(text: str) -> FactualVerdict | None:
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        # A reply cut inside its JSON (at the token limit) still states its verdict.
        cut = re.match(
            r'\{\s*"factual"\s*:\s*"(yes|no)"\s*,?\s*(?:"explanation"\s*:\s*"(.*))?',
            text,
            re.IGNORECASE | re.DOTALL,
        )
        if not cut:
            return FactualVerdict(None, None, "unreadable JSON")
        explanation = (cut.group(2) or "").strip() or None
        return FactualVerdict(
            cut.group(1).lower() == "yes", explanation, "JSON cut at the token limit"
        )
    if not isinstance(value, dict):
        return FactualVerdict(None, None, "JSON without a factual field")
    fields = {str(k).lower(): v for k, v in value.items()}
    raw = fields.get("factual")
    verdict = {"yes": True, "no": False, "true": True, "false": False}.get(str(raw).strip().lower())
    explanation = fields.get("explanation")
    explanation = str(explanation).strip() if explanation else None
    if verdict is None:
        return FactualVerdict(None, explanation, "JSON without a yes/no factual field")
    return FactualVerdict(verdict, explanation or None, "JSON field")


def parse_factual_verdict(reply: str) -> FactualVerdict:
    """Read a MedHal judge's reply.

    The verdict comes from a JSON object's `factual` field, from "Factual: YES/NO" labels
    (markdown allowed; an echo such as "Factual: YES or NO" is no verdict), and from a
    clear verdict in the first sentence ("No, the statement is not factual.", "NO.",
    "The statement is factual."); all that are present must agree. The explanation is the
    text after an "Explanation" label or header (the header itself excluded), else the
    text after the verdict.
    """
    text = normalise_reply(reply, lower=False)
    if not text:
        return FactualVerdict(None, None, "empty reply")
    from_json = _json_verdict(text)
    if from_json is not None:
        return from_json
    verdicts: list[bool] = []
    verdict_end = 0
    for match in _LABEL.finditer(text):
        if offers_alternatives(text[match.end() :].lower(), "yes|no"):
            continue  # the prompt's "Factual: YES or NO"
        verdicts.append(match.group(1).lower() == "yes")
        verdict_end = verdict_end or match.end()
    explanation_match = _EXPLANATION.search(text)
    head = text[: explanation_match.start()] if explanation_match else text
    first = re.split(r"(?<=[.!?])\s+|\n", head.strip(), maxsplit=1)[0].strip().lower()
    from_sentence = _first_sentence_verdict(first)
    if from_sentence is not None:
        verdicts.append(from_sentence)
        verdict_end = verdict_end or len(first)
    if not verdicts:
        return FactualVerdict(None, None, "no verdict found")
    if len(set(verdicts)) > 1:
        return FactualVerdict(None, None, "conflicting verdicts")
    if explanation_match:
        explanation = text[explanation_match.end() :].strip()
    else:
        explanation = text[verdict_end:].lstrip(" .,:;\n-").rstrip()
    return FactualVerdict(verdicts[0], explanation or None, "read")


_FIRST_YES_NO = re.compile(r"\b(yes|no)\b", re.IGNORECASE)


def paper_factual_reading(reply: str) -> bool | None:
    """MedHal's own reading: the first "yes" or "no" word of the reply (any case), None
    when there is none (the reply does not match the format)."""
    match = _FIRST_YES_NO.search(reply)
    return None if match is None else match.group(1).lower() == "yes"
