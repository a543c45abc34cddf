"""Pieces every verdict reader uses: a JSON field of a reply, and alternatives offered instead
of one answer."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence


def json_field(text: str, keys: Sequence[str]) -> str | None:
    """The first of `keys` in a reply that is a JSON object, as text; None when the reply
    is not a JSON object or has none of the keys (a reply cut inside its JSON is read up
    to the field's value)."""
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if isinstance(value, dict):
        lowered = {str(k).lower(): v for k, v in value.items()}
        for key in keys:
            if key in lowered and lowered[key] is not None:
                return str(lowered[key]).lower()
        return None
    for key in keys:
        match = re.search(rf'"{key}"\s*:\s*"?([^",}}\n]+)', text)
        if match:
            return match.group(1).strip()
    return None


def offers_alternatives(rest: str, answers: str) -> bool:
    """Whether the text after a leading answer joins it to another answer ("or 2", "/ no").

    Args:
        rest: The text after the leading answer.
        answers: Regex alternation of the answers of this kind (e.g. `0|1|2`, `yes|no`).
    """
    return bool(re.match(rf"^\s*(?:or|/|and|vs\.?|,)\s*(?:{answers})\b", rest))
