"""Evidence for judges: a local corpus cut into passages and indexed (BM25 and, optionally,
passage vectors, memory-mapped; hybrid retrieval fuses both by reciprocal rank; optional
dense re-ranking), behind a retriever interface that a search engine can also implement.
DAHL's checker and MedHallu's retrieved knowledge draw on it."""

from medhalbench import _lazy
from medhalbench.evidence._build import build_index
from medhalbench.evidence._chunks import chunk_document, passage_windows
from medhalbench.evidence._corpus import (
    corpus_kind,
    located_documents,
    read_documents,
)
from medhalbench.evidence._dense import DenseVectors
from medhalbench.evidence._format import (
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
    document_ids,
    gold_ranks,
    read_questions,
    recall_figures,
)
from medhalbench.evidence._records import (
    DenseManifest,
    Document,
    IndexManifest,
    Passage,
    RetrievedPassage,
)
from medhalbench.evidence._retriever import (
    BM25Retriever,
    DenseReranker,
    DenseRetriever,
    HybridRetriever,
    Retriever,
    evidence_summary,
    example_passages,
    index_retriever,
    open_retriever,
    register_retriever,
)

__getattr__, __all__ = _lazy.exports(__name__, __file__)
