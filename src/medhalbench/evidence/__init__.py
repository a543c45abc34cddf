"""Evidence for judges: a local corpus cut into passages and indexed (BM25 and, optionally,
passage vectors, memory-mapped; hybrid retrieval fuses both by reciprocal rank; optional
dense re-ranking), behind a retriever interface that a search engine can also implement.
DAHL's checker and MedHallu's retrieved knowledge draw on it."""

from medhalbench.evidence._build import add_vectors, build_index
from medhalbench.evidence._chunks import chunk_document, passage_windows
from medhalbench.evidence._corpus import (
    CORPUS_KINDS,
    CorpusKind,
    Located,
    corpus_kind,
    located_documents,
    read_documents,
)
from medhalbench.evidence._dense import DenseVectors
from medhalbench.evidence._format import (
    NO_PASSAGES,
    logged_passages_text,
    passages_metadata,
    passages_text,
)
from medhalbench.evidence._fusion import reciprocal_rank_fusion
from medhalbench.evidence._grounding import grounding_retriever, grounding_summary
from medhalbench.evidence._index import PassageIndex
from medhalbench.evidence._layout import is_index, read_manifest
from medhalbench.evidence._recall import (
    MRR_DEPTH,
    RecallQuestion,
    document_ids,
    gold_ranks,
    read_questions,
    recall_figures,
)
from medhalbench.evidence._records import (
    RETRIEVALS,
    DenseManifest,
    Document,
    IndexManifest,
    Passage,
    RetrievedPassage,
)
from medhalbench.evidence._retriever import (
    RETRIEVER_ENTRY_POINTS,
    BM25Retriever,
    DenseReranker,
    DenseRetriever,
    HybridRetriever,
    Retriever,
    evidence_fingerprint,
    evidence_summary,
    example_passages,
    index_retriever,
    open_retriever,
    query_embedder,
    register_retriever,
    retrieval_of,
    retriever_schemes,
)

__all__ = [
    "grounding_retriever",
    "grounding_summary",
    "CORPUS_KINDS",
    "MRR_DEPTH",
    "NO_PASSAGES",
    "RETRIEVALS",
    "RETRIEVER_ENTRY_POINTS",
    "BM25Retriever",
    "CorpusKind",
    "DenseManifest",
    "DenseReranker",
    "DenseRetriever",
    "DenseVectors",
    "Document",
    "HybridRetriever",
    "IndexManifest",
    "Located",
    "Passage",
    "PassageIndex",
    "RecallQuestion",
    "RetrievedPassage",
    "Retriever",
    "add_vectors",
    "build_index",
    "chunk_document",
    "corpus_kind",
    "document_ids",
    "evidence_fingerprint",
    "evidence_summary",
    "example_passages",
    "gold_ranks",
    "index_retriever",
    "is_index",
    "located_documents",
    "logged_passages_text",
    "open_retriever",
    "passage_windows",
    "passages_metadata",
    "passages_text",
    "query_embedder",
    "read_documents",
    "read_manifest",
    "read_questions",
    "recall_figures",
    "reciprocal_rank_fusion",
    "register_retriever",
    "retrieval_of",
    "retriever_schemes",
]
