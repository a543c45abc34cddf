"""Sentence embeddings (default all-MiniLM-L6-v2, offline) and cosine similarity."""

from medhalbench.embeddings._embedder import (
    DEFAULT_EMBEDDER,
    Embedder,
    cosine_similarity,
    packaged_minilm_path,
)

__all__ = ["DEFAULT_EMBEDDER", "Embedder", "cosine_similarity", "packaged_minilm_path"]
