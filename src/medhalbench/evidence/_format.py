"""Retrieved passages as a judge reads them (numbered, with their source) and as a log keeps
them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from medhalbench.evidence._records import RetrievedPassage

NO_PASSAGES = "(No passage of the reference corpus matches this text.)"


def passages_text(found: Sequence[RetrievedPassage]) -> str:
    """Passages for a prompt: `[n] Title (source ID)` then the text, blank-line separated."""
    if not found:
        return NO_PASSAGES
    blocks = []
    for hit in found:
        p = hit.passage
        title = f"{p.title} " if p.title else ""
        blocks.append(f"[{hit.rank}] {title}(source {p.source_id})\n{p.text}")
    return "\n\n".join(blocks)


def logged_passages_text(records: Sequence[Mapping[str, Any]]) -> str:
    """Passages a log kept (`passages_metadata`), as the judge read them."""
    return passages_text([RetrievedPassage.from_metadata(r) for r in records])


def passages_metadata(found: Sequence[RetrievedPassage]) -> list[dict[str, Any]]:
    """Passages as a log keeps them: id, source, offsets, text and scores, best first."""
    return [hit.as_metadata() for hit in found]
