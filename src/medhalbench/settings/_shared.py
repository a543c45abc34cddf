"""Settings groups and marked setting types that more than one benchmark has."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from medhalbench.arguments import Count, DataSource, InputFile, Means, Qualifies, Temperature
from medhalbench.evidence import DEFAULT_EVIDENCE_K
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
        evidence_rerank: Re-rank the evidence's BM25 candidates by all-MiniLM-L6-v2
            embeddings (offline).
    """

    evidence: Annotated[DataSource | None, Means("condition")] = None
    evidence_k: Annotated[Count, Means("condition"), Qualifies("evidence")] = DEFAULT_EVIDENCE_K
    evidence_rerank: Annotated[bool, Means("condition"), Qualifies("evidence")] = False

    def phrase(self) -> str | None:
        """The evidence as titles and plans name it (`med-index, k 5, re-ranked`); None for
        a closed-book run."""
        if not self.evidence:
            return None
        # The folder's or file's name; a plug-in's address (`es:pubmed`) as given, up to a
        # URL's last part (never its credentials).
        name = Path(self.evidence.rstrip("/")).name or self.evidence
        return f"{name}, k {self.evidence_k}{', re-ranked' if self.evidence_rerank else ''}"


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
