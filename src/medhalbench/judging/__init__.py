"""What every verdict parser shares: reply normalisation, yes/no reading, verdict probabilities.

Each benchmark's own verdict parser lives in its package and is built from these. Every parser
is strict: what cannot be read is counted, never guessed.
"""

from medhalbench.judging._extract import (
    EXTRACTOR_ROLE,
    extract_verdict,
    extractor_named,
    extractor_template,
)
from medhalbench.judging._probability import TOP_LOGPROBS, verdict_probability
from medhalbench.judging._reply import (
    LABEL_WORDS,
    Reading,
    normalise_reply,
    read_last_verdict,
    strip_reasoning,
)
from medhalbench.judging._text import json_field, offers_alternatives
from medhalbench.judging._yes_no import parse_yes_no

__all__ = [
    "EXTRACTOR_ROLE",
    "extractor_template",
    "extract_verdict",
    "extractor_named",
    "LABEL_WORDS",
    "Reading",
    "TOP_LOGPROBS",
    "read_last_verdict",
    "strip_reasoning",
    "json_field",
    "normalise_reply",
    "offers_alternatives",
    "parse_yes_no",
    "verdict_probability",
]
