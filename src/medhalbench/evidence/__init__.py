"""Evidence for judges: a local corpus cut into passages and indexed (BM25, memory-mapped;
optional dense re-ranking), behind a retriever interface that a search engine can also
implement. DAHL's checker and MedHallu's retrieved knowledge draw on it."""

from medhalbench.evidence._build import build_index
from medhalbench.evidence._chunks import chunk_document, passage_windows
from medhalbench.evidence._corpus import CORPUS_KINDS, CorpusKind, corpus_kind, read_documents
from medhalbench.evidence._format import (
    DEFAULT_EVIDENCE_K,
    NO_PASSAGES,
    logged_passages_text,
    passages_metadata,
    passages_text,
)
from medhalbench.evidence._index import PassageIndex, is_index, read_manifest
from medhalbench.evidence._records import (
    Document,
    IndexManifest,
    IndexSettings,
    Passage,
    RetrievedPassage,
)
from medhalbench.evidence._retriever import (
    RETRIEVER_ENTRY_POINTS,
    BM25Retriever,
    DenseReranker,
    Retriever,
    evidence_fingerprint,
    evidence_summary,
    example_passages,
    open_retriever,
    register_retriever,
    retriever_schemes,
)

__all__ = [
    "CORPUS_KINDS",
    "DEFAULT_EVIDENCE_K",
    "NO_PASSAGES",
    "RETRIEVER_ENTRY_POINTS",
    "BM25Retriever",
    "CorpusKind",
    "DenseReranker",
    "Document",
    "IndexManifest",
    "IndexSettings",
    "Passage",
    "PassageIndex",
    "RetrievedPassage",
    "Retriever",
    "build_index",
    "chunk_document",
    "corpus_kind",
    "evidence_fingerprint",
    "evidence_summary",
    "example_passages",
    "is_index",
    "logged_passages_text",
    "open_retriever",
    "passage_windows",
    "passages_metadata",
    "passages_text",
    "read_documents",
    "read_manifest",
    "register_retriever",
    "retriever_schemes",
]
