"""What a corpus holds and what a search returns: documents, their passages, and passages
found for a query with their scores."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from dataclasses import fields as dataclass_fields
from typing import Any, get_args

from medhalbench.settings import IndexSettings, Retrieval, VectorType


@dataclass(frozen=True)
class Document:
    """One text of a corpus, before it is cut into passages.

    Attributes:
        id: The document's id in its corpus (a PubMed id, a file name, the `id` field).
        text: Its text.
        title: Its title ("" where it has none).
    """

    id: str
    text: str
    title: str = ""


@dataclass(frozen=True)
class Passage:
    """A part of a document, as indexed and as shown to a judge.

    Attributes:
        id: The passage's id: `<document id>#<n>`, n counting the document's passages from 0.
        source_id: The id of the document it was cut from.
        text: The passage: exactly `document.text[start:end]`.
        start: Where it starts in the document's text (characters).
        end: Where it ends in the document's text (characters, exclusive).
        title: The document's title.
    """

    id: str
    source_id: str
    text: str
    start: int
    end: int
    title: str = ""


@dataclass(frozen=True)
class RetrievedPassage:
    """A passage found for a query.

    Attributes:
        passage: The passage.
        score: The score it was ranked by: BM25, the dense cosine similarity (dense
            retrieval, re-ranking), or the reciprocal-rank fusion of both (hybrid).
        rank: Its place in the results, from 1.
        bm25: Its BM25 score, where BM25 found it.
        dense: Its cosine similarity to the query, where a dense model found or re-ranked
            it.
        position: Where it lies in the index it was found in (None: a plug-in's passage,
            or one read back from a log); not logged.
    """

    passage: Passage
    score: float
    rank: int
    bm25: float | None = None
    dense: float | None = None
    position: int | None = field(default=None, compare=False)

    def as_metadata(self) -> dict[str, Any]:
        """The passage and its scores as one flat, JSON-ready record (for logs)."""
        scores = {name: getattr(self, name) for name in ("rank", "score", "bm25", "dense")}
        return scores | asdict(self.passage)

    @classmethod
    def from_metadata(cls, record: Mapping[str, Any]) -> RetrievedPassage:
        """A passage back from the record `as_metadata` wrote (as a log holds it)."""
        fields = {f.name for f in dataclass_fields(Passage)}
        return cls(
            Passage(**{k: v for k, v in record.items() if k in fields}),
            float(record["score"]),
            int(record["rank"]),
            bm25=record.get("bm25"),
            dense=record.get("dense"),
        )


RETRIEVALS: tuple[str, ...] = get_args(Retrieval)


@dataclass(frozen=True)
class DenseManifest:
    """The passage vectors an index holds (the `dense` part of its manifest).

    Attributes:
        model: The model that made them, as it was named.
        fingerprint: The model's fingerprint (`Embedder.fingerprint`): queries are embedded
            by a model of the same fingerprint, or not at all.
        dimensions: The length of a vector.
        dtype: How they are stored.
        passages: Vectors held (one per passage, in the index's order).
        build_seconds: Wall time of the encoding (summed over resumed runs).
    """

    model: str
    fingerprint: str
    dimensions: int
    dtype: VectorType
    passages: int
    build_seconds: float


@dataclass(frozen=True)
class IndexManifest:
    """What an index folder holds and how it was made (its `manifest.json`).

    Attributes:
        format: The folder layout's version.
        medhalbench: The medhalbench version that built it.
        sources: The corpora it was built from (paths as given).
        source_fingerprints: Each source's content hash, in order.
        documents: Documents read.
        passages: Passages indexed.
        mean_passage_chars: Mean passage length in characters.
        settings: How passages were cut and tokenised.
        build_seconds: Wall time of the build.
        created: When it was built (ISO 8601, UTC).
        vocabulary: Distinct BM25 tokens.
        notes: What the readers noticed (documents skipped as empty, parts of a layout
            left out).
        dense: The passage vectors, where the index holds them (`medhalbench index
            --dense`).
    """

    format: int
    medhalbench: str
    sources: list[str]
    source_fingerprints: list[str | None]
    documents: int
    passages: int
    mean_passage_chars: float
    settings: IndexSettings
    build_seconds: float
    created: str
    vocabulary: int = 0
    notes: list[str] = field(default_factory=list)
    dense: DenseManifest | None = None
