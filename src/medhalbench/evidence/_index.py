"""An index folder opened for search: the BM25 matrix and the passages memory-mapped, so that
opening costs little memory and time whatever the corpus's size."""

from __future__ import annotations

import importlib.util
import json
import mmap
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from medhalbench._errors import DataError
from medhalbench.evidence._dense import DENSE_FOLDER, DenseVectors
from medhalbench.evidence._layout import (
    BM25_FOLDER,
    OFFSETS_FILE,
    PASSAGES_FILE,
    make_tokenizer,
    read_manifest,
)
from medhalbench.evidence._records import Passage

COMPILED_FROM_PASSAGES = 50_000
"""Indexes of at least this many passages are searched with numba's compiled loops."""
SEARCH_THREADS = 4
"""Threads a batch of queries is shared among (with numba)."""


def numba_available() -> bool:
    """Whether numba is installed (bm25s's compiled search)."""
    return importlib.util.find_spec("numba") is not None


class PassageIndex:
    """An index folder built by `build_index`, opened memory-mapped.

    Args:
        folder: The index folder.

    Raises:
        DataError: Not an index folder, or one with parts missing or damaged.
    """

    def __init__(self, folder: str | Path) -> None:
        import bm25s

        self.folder = Path(folder)
        self.manifest = read_manifest(self.folder)
        needed = [PASSAGES_FILE, OFFSETS_FILE, BM25_FOLDER]
        if self.manifest.dense is not None:
            needed.append(DENSE_FOLDER)
        missing = [name for name in needed if not (self.folder / name).exists()]
        if missing:
            raise DataError(
                f"incomplete index ({', '.join(missing)} missing); build it again with "
                "medhalbench index",
                path=folder,
            )
        # Past a few hundred thousand passages, BM25's sums over long posting lists are
        # what a search costs: numba's compiled loops (when installed) are about 12x faster
        # than numpy's there, after a one-off compilation of about 10 s per process, which a
        # small index does not repay.
        self.compiled = self.manifest.passages >= COMPILED_FROM_PASSAGES and numba_available()
        try:
            self.bm25 = bm25s.BM25.load(
                self.folder / BM25_FOLDER, mmap=True,
                override_params={"backend": "numba" if self.compiled else "numpy"},
            )  # fmt: skip
            self.tokenizer = make_tokenizer(self.manifest.settings)
            self.tokenizer.load_vocab(self.folder / BM25_FOLDER)
            self.offsets = np.load(self.folder / OFFSETS_FILE, mmap_mode="r")
        except (OSError, ValueError, KeyError) as ex:
            raise DataError(f"damaged index ({ex}); build it again", path=folder) from None
        self._file = (self.folder / PASSAGES_FILE).open("rb")
        self._passages = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
        if len(self.offsets) != self.manifest.passages or self.bm25.scores["num_docs"] != len(
            self.offsets
        ):
            raise DataError("damaged index (its parts disagree on the passage count)", path=folder)
        # The tokenizer caches words it maps to known stems; one query at a time does so.
        self._lock = threading.Lock()
        self.workers = max(1, min(os.cpu_count() or 1, SEARCH_THREADS)) if self.compiled else 1
        self._executor: ThreadPoolExecutor | None = None
        self._vectors: DenseVectors | None = None

    @property
    def vectors(self) -> DenseVectors:
        """The passage vectors (opened memory-mapped on first use).

        Raises:
            DataError: The index holds none (built without `--dense`), or damaged ones.
        """
        with self._lock:
            if self._vectors is None:
                if self.manifest.dense is None:
                    raise DataError(
                        "the index holds no passage vectors, which dense and hybrid retrieval "
                        "need: add them with medhalbench index CORPUS... --out "
                        f"{self.folder} --dense (BM25 is kept)",
                        path=self.folder,
                    )
                self._vectors = DenseVectors(self.folder, self.manifest.dense)
            return self._vectors

    def __len__(self) -> int:
        return len(self.offsets)

    def passage(self, number: int) -> Passage:
        """The passage at a position of the index (from 0)."""
        start = int(self.offsets[number])
        end = int(self.offsets[number + 1]) if number + 1 < len(self.offsets) else None
        record: dict[str, Any] = json.loads(self._passages[start:end])
        return Passage(**record)

    def token_ids(self, queries: Sequence[str]) -> list[list[int]]:
        """Each query's BM25 token ids (words the index never saw left out)."""
        with self._lock:
            return [
                list(ids)
                for ids in self.tokenizer.streaming_tokenize(
                    list(queries), update_vocab=False, allow_empty=False
                )
            ]

    def search(self, queries: Sequence[str], k: int) -> list[list[tuple[int, float]]]:
        """The k best passages of each query by BM25, as (position, score), best first;
        passages sharing no word with the query are left out (a query of no known word
        finds nothing)."""
        found: list[list[tuple[int, float]]] = [[] for _ in queries]
        ids = self.token_ids(queries)
        asked = [i for i, q in enumerate(ids) if q]
        if not asked or k < 1:
            return found
        batches = (
            [asked[i :: self.workers] for i in range(self.workers)]
            if (len(asked) >= 2 * self.workers)
            else [asked]
        )

        def retrieve(batch: list[int]) -> tuple[list[int], Any, Any]:
            # One thread each: numba's serial search releases the GIL, and its parallel one
            # may not be entered from several threads at once.
            documents, scores = self.bm25.retrieve(
                [ids[i] for i in batch], k=min(k, len(self)), sorted=True,
                show_progress=False, n_threads=1,
            )  # fmt: skip
            return batch, documents, scores

        results = (
            list(self._pool().map(retrieve, batches)) if len(batches) > 1 else [retrieve(asked)]
        )
        for batch, documents, scores in results:
            for row, i in enumerate(batch):
                found[i] = [
                    (int(d), float(s))
                    for d, s in zip(documents[row], scores[row], strict=True)
                    if s > 0
                ]
        return found

    def _pool(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="bm25")
            return self._executor

    def close(self) -> None:
        """Release the memory maps and the search threads."""
        if self._executor is not None:
            self._executor.shutdown()
        self._passages.close()
        self._file.close()
