"""A score given as the verdict ("P(hallucinated) = 0.9", "Score: 0.85", "0.9"): read only
where the prompt asked for one, against the threshold it states (`VerdictSchema.score`);
elsewhere it names a class without choosing it, and is set aside."""

from __future__ import annotations

import functools
import re

from medhalbench.judging._schema import OPPOSITE, Cue, VerdictSchema, mask
from medhalbench.judging._values import read_value
from medhalbench.judging._vocabulary import vocabulary

_NUMBER = r"(?P<number>0?\.\d+|[01](?:\.0+)?|\d{1,3}(?:\.\d+)?[ \t]*%)(?![\w.%])"
_PROBABILITY = re.compile(rf"\bP\s*\(\s*(?P<of>[^()\n]{{1,30}})\)\s*(?:[=≈~:]\s*{_NUMBER})?")


@functools.cache
def _scored() -> tuple[re.Pattern[str], ...]:
    """Numbers in verdict position: the whole reply, or after a verdict label ("Score:")."""
    after = rf"(?:{vocabulary().digit_leads.pattern}|probability|likelihood)[ \t]*[:=]?[ \t]*"
    return re.compile(rf"^[ \t]*{_NUMBER}[ \t.]*$"), re.compile(after + _NUMBER, re.IGNORECASE)


def _value(number: str) -> float | None:
    """A score between 0 and 1 ("0.9", ".9", "90%"), or None for any other number."""
    value = float(number.rstrip("% \t")) / (100 if number.endswith("%") else 1)
    return value if 0.0 <= value <= 1.0 else None


def set_scores_aside(text: str, schema: VerdictSchema) -> tuple[str, list[Cue]]:
    """The reply with every score masked, and each score as a marked cue where the schema
    states a threshold: at or above it, the class the score is of (the class inside
    "P(...)", else the schema's), below it the other."""
    cues, spans = [], []
    matches = [*_PROBABILITY.finditer(text)]
    if schema.score is not None:
        matches += [m for pattern in _scored() for m in pattern.finditer(text)]
    for match in matches:
        spans.append(match.span())
        value = _value(match.group("number")) if match.group("number") else None
        if schema.score is None or value is None:
            continue
        threshold, stance = schema.score
        named = match.groupdict().get("of")
        of = read_value(named, 0, schema, "neutral", leading=True).tone if named else None
        high = of if of in ("holds", "fails") else stance
        tone = high if value >= threshold else OPPOSITE[high]
        cues.append(
            Cue(tone, *match.span(), f"score {value:g}, threshold {threshold:g}", marked=True)
        )
    return mask(text, spans), cues
