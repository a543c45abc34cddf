"""Settings groups and marked setting types that more than one benchmark has."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from medhalbench.arguments import Count, DataSource, InputFile, Means, Qualifies, Temperature
from medhalbench.evidence import DEFAULT_EVIDENCE_K, Retrieval, Retriever, evidence_summary
from medhalbench.statistics import Resamples

Outputs = Annotated[InputFile | None, Means("outputs")]
"""Outputs written elsewhere, scored instead of generating (`--responses`)."""
SampleLimit = Annotated[Count | None, Means("samples")]
"""Keep at most this many of the data's samples."""
SampleSeed = Annotated[int, Means("samples")]
"""The seed that draws or orders the samples (not the seed sent with model calls)."""
ExtractPrompt = Annotated[InputFile | None, Means("judging")]
"""A file replacing the extractor's prompt."""
Bootstrap = Annotated[Resamples, Means("run")]
"""Bootstrap resamples for the 95% intervals: sets only the intervals."""


@dataclass(frozen=True)
class Generation:
    """How the model under test makes its replies (what a task sends: inspect's own options,
    `inspect eval --temperature`, may override it, and a run reports what was sent).

    Attributes:
        temperature: Sampling temperature of the model under test.
        max_tokens: Length limit of its reply, in tokens.
    """

    temperature: Annotated[Temperature, Means("replies")] = 0.0
    max_tokens: Annotated[Count, Means("replies")] = 256


@dataclass(frozen=True)
class Grounding:
    """The evidence a judge or a detector is given from a local corpus (none: closed-book).

    Attributes:
        evidence: An index folder (medhalbench index), a corpus (indexed for the run) or
            SCHEME:ADDRESS of a retriever plug-in.
        evidence_k: Passages retrieved per query with evidence.
        evidence_retriever: How the evidence is searched: bm25, dense (passage vectors) or
            hybrid (both, fused by reciprocal rank). Default: hybrid where the index holds
            passage vectors (medhalbench index --dense), else bm25.
        evidence_rerank: Re-rank the evidence's candidates by dense embeddings (the
            index's own model, else all-MiniLM-L6-v2, offline).
    """

    evidence: Annotated[DataSource | None, Means("condition")] = None
    evidence_k: Annotated[Count, Means("condition"), Qualifies("evidence")] = DEFAULT_EVIDENCE_K
    evidence_retriever: Annotated[Retrieval | None, Means("condition"), Qualifies("evidence")] = (
        None
    )
    evidence_rerank: Annotated[bool, Means("condition"), Qualifies("evidence")] = False

    def unused(self) -> list[str]:
        """The evidence settings given without evidence (they would change nothing)."""
        if self.evidence is not None:
            return []
        given = {
            "evidence_k": self.evidence_k != DEFAULT_EVIDENCE_K,
            "evidence_retriever": self.evidence_retriever is not None,
            "evidence_rerank": self.evidence_rerank,
        }
        return [name for name, set_ in given.items() if set_]

    def retriever(self, *, progress: bool = False) -> Retriever:
        """The retriever of the evidence (opened once per process).

        Raises:
            ValueError: A closed-book run (no evidence).
            DataError: Evidence that cannot be opened or searched as asked.
        """
        from medhalbench.evidence import open_retriever

        if self.evidence is None:
            raise ValueError("a closed-book run has no retriever")
        return open_retriever(
            self.evidence, retriever=self.evidence_retriever, rerank=self.evidence_rerank,
            progress=progress,
        )  # fmt: skip

    def summary(self) -> dict[str, str | None] | None:
        """What a log keeps of the evidence searched (None for a closed-book run): the
        retriever, the content hash of its corpora and the retrieval it did."""
        if self.evidence is None:
            return None
        return evidence_summary(
            self.evidence, retriever=self.evidence_retriever, rerank=self.evidence_rerank
        )

    def phrase(self, retrieval: str | None = None) -> str | None:
        """The evidence as titles and plans name it (`med-index, k 5, hybrid, re-ranked`);
        None for a closed-book run.

        Args:
            retrieval: The retrieval the run did, as its log records it, where the settings
                left it to the index (bm25, dense, hybrid).
        """
        if not self.evidence:
            return None
        # The folder's or file's name; a plug-in's address (`es:pubmed`) as given, up to a
        # URL's last part (never its credentials).
        name = Path(self.evidence.rstrip("/")).name or self.evidence
        parts = [name, f"k {self.evidence_k}", self.evidence_retriever or retrieval]
        if self.evidence_rerank:
            parts.append("re-ranked")
        return ", ".join(p for p in parts if p)


@dataclass(frozen=True)
class RunData:
    """The data a run judged, as every benchmark's settings declare it (a view of them that
    code shared by the benchmarks reads).

    Attributes:
        dataset: The dataset (a file, a folder or a hub id).
        responses: Outputs written elsewhere, scored instead of generating (None: generated).
    """

    dataset: str | None = None
    responses: str | None = None
