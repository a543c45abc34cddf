"""Settings groups and marked setting types that more than one benchmark has."""

from __future__ import annotations

from dataclasses import dataclass
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
