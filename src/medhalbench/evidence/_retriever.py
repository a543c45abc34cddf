"""The retriever interface, its BM25 implementation over an index folder, dense re-ranking of
any retriever's candidates, and opening a retriever by name (an index, a corpus, or a
search engine a plug-in registers)."""

from __future__ import annotations

import atexit
import re
import shutil
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from medhalbench._errors import DataError
from medhalbench._provenance import dataset_fingerprint
from medhalbench.evidence._build import build_index, index_text
from medhalbench.evidence._corpus import corpus_kind
from medhalbench.evidence._index import PassageIndex, is_index
from medhalbench.evidence._records import IndexSettings, Passage, RetrievedPassage

RETRIEVER_ENTRY_POINTS = "medhalbench.retrievers"
"""The entry-point group of retriever plug-ins: `SCHEME = "package.module:factory"`, where
`factory(address)` returns a `Retriever`; `--evidence SCHEME:ADDRESS` then names one."""
RERANK_CANDIDATES = 50
"""BM25 candidates a dense re-ranker orders, per query."""


@runtime_checkable
class Retriever(Protocol):
    """Finds passages for queries: the one thing DAHL's checker and MedHallu's retrieved
    knowledge need of a search engine.

    A search engine that already holds a corpus (Elasticsearch, OpenSearch, a vector store)
    plugs in by implementing this: `name` says what it searches (it is kept in logs), and
    `search` returns each query's best passages, best first. It is called from worker
    threads, several queries at a time.
    """

    @property
    def name(self) -> str:
        """What is searched and how (`bm25:/data/pubmed-index`), as logs record it."""
        ...

    def search(self, queries: Sequence[str], k: int) -> list[list[RetrievedPassage]]:
        """The k best passages of each query (fewer where fewer match), best first."""
        ...


class BM25Retriever:
    """BM25 over an index folder (see `build_index`), memory-mapped.

    Args:
        index: The opened index.
    """

    def __init__(self, index: PassageIndex) -> None:
        self.index = index

    @property
    def name(self) -> str:
        return f"bm25:{self.index.folder}"

    def search(self, queries: Sequence[str], k: int) -> list[list[RetrievedPassage]]:
        return [
            [
                RetrievedPassage(self.index.passage(i), score, rank, bm25=score)
                for rank, (i, score) in enumerate(found, start=1)
            ]
            for found in self.index.search(queries, k)
        ]


class DenseReranker:
    """Orders another retriever's candidates by cosine similarity of sentence embeddings
    (default all-MiniLM-L6-v2, offline): lexical recall, semantic order.

    Args:
        base: The retriever whose candidates are re-ranked.
        embedder: A sentence-transformers model name or folder.
        candidates: Candidates taken from `base` per query.
        cache_size: Passage embeddings kept between queries.
    """

    def __init__(
        self,
        base: Retriever,
        embedder: str | None = None,
        candidates: int = RERANK_CANDIDATES,
        cache_size: int = 100_000,
    ) -> None:
        from medhalbench.embeddings import DEFAULT_EMBEDDER, Embedder

        self.base = base
        self.embedder = Embedder(embedder or DEFAULT_EMBEDDER)
        self.candidates = candidates
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return f"{self.base.name} reranked by {self.embedder.name} (top {self.candidates})"

    def _vectors(self, found: Sequence[RetrievedPassage]) -> np.ndarray:
        missing = [h for h in found if h.passage.id not in self._cache]
        if missing:
            encoded = self.embedder.encode([index_text(h.passage) for h in missing])
            for hit, vector in zip(missing, encoded, strict=True):
                self._cache[hit.passage.id] = vector
        for hit in found:
            self._cache.move_to_end(hit.passage.id)
        rows = np.stack([self._cache[h.passage.id] for h in found])
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return rows

    def search(self, queries: Sequence[str], k: int) -> list[list[RetrievedPassage]]:
        pools = self.base.search(queries, max(k, self.candidates))
        with self._lock:
            query_vectors = self.embedder.encode(list(queries))
            ranked: list[list[RetrievedPassage]] = []
            for query_vector, pool in zip(query_vectors, pools, strict=True):
                if not pool:
                    ranked.append([])
                    continue
                similarity = self._vectors(pool) @ query_vector
                order = np.argsort(-similarity, kind="stable")[:k]
                ranked.append(
                    [
                        RetrievedPassage(
                            pool[i].passage,
                            float(similarity[i]),
                            rank,
                            bm25=pool[i].bm25,
                            dense=float(similarity[i]),
                        )  # fmt: skip
                        for rank, i in enumerate(order, start=1)
                    ]
                )
        return ranked


_REGISTERED: dict[str, Callable[[str], Retriever]] = {}
_OPENED: dict[tuple[str, str | None, IndexSettings], Retriever] = {}
_OPEN_LOCK = threading.Lock()
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+):(.*)$", re.S)


def register_retriever(scheme: str, factory: Callable[[str], Retriever]) -> None:
    """Make `SCHEME:ADDRESS` name a retriever made by `factory(ADDRESS)` in this process
    (plug-ins installed as packages use the `medhalbench.retrievers` entry points)."""
    _REGISTERED[scheme] = factory


def _plugin(scheme: str) -> Callable[[str], Retriever] | None:
    if scheme in _REGISTERED:
        return _REGISTERED[scheme]
    for point in entry_points(group=RETRIEVER_ENTRY_POINTS):
        if point.name == scheme:
            factory: Callable[[str], Retriever] = point.load()
            return factory
    return None


def retriever_schemes() -> list[str]:
    """The schemes that name plug-in retrievers (`es` in `es:pubmed`)."""
    return sorted({*_REGISTERED, *(p.name for p in entry_points(group=RETRIEVER_ENTRY_POINTS))})


def _temporary_index(corpus: Path, settings: IndexSettings, progress: bool) -> PassageIndex:
    folder = Path(tempfile.mkdtemp(prefix="medhalbench-evidence-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    build_index([corpus], folder / "index", settings, progress=progress)
    return PassageIndex(folder / "index")


def open_retriever(
    source: str,
    *,
    rerank: bool = False,
    embedder: str | None = None,
    settings: IndexSettings | None = None,
    progress: bool = False,
) -> Retriever:
    """The retriever a name gives: an index folder (opened memory-mapped); a corpus (indexed
    once per process into a temporary folder: index a large one with `medhalbench index`
    first); or `SCHEME:ADDRESS` for a registered plug-in (a search engine). Opened once
    per process and shared.

    Args:
        source: The index folder, corpus, or plug-in address.
        rerank: Re-rank BM25's candidates with dense embeddings.
        embedder: The re-ranker's sentence-transformers model (default all-MiniLM-L6-v2).
        settings: How a corpus given directly is cut and tokenised.
        progress: Show progress bars while a corpus is indexed.

    Raises:
        DataError: No such index, corpus or plug-in, or a corpus that cannot be read.
    """
    settings = settings or IndexSettings()
    key = (source, embedder if rerank else None, settings)
    with _OPEN_LOCK:
        if key in _OPENED:
            return _OPENED[key]
        base: Retriever
        path = Path(source).expanduser()
        scheme = _SCHEME.match(source)
        if not path.exists() and scheme and (factory := _plugin(scheme.group(1))):
            base = factory(scheme.group(2))
            if not isinstance(base, Retriever):
                raise DataError(
                    f"the {scheme.group(1)!r} plug-in made {type(base).__name__}, no retriever "
                    "(it needs a name and search(queries, k))",
                    path=source,
                )
        elif is_index(path):
            base = BM25Retriever(PassageIndex(path))
        elif path.exists():
            corpus_kind(path)  # a corpus of no known layout stops here, before indexing
            base = BM25Retriever(_temporary_index(path, settings, progress))
        else:
            schemes = retriever_schemes()
            plugins = f"; plug-in retrievers: {', '.join(schemes)}" if schemes else ""
            raise DataError(f"no such index, corpus or retriever{plugins}", path=source)
        retriever: Retriever = DenseReranker(base, embedder) if rerank else base
        _OPENED[key] = retriever
        return retriever


def evidence_fingerprint(source: str) -> str | None:
    """The content hash of an index's corpora or of a corpus (the address of a plug-in)."""
    path = Path(source).expanduser()
    if is_index(path):
        from medhalbench.evidence._index import read_manifest

        return ",".join(str(f) for f in read_manifest(path).source_fingerprints)
    return dataset_fingerprint(source) if path.exists() else source


def example_passages(retriever: Retriever, count: int = 200) -> list[Passage]:
    """Passages spread evenly over the index a retriever searches (for estimates such as
    a plan's prompt tokens); none for a retriever that searches no index of ours."""
    base = retriever.base if isinstance(retriever, DenseReranker) else retriever
    if not isinstance(base, BM25Retriever) or not len(base.index):
        return []
    size = len(base.index)
    return [
        base.index.passage(i) for i in sorted({int(i) for i in np.linspace(0, size - 1, count)})
    ]


def evidence_summary(source: str, *, rerank: bool = False) -> dict[str, str | None]:
    """What a log keeps about the evidence a run searched: the retriever (what it searches
    and how) and the content hash of its corpora."""
    return {
        "retriever": open_retriever(source, rerank=rerank).name,
        "fingerprint": evidence_fingerprint(source),
    }
