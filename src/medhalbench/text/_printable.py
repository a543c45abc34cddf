"""Text fit for a terminal: what a user or a model wrote is shown, never acted on."""

from __future__ import annotations

import re

# Control characters (C0 but tab and line feed, DEL, C1) and the bidirectional overrides
# and isolates that reorder what a terminal shows.
_ACTING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` with every character a terminal would act on written as its escape (`\\x1b`,
    `\\u202e`): colours, a window title, a cleared screen or reordered text are shown as
    what they are."""
    return _ACTING.sub(lambda m: ascii(m.group())[1:-1], text)
