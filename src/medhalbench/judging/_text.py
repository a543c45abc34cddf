"""A piece every verdict reader uses: alternatives offered instead of one answer."""

from __future__ import annotations

import re


def offers_alternatives(rest: str, answers: str) -> bool:
    """Whether the text after a leading answer joins it to another answer ("or 2", "/ no").

    Args:
        rest: The text after the leading answer.
        answers: Regex alternation of the answers of this kind (e.g. `0|1|2`, `yes|no`).
    """
    return bool(re.match(rf"^\s*(?:or|/|and|vs\.?|,)\s*(?:{answers})\b", rest))
