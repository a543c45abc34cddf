"""Passage vectors: made by a sentence-transformers model in resumable chunks, stored
memory-mapped in the index folder (float16, or int8 scaled per vector), and searched exactly
(every vector scored; `bench/evidence_scale.py` measures what that costs)."""

from __future__ import annotations

import json
import shutil
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from medhalbench._errors import DataError
from medhalbench.data import write_text_atomically
from medhalbench.embeddings import Embedder
from medhalbench.evidence._layout import write_manifest
from medhalbench.evidence._records import DenseManifest, IndexManifest
from medhalbench.settings import DenseSettings

DENSE_FOLDER = "dense"
VECTORS_FILE = "vectors.npy"
SCALES_FILE = "scales.npy"
PARTIAL_FOLDER = ".dense-building"
"""Where vectors are written until all are made (a rerun of the build resumes there)."""
PROGRESS_FILE = "progress.json"
ENCODE_CHUNK = 2048
"""Passages encoded and saved at a time: an interrupted build loses at most this many."""
TICK_BATCH = 128
"""Passages encoded between two moves of the progress bar (a chunk takes minutes on CPU)."""
SEARCH_CHUNK = 65_536
"""Vectors scored at a time by a batch of queries (bounds a search's memory)."""
SMALL_BATCH = 32
"""Up to this many queries are scored against the half-float vectors directly (fast for
one query); larger batches convert blocks of vectors to float32 once for all of them."""
RESCORED = 64
"""Candidates beyond k scored again exactly after a half-float search (its scores are
rounded to half floats, which can swap near ties)."""
_REBUILD = "build them again with medhalbench index --dense --overwrite"
"""What to do about damaged passage vectors."""

Tick = Callable[[int], None]


def _write_json(path: Path, value: dict[str, Any]) -> None:
    write_text_atomically(path, json.dumps(value, indent=2) + "\n")


def quantize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vectors as 8-bit integers and a scale each: `vectors ~ q * scale[:, None]`."""
    largest = np.abs(vectors).max(axis=1)
    scales = np.where(largest > 0, largest / 127.0, 1.0).astype(np.float32)
    q = np.clip(np.rint(vectors / scales[:, None]), -127, 127).astype(np.int8)
    return q, scales


def write_vectors(
    folder: Path,
    texts: Callable[[int], Iterator[str]],
    passages: int,
    settings: DenseSettings,
    *,
    tick: Tick,
    started: Tick,
) -> DenseManifest:
    """Embed every passage into `folder/dense/`, in chunks saved as they are made: a rerun
    after an interruption resumes after the last chunk saved (when the model and storage
    are the same).

    Args:
        folder: The index folder.
        texts: The texts to embed, from a passage on (by its position).
        passages: How many passages the index holds.
        settings: The model and the storage.
        tick: Called with the number of passages embedded, every `TICK_BATCH` of them.
        started: Called once with the number of passages already embedded (a resumed build).

    Returns:
        What the vectors are (for the manifest).
    """
    embedder = Embedder(settings.dense_model)
    dimensions = embedder.dimensions
    state: dict[str, Any] = {
        "model": settings.dense_model,
        "fingerprint": embedder.fingerprint,
        "dimensions": dimensions,
        "dtype": settings.dense_dtype,
        "passages": passages,
    }
    partial = folder / PARTIAL_FOLDER
    progress = partial / PROGRESS_FILE
    done, seconds = 0, 0.0
    if progress.is_file():
        try:
            saved = json.loads(progress.read_text())
            if {k: saved.get(k) for k in state} == state:
                done, seconds = int(saved["done"]), float(saved["seconds"])
        except (ValueError, KeyError, TypeError):
            pass
    if not done:
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir()
    shape = (passages, dimensions)
    mode = "r+" if done else "w+"
    int8 = settings.dense_dtype == "int8"
    vectors = np.lib.format.open_memmap(
        partial / VECTORS_FILE, mode, np.int8 if int8 else np.float16, shape
    )
    scales = (
        np.lib.format.open_memmap(partial / SCALES_FILE, mode, np.float32, (passages,))
        if int8
        else None
    )
    started(done)
    chunk: list[str] = []
    at = done
    clock = time.perf_counter()

    def save() -> None:
        nonlocal at, chunk, seconds, clock
        for start in range(0, len(chunk), TICK_BATCH):
            part = chunk[start : start + TICK_BATCH]
            encoded = embedder.encode(part).astype(np.float32)
            if scales is not None:
                vectors[at : at + len(part)], scales[at : at + len(part)] = quantize(encoded)
            else:
                vectors[at : at + len(part)] = encoded.astype(np.float16)
            at += len(part)
            tick(len(part))
        if scales is not None:
            scales.flush()
        vectors.flush()
        now = time.perf_counter()
        seconds += now - clock
        clock = now
        _write_json(progress, {**state, "done": at, "seconds": round(seconds, 3)})
        chunk = []

    if done < passages:
        for text in texts(done):
            chunk.append(text)
            if len(chunk) == ENCODE_CHUNK:
                save()
        if chunk:
            save()
    if at != passages:
        raise DataError(
            f"the index holds {passages:,} passages but {at:,} were read for vectors; build "
            "it again",
            path=folder,
        )
    return DenseManifest(
        model=settings.dense_model,
        fingerprint=str(state["fingerprint"]),
        dimensions=dimensions,
        dtype=settings.dense_dtype,
        passages=passages,
        build_seconds=round(seconds, 3),
    )


def install_vectors(folder: Path, manifest: IndexManifest) -> None:
    """Put finished vectors in place (`dense/`) and the manifest that names them: the
    index never names vectors it does not hold."""
    partial = folder / PARTIAL_FOLDER
    (partial / PROGRESS_FILE).unlink(missing_ok=True)
    if (folder / DENSE_FOLDER).exists():
        write_manifest(folder, replace(manifest, dense=None))
        shutil.rmtree(folder / DENSE_FOLDER)
    partial.rename(folder / DENSE_FOLDER)
    write_manifest(folder, manifest)


class DenseVectors:
    """An index's passage vectors, memory-mapped, searched exactly by inner product (the
    vectors are L2-normalised: cosine similarity).

    Args:
        folder: The index folder.
        dense: What the manifest says they are.

    Raises:
        DataError: Vectors missing, or not what the manifest says.
    """

    def __init__(self, folder: Path, dense: DenseManifest) -> None:
        self.dense = dense
        where = folder / DENSE_FOLDER
        try:
            self.vectors = np.load(where / VECTORS_FILE, mmap_mode="r")
            self.scales = (
                np.load(where / SCALES_FILE, mmap_mode="r") if dense.dtype == "int8" else None
            )
        except (OSError, ValueError) as ex:
            raise DataError(f"damaged passage vectors ({ex}); {_REBUILD}", path=folder) from None
        expected = np.int8 if dense.dtype == "int8" else np.float16
        if self.vectors.shape != (dense.passages, dense.dimensions) or (
            self.vectors.dtype != expected
        ):
            raise DataError(
                f"damaged passage vectors ({self.vectors.dtype} {self.vectors.shape}, the "
                f"manifest says {dense.dtype} ({dense.passages}, {dense.dimensions})); {_REBUILD}",
                path=folder,
            )
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return int(self.vectors.shape[0])

    def rows(self, positions: np.ndarray) -> np.ndarray:
        """The vectors at some positions, as float32."""
        found = np.asarray(self.vectors[np.asarray(positions, dtype=np.int64)], np.float32)
        if self.scales is not None:
            found *= np.asarray(self.scales[positions], np.float32)[:, None]
        return found

    def search(self, queries: np.ndarray, k: int) -> list[list[tuple[int, float]]]:
        """The k passages of highest cosine similarity to each query vector, as (position,
        similarity), best first (ties: the earlier position first)."""
        import torch

        n = len(self)
        k = min(k, n)
        if not len(queries) or k < 1:
            return [[] for _ in queries]
        queries = np.ascontiguousarray(queries, dtype=np.float32)
        with self._lock, warnings.catch_warnings():
            # The memory map is read-only; torch only reads it.
            warnings.filterwarnings("ignore", message="The given NumPy array is not writable")
            if self.scales is None and len(queries) <= SMALL_BATCH:
                matrix = torch.from_numpy(self.vectors)
                rough = matrix @ torch.from_numpy(queries).half().T
                take = min(n, k + RESCORED)
                candidates = torch.topk(rough.float(), take, dim=0).indices.T.numpy()
                return [self._exact(q, c, k) for q, c in zip(queries, candidates, strict=True)]
            return self._blocks(torch, queries, k)

    def _exact(self, query: np.ndarray, candidates: np.ndarray, k: int) -> list[tuple[int, float]]:
        order = np.sort(candidates)
        scores = self.rows(order) @ query
        best = np.lexsort((order, -scores))[:k]
        return [(int(order[i]), float(scores[i])) for i in best]

    def _blocks(self, torch: Any, queries: np.ndarray, k: int) -> list[list[tuple[int, float]]]:
        n = len(self)
        columns = torch.from_numpy(queries).T.contiguous()
        best_scores = torch.full((len(queries), 0), -np.inf)
        best_positions = torch.zeros((len(queries), 0), dtype=torch.int64)
        for start in range(0, n, SEARCH_CHUNK):
            block = torch.from_numpy(np.asarray(self.vectors[start : start + SEARCH_CHUNK]))
            block = block.float()
            if self.scales is not None:
                scale = np.asarray(self.scales[start : start + SEARCH_CHUNK], np.float32)
                block *= torch.from_numpy(scale)[:, None]
            scores = (block @ columns).T  # (queries, block)
            top = torch.topk(scores, min(k, scores.shape[1]), dim=1)
            best_scores = torch.cat([best_scores, top.values], dim=1)
            best_positions = torch.cat([best_positions, top.indices + start], dim=1)
            keep = torch.topk(best_scores, min(k, best_scores.shape[1]), dim=1).indices
            best_scores = torch.gather(best_scores, 1, keep)
            best_positions = torch.gather(best_positions, 1, keep)
        found = []
        for scores, positions in zip(best_scores.numpy(), best_positions.numpy(), strict=True):
            order = np.lexsort((positions, -scores))
            found.append([(int(positions[i]), float(scores[i])) for i in order])
        return found
