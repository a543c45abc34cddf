"""The evidence of a run's `Grounding` settings: its retriever and what a log keeps of it."""

from __future__ import annotations

from medhalbench.evidence._retriever import Retriever, evidence_summary, open_retriever
from medhalbench.settings import Grounding


def grounding_retriever(grounding: Grounding, *, progress: bool = False) -> Retriever:
    """The retriever of a run's evidence (opened once per process).

    Raises:
        ValueError: A closed-book run (no evidence).
        DataError: Evidence that cannot be opened or searched as asked.
    """
    if grounding.evidence is None:
        raise ValueError("a closed-book run has no retriever")
    return open_retriever(
        grounding.evidence, retriever=grounding.evidence_retriever,
        rerank=grounding.evidence_rerank, progress=progress,
    )  # fmt: skip


def grounding_summary(grounding: Grounding) -> dict[str, str | None] | None:
    """What a log keeps of the evidence a run searched (None for a closed-book run): the
    retriever, the content hash of its corpora and the retrieval it did."""
    if grounding.evidence is None:
        return None
    return evidence_summary(
        grounding.evidence, retriever=grounding.evidence_retriever, rerank=grounding.evidence_rerank
    )
