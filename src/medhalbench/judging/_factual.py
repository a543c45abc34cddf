"""Parsing MedHal's answer format: "Factual: YES/NO" and an explanation."""

from __future__ import annotations

import re
from dataclasses import dataclass

_VERDICT = re.compile(r"factual\s*[:\-=]?\s*\**\s*(yes|no)\b", re.IGNORECASE)
_EXPLANATION = re.compile(r"explanation\s*[:\-]\s*(.*)", re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True)
class FactualVerdict:
    """A parsed reply: `factual` is None when no "Factual: YES/NO" could be read."""

    factual: bool | None
    explanation: str | None


def parse_factual_verdict(reply: str) -> FactualVerdict:
    """Read "Factual: YES|NO" (the first one; a second, different one makes it unreadable)
    and the text after "Explanation:" (else the text after the verdict)."""
    text = reply.replace("**", "")
    verdicts = [m.group(1).lower() for m in _VERDICT.finditer(text)]
    if not verdicts or len(set(verdicts)) > 1:
        return FactualVerdict(None, None)
    explanation_match = _EXPLANATION.search(text)
    if explanation_match:
        explanation = explanation_match.group(1).strip()
    else:
        explanation = text[_VERDICT.search(text).end() :].strip(" .:\n")  # type: ignore[union-attr]
    return FactualVerdict(verdicts[0] == "yes", explanation or None)
