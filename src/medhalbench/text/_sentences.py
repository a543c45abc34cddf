"""Sentence splitting good enough for model answers (no model, no download)."""

from __future__ import annotations

import re

# Abbreviations that rarely end a sentence (units such as "mg." often do, so they are not here).
_ABBREVIATIONS = (
    "e.g",
    "i.e",
    "vs",
    "dr",
    "mr",
    "mrs",
    "ms",
    "prof",
    "fig",
    "al",
    "approx",
    "ca",
    "cf",
)
_BOUNDARY = re.compile(
    r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]*[A-Za-z0-9])|\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)"
)
TERMINAL = (".", "!", "?", '."', ".'", ".)", "!)", "?)", ":")


def split_sentences(text: str) -> list[str]:
    """Split text into sentences, keeping abbreviations, decimals and list items intact.

    Args:
        text: Any text.

    Returns:
        The non-empty sentences, stripped, in order.
    """
    pieces: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        candidate = text[start : match.start()]
        last_word = re.findall(r"([A-Za-z.]+)\.$", candidate.rstrip())
        if last_word and last_word[0].lower().lstrip(".") in _ABBREVIATIONS:
            continue
        pieces.append(candidate)
        start = match.end()
    pieces.append(text[start:])
    return [p.strip() for p in pieces if p.strip()]


def ends_complete(sentence: str) -> bool:
    """Whether a sentence ends with terminal punctuation (it was not cut off)."""
    return sentence.rstrip().endswith(TERMINAL)
