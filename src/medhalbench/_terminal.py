"""Text fit for a terminal: what a user or a model wrote is shown, never acted on."""

from __future__ import annotations

import re

# Control characters (C0 but tab and line feed, DEL, C1) and the bidirectional overrides
# and isolates that reorder what a terminal shows.
_ACTING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# What a display of ours (Rich's) writes itself: styles (SGR), a live display's cursor moves
# and line erasing, a hidden cursor, links (OSC 8), a carriage return; any other control on
# a stream is content.
_DISPLAY_OWN = re.compile(
    r"\x1b\[[0-9;]*[mABCDGK]|\x1b\[\?25[hl]|\x1b\]8;[^\x07\x1b]*(?:\x07|\x1b\\)|\r"
)
_SHOWN = re.compile(f"({_DISPLAY_OWN.pattern})|{_ACTING.pattern}")


def printable(text: str) -> str:
    """`text` with every character a terminal would act on written as its escape (`\\x1b`,
    `\\u202e`): colours, a window title, a cleared screen or reordered text are shown as
    what they are."""
    return _ACTING.sub(lambda m: ascii(m.group())[1:-1], text)


def terminal_text(text: str) -> str:
    """What a display writes to the terminal, fit for it: its own sequences
    (`_DISPLAY_OWN`) pass and every other acting character is escaped (`printable`), so
    that a question or a reply shown by any display (inspect's conversation view among them)
    cannot clear the screen, set a title or reorder text."""
    return _SHOWN.sub(lambda m: m.group() if m.group(1) else printable(m.group()), text)
