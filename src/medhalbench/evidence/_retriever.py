"""The retriever interface; its implementations over an index folder (BM25, passage vectors,
and both fused by reciprocal rank); dense re-ranking of any retriever's candidates; and
opening a retriever by name (an index, a corpus, or a search engine a plug-in registers)."""

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
from medhalbench._secrets import address_secrets, register_secret
from medhalbench.embeddings import DEFAULT_EMBEDDER, Embedder, torch_threads
from medhalbench.evidence._build import build_index, index_text
from medhalbench.evidence._corpus import corpus_kind
from medhalbench.evidence._fusion import reciprocal_rank_fusion
from medhalbench.evidence._index import PassageIndex
from medhalbench.evidence._layout import is_index, read_manifest
from medhalbench.evidence._records import Passage, RetrievedPassage
from medhalbench.settings import (
    DENSE_WEIGHT,
    HYBRID_DEPTH,
    RERANK_CANDIDATES,
    RRF_K,
    DenseSettings,
    IndexSettings,
    Retrieval,
)

RETRIEVER_ENTRY_POINTS = "medhalbench.retrievers"
"""The entry-point group of retriever plug-ins: `SCHEME = "package.module:factory"`, where
`factory(address)` returns a `Retriever`; `--evidence SCHEME:ADDRESS` then names one."""


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

    mode: Retrieval = "bm25"

    @property
    def name(self) -> str:
        return f"bm25:{self.index.folder}"

    def search(self, queries: Sequence[str], k: int) -> list[list[RetrievedPassage]]:
        return [
            [
                RetrievedPassage(self.index.passage(i), score, rank, bm25=score, position=i)
                for rank, (i, score) in enumerate(found, start=1)
            ]
            for found in self.index.search(queries, k)
        ]


def query_embedder(index: PassageIndex, model: str | None = None) -> Embedder:
    """The model that embeds queries for an index's passage vectors: the one that made
    them (a model named otherwise is taken only where its fingerprint is theirs).

    Raises:
        DataError: The index holds no vectors, or the model is not the one that made them.
        ResourceUnavailableError: The model cannot be loaded (a hub name offline).
    """
    dense = index.vectors.dense
    embedder = Embedder(model or dense.model)
    if embedder.fingerprint == dense.fingerprint:
        return embedder
    if model is None or model == dense.model:
        raise DataError(
            f"the model {dense.model} found here (fingerprint {embedder.fingerprint}) is not "
            f"the one that made the index's passage vectors ({dense.fingerprint}); make them "
            "again with medhalbench index ... --dense --overwrite",
            path=index.folder,
        )
    raise DataError(
        f"the index's passage vectors were made by {dense.model} (fingerprint "
        f"{dense.fingerprint}); queries embedded by {model} (fingerprint "
        f"{embedder.fingerprint}) would not be comparable with them: leave the model out to "
        "embed them with the index's own",
        path=index.folder,
    )


class DenseRetriever:
    """Passage vectors searched exactly by cosine similarity to the query's vector, the
    query embedded by the model that made them.

    Args:
        index: The opened index (it must hold vectors).
        embedder: The query model's name (default: the index's own; another is refused
            unless it is the same model).

    Raises:
        DataError: As `query_embedder`.
    """

    mode: Retrieval = "dense"

    def __init__(self, index: PassageIndex, embedder: str | None = None) -> None:
        self.index = index
        self.embedder = query_embedder(index, embedder)
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return f"dense:{self.index.folder} ({self.index.vectors.dense.model})"

    def positions(self, queries: Sequence[str], k: int) -> list[list[tuple[int, float]]]:
        """Each query's k nearest passages as (position, cosine similarity), best first."""
        # One query on one thread: under load torch's threads contend (358 ms p50 against
        # 40 ms on one, two cores busy); a batch of queries has work for all of them.
        with self._lock, torch_threads(1 if len(queries) == 1 else None):
            vectors = self.embedder.encode(list(queries))
        return self.index.vectors.search(vectors, k)

    def search(self, queries: Sequence[str], k: int) -> list[list[RetrievedPassage]]:
        return [
            [
                RetrievedPassage(self.index.passage(i), score, rank, dense=score, position=i)
                for rank, (i, score) in enumerate(found, start=1)
            ]
            for found in self.positions(queries, k)
        ]


class HybridRetriever:
    """BM25 and passage vectors, each asked for its `depth` best passages, fused by
    reciprocal rank: a passage either finds well ranks well (lexical recall for questions
    that copy the abstract's words, dense recall for those that do not).

    Args:
        index: The opened index (it must hold vectors).
        embedder: The query model's name (default: the index's own).
        rrf_k: The fusion constant (`reciprocal_rank_fusion`).
        depth: Candidates taken from each retriever per query (at least k).
        dense_weight: The vectors' ranking's weight in the fusion (BM25's is 1).

    Raises:
        DataError: As `query_embedder`.
    """

    mode: Retrieval = "hybrid"

    def __init__(
        self,
        index: PassageIndex,
        embedder: str | None = None,
        *,
        rrf_k: int = RRF_K,
        depth: int = HYBRID_DEPTH,
        dense_weight: float = DENSE_WEIGHT,
    ) -> None:
        self.index = index
        self.dense = DenseRetriever(index, embedder)
        self.rrf_k = rrf_k
        self.depth = depth
        self.dense_weight = dense_weight

    @property
    def name(self) -> str:
        model = self.index.vectors.dense.model
        return (
            f"hybrid:{self.index.folder} (bm25 + {model}, rrf k {self.rrf_k}, depth {self.depth}, "
            f"dense weight {self.dense_weight:g})"
        )

    def search(self, queries: Sequence[str], k: int) -> list[list[RetrievedPassage]]:
        depth = max(k, self.depth)
        lexical = self.index.search(queries, depth)
        dense = self.dense.positions(queries, depth)
        found = []
        for words, vectors in zip(lexical, dense, strict=True):
            bm25, cosine = dict(words), dict(vectors)
            fused = reciprocal_rank_fusion(
                [list(bm25), list(cosine)], k=self.rrf_k, weights=[1.0, self.dense_weight]
            )[:k]
            found.append(
                [
                    RetrievedPassage(
                        self.index.passage(i),
                        score,
                        rank,
                        bm25=bm25.get(i),
                        dense=cosine.get(i),
                        position=i,
                    )
                    for rank, (i, score) in enumerate(fused, start=1)
                ]
            )
        return found


class DenseReranker:
    """Orders another retriever's candidates by cosine similarity of sentence embeddings
    (default all-MiniLM-L6-v2, offline): lexical recall, semantic order.

    Args:
        base: The retriever whose candidates are re-ranked.
        embedder: A sentence-transformers model name or folder.
        candidates: Candidates taken from `base` per query.
        cache_size: Passage embeddings kept between queries.
        index_vectors: Read the candidates' vectors from the index where it holds this
            model's (False: encode them at query time, as for an index without vectors).
    """

    def __init__(
        self,
        base: Retriever,
        embedder: str | None = None,
        candidates: int = RERANK_CANDIDATES,
        cache_size: int = 100_000,
        *,
        index_vectors: bool = True,
    ) -> None:
        self.base = base
        index = getattr(base, "index", None)
        dense = index.manifest.dense if isinstance(index, PassageIndex) else None
        self.embedder = Embedder(embedder or (dense.model if dense else DEFAULT_EMBEDDER))
        # The index's own vectors, where they are this model's: nothing to encode.
        self._stored = (
            index.vectors
            if index_vectors
            and isinstance(index, PassageIndex)
            and dense is not None
            and dense.fingerprint == self.embedder.fingerprint
            else None
        )
        self.candidates = candidates
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    @property
    def mode(self) -> Retrieval | None:
        """How the candidates were found (None: by a plug-in)."""
        return getattr(self.base, "mode", None)

    @property
    def name(self) -> str:
        return f"{self.base.name} reranked by {self.embedder.name} (top {self.candidates})"

    def _vectors(self, found: Sequence[RetrievedPassage]) -> np.ndarray:
        positions = [h.position for h in found]
        if self._stored is not None and None not in positions:
            return self._stored.rows(np.asarray(positions, dtype=np.int64))
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
                            position=pool[i].position,
                        )  # fmt: skip
                        for rank, i in enumerate(order, start=1)
                    ]
                )
        return ranked


_REGISTERED: dict[str, Callable[[str], Retriever]] = {}
_OPENED: dict[tuple[object, ...], Retriever] = {}
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


def _temporary_index(
    corpus: Path, settings: IndexSettings, progress: bool, dense: DenseSettings | None
) -> PassageIndex:
    folder = Path(tempfile.mkdtemp(prefix="medhalbench-evidence-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    build_index([corpus], folder / "index", settings, dense=dense, progress=progress)
    return PassageIndex(folder / "index")


def index_retriever(
    index: PassageIndex,
    retriever: Retrieval | None = None,
    *,
    embedder: str | None = None,
    rrf_k: int = RRF_K,
    depth: int = HYBRID_DEPTH,
) -> Retriever:
    """How an opened index is searched: as asked, or by default hybrid where it holds
    passage vectors and BM25 where it does not.

    Raises:
        DataError: Dense or hybrid retrieval asked of an index without vectors, or a query
            model that is not the one that made them.
    """
    mode = retriever or ("hybrid" if index.manifest.dense is not None else "bm25")
    if mode == "bm25":
        return BM25Retriever(index)
    if mode == "dense":
        return DenseRetriever(index, embedder)
    return HybridRetriever(index, embedder, rrf_k=rrf_k, depth=depth)


def open_retriever(
    source: str,
    *,
    retriever: Retrieval | None = None,
    rerank: bool = False,
    embedder: str | None = None,
    settings: IndexSettings | None = None,
    progress: bool = False,
    rrf_k: int = RRF_K,
    depth: int = HYBRID_DEPTH,
) -> Retriever:
    """The retriever a name gives: an index folder (opened memory-mapped); a corpus (indexed
    once per process into a temporary folder, with passage vectors where dense or hybrid
    retrieval is asked for: index a large one with `medhalbench index` first); or
    `SCHEME:ADDRESS` for a registered plug-in (a search engine). Opened once per process and
    shared.

    Args:
        source: The index folder, corpus, or plug-in address.
        retriever: How an index is searched: bm25, dense or hybrid (default: hybrid where
            it holds passage vectors, else bm25). A plug-in searches its own way.
        rerank: Re-rank the candidates by cosine similarity of dense embeddings.
        embedder: The sentence-transformers model of the re-ranker and of the queries
            (default: the index's own model, else all-MiniLM-L6-v2); queries are embedded
            only by the model that made the index's vectors.
        settings: How a corpus given directly is cut and tokenised.
        progress: Show progress bars while a corpus is indexed.
        rrf_k: Hybrid retrieval's fusion constant.
        depth: Candidates hybrid retrieval takes from each retriever.

    Raises:
        DataError: No such index, corpus or plug-in, a corpus that cannot be read, a
            retrieval the index cannot do (dense without vectors), or a plug-in given a
            retrieval.
    """
    settings = settings or IndexSettings()
    key = (source, retriever, rerank, embedder, settings, rrf_k, depth)
    with _OPEN_LOCK:
        if key in _OPENED:
            return _OPENED[key]
        base: Retriever
        path = Path(source).expanduser()
        scheme = _SCHEME.match(source)
        if not path.exists() and scheme and (factory := _plugin(scheme.group(1))):
            for secret in address_secrets(source):  # before anything names the address
                register_secret(secret)
            if retriever is not None:
                raise DataError(
                    f"a retriever plug-in ({scheme.group(1)}) searches its own way: the "
                    f"retrieval ({retriever}) chooses how an index folder or a corpus is "
                    "searched",
                    path=source,
                )
            base = factory(scheme.group(2))
            if not isinstance(base, Retriever):
                raise DataError(
                    f"the {scheme.group(1)!r} plug-in made {type(base).__name__}, no retriever "
                    "(it needs a name and search(queries, k))",
                    path=source,
                )
        elif path.exists():
            index = PassageIndex(path) if is_index(path) else None
            if index is None:  # a corpus, indexed for the run
                corpus_kind(path)  # a corpus of no known layout stops here, before indexing
                vectors = DenseSettings() if retriever in ("dense", "hybrid") else None
                index = _temporary_index(path, settings, progress, vectors)
            base = index_retriever(index, retriever, embedder=embedder, rrf_k=rrf_k, depth=depth)
        else:
            schemes = retriever_schemes()
            plugins = f"; plug-in retrievers: {', '.join(schemes)}" if schemes else ""
            raise DataError(f"no such index, corpus or retriever{plugins}", path=source)
        found: Retriever = DenseReranker(base, embedder) if rerank else base
        _OPENED[key] = found
        return found


def retrieval_of(retriever: Retriever) -> Retrieval | None:
    """How a retriever searches an index (bm25, dense, hybrid; None: a plug-in's way)."""
    mode = getattr(retriever, "mode", None)
    return mode if mode in ("bm25", "dense", "hybrid") else None


def evidence_fingerprint(source: str) -> str | None:
    """The content hash of an index's corpora or of a corpus (the address of a plug-in)."""
    path = Path(source).expanduser()
    if is_index(path):
        return ",".join(str(f) for f in read_manifest(path).source_fingerprints)
    return dataset_fingerprint(source) if path.exists() else source


def example_passages(retriever: Retriever, count: int = 200) -> list[Passage]:
    """Passages spread evenly over the index a retriever searches (for estimates such as
    a plan's prompt tokens); none for a retriever that searches no index of ours."""
    base = retriever.base if isinstance(retriever, DenseReranker) else retriever
    index = getattr(base, "index", None)
    if not isinstance(index, PassageIndex) or not len(index):
        return []
    size = len(index)
    return [index.passage(i) for i in sorted({int(i) for i in np.linspace(0, size - 1, count)})]


def evidence_summary(
    source: str, *, retriever: Retrieval | None = None, rerank: bool = False
) -> dict[str, str | None]:
    """What a log keeps about the evidence a run searched: the retriever (what it searches
    and how), the content hash of its corpora, and the retrieval it did (bm25, dense,
    hybrid; None: a plug-in's own)."""
    opened = open_retriever(source, retriever=retriever, rerank=rerank)
    return {
        "retriever": opened.name,
        "fingerprint": evidence_fingerprint(source),
        "retrieval": retrieval_of(opened),
    }
