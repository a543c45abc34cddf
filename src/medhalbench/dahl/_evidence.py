"""DAHL's grounded checker: each atomic unit is checked with the passages a retriever finds
for it in a local corpus (DAHL's authors checked with a search-grounded model online; this is
the offline counterpart). The settings are checked together, and the prompt tokens the
passages add are estimated for plans."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from medhalbench._prompts import check_placeholders, read_prompt
from medhalbench.arguments import ArgumentError
from medhalbench.evidence import (
    DEFAULT_EVIDENCE_K,
    RetrievedPassage,
    evidence_summary,
    example_passages,
    open_retriever,
    passages_metadata,
    passages_text,
)
from medhalbench.planning import count_tokens

EVIDENCE_K = DEFAULT_EVIDENCE_K
GROUNDED_PROMPT = "check_user_evidence.txt"
ASSUMED_PASSAGE_TOKENS = 160
"""Tokens of one passage a plan assumes where the retriever is a plug-in it cannot sample
(a 100-word passage with its heading)."""


def grounded_template(
    evidence: str | None,
    *,
    evidence_k: int,
    evidence_rerank: bool,
    evidence_prompt: str | None,
    check_prompt: str | None,
    check_mode: str,
) -> str | None:
    """The grounded checker's prompt when the run names evidence (None for a closed-book
    run), the retriever opened now so that a bad corpus stops the run before any call.

    Raises:
        ArgumentError: An evidence setting without evidence, evidence in batch mode, or a
            closed-book checker prompt given with evidence.
        DataError: An evidence source that cannot be opened, or a prompt without
            `{statement}` and `{passages}`.
    """
    if evidence is None:
        unused = {
            "evidence_k": evidence_k != EVIDENCE_K,
            "evidence_rerank": evidence_rerank,
            "evidence_prompt": evidence_prompt is not None,
        }
        for name, given in unused.items():
            if given:
                raise ArgumentError(name, "needs evidence (--evidence CORPUS|INDEX)")
        return None
    if check_mode == "batch":
        raise ArgumentError(
            "evidence", "gives each unit its own passages: check one unit per call (check "
            "mode unit)",
        )  # fmt: skip
    if check_prompt is not None:
        raise ArgumentError(
            "check_prompt", "is the closed-book checker's prompt; with evidence, give the "
            "grounded one as evidence_prompt ({statement}, {passages})",
        )  # fmt: skip
    template = read_prompt(__package__, GROUNDED_PROMPT, evidence_prompt)
    check_placeholders(
        template, {"statement", "passages"}, source=evidence_prompt or "grounded check prompt"
    )
    open_retriever(evidence, rerank=evidence_rerank, progress=True)
    return template


def evidence_record(evidence: str | None, rerank: bool) -> dict[str, Any] | None:
    """What a log keeps about the evidence a run searched (None for a closed-book run)."""
    return None if evidence is None else dict(evidence_summary(evidence, rerank=rerank))


async def unit_evidence(
    evidence: str | None, rerank: bool, k: int, units: Sequence[str]
) -> tuple[list[str], list[list[dict[str, Any]]] | None]:
    """Each unit's passages as the checker reads them and as the log keeps them (blank
    texts and None without evidence). The search runs in a worker thread."""
    if evidence is None or not units:
        return [""] * len(units), None
    retriever = open_retriever(evidence, rerank=rerank)
    found: list[list[RetrievedPassage]] = await asyncio.to_thread(retriever.search, units, k)
    return [passages_text(f) for f in found], [passages_metadata(f) for f in found]


def passage_tokens(meta: Mapping[str, Any]) -> int:
    """Tokens the passages add to one grounded checker prompt (0 for a closed-book run):
    k passages of the index, as the prompt shows them, averaged over evenly spread ones."""
    evidence = meta.get("evidence")
    if not evidence:
        return 0
    k = int(meta.get("evidence_k") or EVIDENCE_K)
    retriever = open_retriever(str(evidence), rerank=bool(meta.get("evidence_rerank")))
    sample = example_passages(retriever, count=max(k, 40 * k))
    if not sample:
        return ASSUMED_PASSAGE_TOKENS * k
    groups = [
        [RetrievedPassage(p, 0.0, rank) for rank, p in enumerate(sample[i : i + k], start=1)]
        for i in range(0, len(sample) - k + 1, k)
    ] or [[RetrievedPassage(p, 0.0, rank) for rank, p in enumerate(sample, start=1)]]
    tokens = count_tokens([passages_text(g) for g in groups])
    return round(sum(tokens) / len(tokens))
