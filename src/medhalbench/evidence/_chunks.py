"""Cutting documents into overlapping passages of about the same number of words, each
keeping where it lies in its document."""

from __future__ import annotations

import re

from medhalbench.evidence._records import Document, Passage

_WORD = re.compile(r"\S+")


def passage_windows(words: int, size: int, overlap: int) -> list[tuple[int, int]]:
    """Word windows `[first, last)` over a text of `words` words: `size` words each,
    consecutive ones sharing `overlap`; a last window that would add fewer than half a
    stride of new words is merged into the one before (no near-duplicate tail).

    Raises:
        ValueError: `size` below 1, or `overlap` not in [0, size).
    """
    if size < 1 or not 0 <= overlap < size:
        raise ValueError(f"passages of {size} words cannot overlap by {overlap}")
    stride = size - overlap
    windows: list[tuple[int, int]] = []
    for first in range(0, words, stride):
        last = min(first + size, words)
        windows.append((first, last))
        if last == words:
            break
    if len(windows) > 1 and windows[-1][1] - windows[-2][1] < stride / 2:
        windows[-2] = (windows[-2][0], words)
        windows.pop()
    return windows


def chunk_document(document: Document, *, size: int, overlap: int) -> list[Passage]:
    """A document's passages (none for a document without words): each is the document's
    text from its first word's start to its last word's end, so `text[start:end]` gives it
    back exactly.

    Args:
        document: The document.
        size: Words per passage.
        overlap: Words consecutive passages share.
    """
    spans = [m.span() for m in _WORD.finditer(document.text)]
    passages = []
    for n, (first, last) in enumerate(passage_windows(len(spans), size, overlap)):
        start, end = spans[first][0], spans[last - 1][1]
        passages.append(
            Passage(
                id=f"{document.id}#{n}",
                source_id=document.id,
                text=document.text[start:end],
                start=start,
                end=end,
                title=document.title,
            )
        )
    return passages
