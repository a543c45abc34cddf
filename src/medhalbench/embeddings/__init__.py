"""Sentence embeddings (default all-MiniLM-L6-v2, offline) and cosine similarity."""

from medhalbench import _lazy
from medhalbench.embeddings._embedder import (
    DEFAULT_EMBEDDER,
    Embedder,
    cosine_similarity,
    packaged_minilm_path,
    torch_threads,
)

__getattr__, __all__ = _lazy.exports(__name__, __file__)
