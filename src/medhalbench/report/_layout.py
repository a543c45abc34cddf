"""How a table fits the page: the width each column needs, estimated from its text as the
page's style sets it, and a table too wide for a 1280-pixel window split into parts of
columns, each part beside the columns that name its rows (no table scrolls sideways)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from matplotlib.font_manager import FontProperties, findfont
from matplotlib.ft2font import FT2Font, LoadFlags

PAGE_WIDTH = 1120.0
"""The pixels a table may take: a 1280-pixel window less the page's margins (1,216 pixels
of content) and room for a font wider than the one estimated."""
TABLE_FONT = 13.6
"""Pixels of a table's text (0.85rem)."""
INTERVAL_FONT = 12.48
"""Pixels of an interval under its figure (0.78rem)."""
COMPACT_INTERVAL_FONT = 11.52
"""Pixels of an interval beside its figure, in a compact table (0.72rem)."""
CELL_PADDING = 15.4
"""Pixels a cell adds to its text: 0.45rem each side and a border."""
TEXT_MAX = 352.0
"""The widest a text cell grows before it wraps (22rem)."""
COMPACT_HEADER_MAX = 224.0
"""The widest a compact table's header grows before it wraps (14rem)."""
TEXT_LINES = 4
"""The lines a text cell may wrap into at the width a column is given."""
HEADER_LINES = 3
"""The lines a header may wrap into."""
EM = 100.0
"""The size characters are measured at (widths scale with it)."""
FONT = "DejaVu Sans"
"""The font widths are measured in: Chromium's sans-serif on Debian, and among the widest of the
usual sans-serif fonts (a page in a narrower one only has more room); matplotlib ships it."""


@functools.cache
def _font(bold: bool) -> FT2Font:
    return FT2Font(findfont(FontProperties(family=FONT, weight="bold" if bold else "normal")))


@functools.cache
def _advance(character: str, bold: bool) -> float:
    """A character's advance width in ems, from the font itself (matplotlib's FreeType; a
    character the font lacks takes its fallback glyph's)."""
    font = _font(bold)
    font.set_size(EM, 72)
    # A character the font lacks has index 0: the font's fallback glyph, as a page shows it.
    glyph = font.load_glyph(font.get_char_index(ord(character)), flags=LoadFlags.NO_HINTING)
    return glyph.horiAdvance / 64 / EM


def text_width(text: str, size: float = TABLE_FONT, *, bold: bool = False) -> float:
    """The pixels a line of text takes at a font size (kerning aside)."""
    return sum(_advance(c, bold) for c in text) * size


def wrapped_width(text: str, lines: int, size: float = TABLE_FONT, *, bold: bool = False) -> float:
    """The pixels text that wraps at spaces takes in about `lines` lines: never less than its
    longest word (words are not broken)."""
    longest = max((text_width(w, size, bold=bold) for w in text.split()), default=0.0)
    return max(longest, text_width(text, size, bold=bold) / lines)


def column_width(
    header: str,
    texts: Sequence[str],
    intervals: Sequence[str],
    *,
    numeric: bool,
    compact: bool,
) -> float:
    """The pixels a column takes: its header wrapped into `HEADER_LINES` lines (at most 14rem
    in a compact table, unless a word is wider), each numeric cell on one line (its interval
    under it, or beside it in a compact table), each text cell wrapped into `TEXT_LINES`
    lines (at most 22rem, unless a word is wider).

    Args:
        header: The column's header.
        texts: Its cells' texts (a figure without its interval).
        intervals: Its cells' intervals ("" where none).
        numeric: Whether it holds figures (not wrapped).
        compact: Whether its table is compact.
    """
    head = wrapped_width(header, HEADER_LINES, bold=True)
    if compact:
        word = max((text_width(w, bold=True) for w in header.split()), default=0.0)
        head = min(head, max(COMPACT_HEADER_MAX, word))
    widths = [head]
    for text, interval in zip(texts, intervals, strict=True):
        if numeric:
            if compact:
                beside = f" {interval}" if interval else ""
                widths.append(text_width(text) + text_width(beside, COMPACT_INTERVAL_FONT))
            else:
                widths.append(max(text_width(text), text_width(interval, INTERVAL_FONT)))
        else:
            longest = max((text_width(w) for w in text.split()), default=0.0)
            widths.append(max(longest, min(TEXT_MAX, wrapped_width(text, TEXT_LINES))))
    return max(widths) + CELL_PADDING


def column_parts(
    widths: Sequence[float], key: Sequence[int], page: float = PAGE_WIDTH
) -> list[list[int]]:
    """The table's columns in parts that each fit the page: each part the `key` columns
    (those that name a row) and as many of the others, in order, as fit beside them (at
    least one).

    Args:
        widths: Each column's width (`column_width`).
        key: The columns that name a row, repeated in every part.
        page: The pixels a part may take.

    Returns:
        Each part's columns, by index, in the table's order; one part where the whole table
        fits.
    """
    if sum(widths) <= page:
        return [list(range(len(widths)))]
    named = sum(widths[i] for i in key)
    parts: list[list[int]] = []
    current: list[int] = []
    used = named
    for i in (i for i in range(len(widths)) if i not in key):
        if current and used + widths[i] > page:
            parts.append(current)
            current, used = [], named
        current.append(i)
        used += widths[i]
    parts.append(current)
    return [sorted([*key, *part]) for part in parts]
