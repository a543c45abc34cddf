"""MedHallu's retrieved knowledge: instead of the gold abstract, the detector is given the
passages a retriever finds for the question in a local corpus (what a deployed detector
would have), a setting beside no knowledge and gold knowledge."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from medhalbench.arguments import ArgumentError
from medhalbench.evidence import (
    DEFAULT_EVIDENCE_K,
    open_retriever,
    passages_metadata,
    passages_text,
)
from medhalbench.medhallu._records import MedHalluRecord

EVIDENCE_K = DEFAULT_EVIDENCE_K
RETRIEVED_TEMPLATE = "detect_user_retrieved.txt"


@dataclass(frozen=True)
class RetrievedKnowledge:
    """The knowledge retrieved for one row's question.

    Attributes:
        text: The passages as the detector reads them.
        passages: The passages as the log keeps them (ids, offsets, text, scores).
        gold_found: Whether a passage of the row's own abstract (its PubMed id) is among
            them; None where the row has no PubMed id.
    """

    text: str
    passages: list[dict[str, Any]]
    gold_found: bool | None


def check_evidence(
    evidence: str | None, *, knowledge: bool, evidence_k: int, evidence_rerank: bool
) -> None:
    """Refuse evidence settings that would not be used.

    Raises:
        ArgumentError: Evidence without knowledge, or an evidence setting without evidence.
    """
    if evidence is not None and not knowledge:
        raise ArgumentError(
            "evidence", "gives the detector retrieved passages as its knowledge: add "
            "knowledge (--knowledge)",
        )  # fmt: skip
    if evidence is None:
        for name, given in {
            "evidence_k": evidence_k != EVIDENCE_K,
            "evidence_rerank": evidence_rerank,
        }.items():
            if given:
                raise ArgumentError(name, "needs evidence (--knowledge --evidence CORPUS|INDEX)")


def retrieved_knowledge(
    records: Sequence[MedHalluRecord], evidence: str, *, k: int, rerank: bool
) -> list[RetrievedKnowledge]:
    """The passages found for each row's question (the answer under test is not searched
    for: both answers of a row get the same knowledge, as with the gold abstract).

    Raises:
        DataError: An evidence source that cannot be opened.
    """
    retriever = open_retriever(evidence, rerank=rerank, progress=True)
    found = retriever.search([r.question for r in records], k)
    return [
        RetrievedKnowledge(
            passages_text(hits),
            passages_metadata(hits),
            any(h.passage.source_id == record.pubid for h in hits) if record.pubid else None,
        )
        for record, hits in zip(records, found, strict=True)
    ]
