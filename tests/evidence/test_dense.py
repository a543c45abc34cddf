"""Passage vectors and hybrid retrieval with the real offline all-MiniLM-L6-v2: an index built
with vectors names the model that made them (and its fingerprint), is searched hybrid by
default, finds what BM25 cannot, embeds queries only with its own model, stores int8 where
asked, adds vectors to a BM25 index without rebuilding it and resumes an interrupted
encoding; reciprocal-rank fusion orders as its definition says."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from corpora import write_jsonl
from hypothesis import given, settings
from hypothesis import strategies as st

from medhalbench._errors import DataError
from medhalbench.cli import cli
from medhalbench.embeddings import Embedder
from medhalbench.evidence import (
    BM25Retriever,
    DenseRetriever,
    HybridRetriever,
    PassageIndex,
    build_index,
    open_retriever,
    reciprocal_rank_fusion,
)
from medhalbench.settings import DENSE_WEIGHT, RRF_K, DenseSettings

# Words of none of the corpus's documents: BM25 finds nothing, the vectors find vaccines.
OWN_WORDS = "Do jabs keep protecting you years later?"


@pytest.fixture(scope="module")
def dense_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("dense")
    build_index(
        [write_jsonl(folder / "c.jsonl")], folder / "index", dense=DenseSettings(), progress=False
    )
    return folder / "index"


def test_the_manifest_names_the_model_and_its_fingerprint(dense_index: Path) -> None:
    dense = json.loads((dense_index / "manifest.json").read_text())["dense"]
    assert dense["model"] == "all-MiniLM-L6-v2"
    assert dense["fingerprint"] == Embedder().fingerprint and len(dense["fingerprint"]) == 16
    assert (dense["dimensions"], dense["dtype"], dense["passages"]) == (384, "float16", 4)
    vectors = np.load(dense_index / "dense" / "vectors.npy", mmap_mode="r")
    assert vectors.dtype == np.float16 and vectors.shape == (4, 384)
    assert np.allclose(np.linalg.norm(vectors.astype(np.float32), axis=1), 1, atol=1e-3)


def test_an_index_with_vectors_is_searched_hybrid_and_finds_what_bm25_cannot(
    dense_index: Path,
) -> None:
    retriever = open_retriever(str(dense_index))
    assert isinstance(retriever, HybridRetriever)
    assert retriever.name == (
        f"hybrid:{dense_index} (bm25 + all-MiniLM-L6-v2, rrf k {RRF_K}, depth {retriever.depth}, "
        f"dense weight {DENSE_WEIGHT:g})"
    )
    bm25 = open_retriever(str(dense_index), retriever="bm25")
    assert isinstance(bm25, BM25Retriever) and bm25.search([OWN_WORDS], 3) == [[]]
    [found] = retriever.search([OWN_WORDS], 3)
    assert found[0].passage.source_id == "vaccines" and found[0].bm25 is None
    assert [h.rank for h in found] == [1, 2, 3]
    assert [h.score for h in found] == sorted((h.score for h in found), reverse=True)
    # Found by both: a BM25 score and a cosine similarity; the score is the fused one.
    [both] = retriever.search(["Does tobacco smoking cause lung cancer?"], 1)
    [hit] = both
    assert hit.passage.source_id == "lung-cancer" and hit.bm25 and hit.dense
    assert hit.score == pytest.approx((1 + DENSE_WEIGHT) / (RRF_K + 1))
    dense = open_retriever(str(dense_index), retriever="dense")
    assert isinstance(dense, DenseRetriever)
    [nearest] = dense.search([OWN_WORDS], 4)
    assert nearest[0].passage.source_id == "vaccines"
    assert nearest[0].dense == nearest[0].score > nearest[1].score
    vector = Embedder().encode([OWN_WORDS])[0]
    stored = np.load(dense_index / "dense" / "vectors.npy").astype(np.float32)
    assert nearest[0].score == pytest.approx(float(stored[nearest[0].position] @ vector))


def test_int8_vectors_keep_the_order(tmp_path: Path, dense_index: Path) -> None:
    build_index(
        [write_jsonl(tmp_path / "c.jsonl")], tmp_path / "index",
        dense=DenseSettings(dense_dtype="int8"), progress=False,
    )  # fmt: skip
    assert np.load(tmp_path / "index" / "dense" / "vectors.npy").dtype == np.int8
    queries = [OWN_WORDS, "water pills for a weak heart", "sugar pill for diabetes"]
    half = DenseRetriever(PassageIndex(dense_index)).search(queries, 4)
    small = DenseRetriever(PassageIndex(tmp_path / "index")).search(queries, 4)
    for a, b in zip(half, small, strict=True):
        assert [h.passage.id for h in a] == [h.passage.id for h in b]
        assert [h.score for h in a] == pytest.approx([h.score for h in b], abs=0.02)


def test_queries_are_embedded_only_by_the_model_that_made_the_vectors(
    dense_index: Path, other_embedder: str, tmp_path: Path
) -> None:
    index = PassageIndex(dense_index)
    with pytest.raises(DataError) as raised:
        DenseRetriever(index, other_embedder)
    message = str(raised.value)
    assert message.startswith(f"{dense_index}: the index's passage vectors were made by ")
    assert "would not be comparable with them: leave the model out" in message
    # The same model by another name (its folder) is the same model.
    from medhalbench.embeddings import packaged_minilm_path

    assert DenseRetriever(index, str(packaged_minilm_path())).search([OWN_WORDS], 1)
    # Vectors made by a model that is no longer the one of that name: refused.
    copy = tmp_path / "index"
    import shutil

    shutil.copytree(dense_index, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["dense"]["fingerprint"] = "0" * 16
    (copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DataError, match="is not the one that made the index's passage vectors"):
        open_retriever(str(copy))


def test_dense_and_hybrid_need_vectors(tmp_path: Path) -> None:
    build_index([write_jsonl(tmp_path / "c.jsonl")], tmp_path / "index", progress=False)
    assert isinstance(open_retriever(str(tmp_path / "index")), BM25Retriever)  # the default
    for asked in ("dense", "hybrid"):
        with pytest.raises(DataError, match="holds no passage vectors, which dense and hybrid"):
            open_retriever(str(tmp_path / "index"), retriever=asked)  # type: ignore[arg-type]


def test_a_corpus_given_directly_gets_vectors_when_they_are_asked_for(tmp_path: Path) -> None:
    retriever = open_retriever(str(write_jsonl(tmp_path / "c.jsonl")), retriever="hybrid")
    assert isinstance(retriever, HybridRetriever)
    assert retriever.search([OWN_WORDS], 1)[0][0].passage.source_id == "vaccines"


def test_vectors_are_added_to_an_index_without_rebuilding_it(tmp_path: Path) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl")
    build_index([corpus], tmp_path / "index", progress=False)
    bm25 = tmp_path / "index" / "passages.jsonl"
    before = bm25.stat().st_mtime_ns
    said: list[str] = []
    manifest = build_index(
        [corpus], tmp_path / "index", dense=DenseSettings(), progress=False, say=said.append
    )
    assert said == ["the index of the same corpora and settings is kept: already built"]
    assert manifest.dense is not None and bm25.stat().st_mtime_ns == before
    said.clear()
    assert build_index(
        [corpus], tmp_path / "index", dense=DenseSettings(), progress=False, say=said.append
    ) == manifest  # fmt: skip
    assert said[-1] == "passage vectors of all-MiniLM-L6-v2 (float16) kept: already made"
    with pytest.raises(DataError, match=r"already holds passage vectors of all-MiniLM-L6-v2 "):
        build_index([corpus], tmp_path / "index", dense=DenseSettings(dense_dtype="int8"))


def test_an_interrupted_encoding_resumes_where_it_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from medhalbench.evidence import _dense

    corpus = write_jsonl(tmp_path / "c.jsonl")
    monkeypatch.setattr(_dense, "ENCODE_CHUNK", 2)
    real = Embedder.encode
    calls: list[int] = []

    def interrupted(self: Embedder, texts: list[str]) -> np.ndarray:
        calls.append(len(texts))
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(self, texts)

    monkeypatch.setattr(Embedder, "encode", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_index([corpus], tmp_path / "index", dense=DenseSettings(), progress=False)
    # The BM25 index is whole and searchable; the vectors made so far wait for the rerun.
    assert PassageIndex(tmp_path / "index").manifest.dense is None
    assert json.loads((tmp_path / "index" / ".dense-building" / "progress.json").read_text())[
        "done"
    ] == 2  # fmt: skip
    monkeypatch.setattr(Embedder, "encode", real)
    said: list[str] = []
    manifest = build_index(
        [corpus], tmp_path / "index", dense=DenseSettings(), progress=False, say=said.append
    )
    assert "passage vectors resumed after 2 made by an earlier run" in said
    assert manifest.dense is not None and manifest.dense.passages == 4
    assert not (tmp_path / "index" / ".dense-building").exists()
    whole = tmp_path / "whole"
    build_index([corpus], whole, dense=DenseSettings(), progress=False)
    assert np.allclose(
        np.load(tmp_path / "index" / "dense" / "vectors.npy").astype(np.float32),
        np.load(whole / "dense" / "vectors.npy").astype(np.float32),
        atol=2e-3,
    )


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [*args])
    return result.exit_code, result.stdout, result.stderr


def test_the_index_command_makes_names_and_keeps_vectors(tmp_path: Path) -> None:
    corpus, out = write_jsonl(tmp_path / "c.jsonl"), tmp_path / "idx"
    code, stdout, err = run("index", str(corpus), "--out", str(out), "--dense", "--no-progress")
    assert code == 0, err
    fingerprint = Embedder().fingerprint
    assert (
        f"Passage vectors: 4 x 384 float16 by all-MiniLM-L6-v2 (fingerprint {fingerprint})"
    ) in stdout
    assert json.loads((out / "manifest.json").read_text())["dense"]["fingerprint"] == fingerprint
    code, stdout, err = run("index", str(corpus), "--out", str(out), "--dense", "--no-progress")
    assert code == 0 and "kept: already built" in stdout and "kept: already made" in stdout
    code, _, err = run("index", str(corpus), "--out", str(out), "--dense-dtype", "int8")
    [line] = err.strip().splitlines()
    assert (
        code == 2
        and "Invalid value for --dense-dtype: sets the passage vectors: add --dense" in line
    )
    args = ("index", str(corpus), "--out", str(out), "--dense", "--dense-dtype", "int8")
    code, _, err = run(*args, "--no-progress")
    [line] = err.strip().splitlines()
    assert code == 2 and "give --overwrite to replace them" in line
    code, stdout, err = run(*args, "--overwrite", "--no-progress")
    assert code == 0 and "4 x 384 int8" in stdout, err


@pytest.mark.usefixtures("offline_hub")
def test_a_hub_model_offline_ends_in_one_line_before_any_work(tmp_path: Path) -> None:
    corpus, out = write_jsonl(tmp_path / "c.jsonl"), tmp_path / "idx"
    code, _, err = run(
        "index", str(corpus), "--out", str(out), "--dense",
        "--dense-model", "sentence-transformers/all-mpnet-base-v2",
    )  # fmt: skip
    [line] = err.strip().splitlines()
    assert code == 2 and "all-mpnet-base-v2" in line and "hub cannot be reached" in line
    assert not out.exists()


def test_fusion_breaks_ties_by_best_rank_then_by_the_rankings_order() -> None:
    assert reciprocal_rank_fusion([["a", "b"], ["b", "a"]], k=60) == [
        ("a", 1 / 61 + 1 / 62), ("b", 1 / 62 + 1 / 61),
    ]  # fmt: skip
    # x and y tie (each first in one ranking): the first ranking's goes first.
    assert [i for i, _ in reciprocal_rank_fusion([["x", "a"], ["y", "a"]])] == ["a", "x", "y"]
    assert [i for i, _ in reciprocal_rank_fusion([["y", "a"], ["x", "a"]])] == ["a", "y", "x"]
    assert [i for i, _ in reciprocal_rank_fusion([["b"], ["a", "b"]])] == ["b", "a"]
    with pytest.raises(ValueError, match="holds an item twice"):
        reciprocal_rank_fusion([["a", "a"]])


def test_a_weighted_ranking_keeps_its_first_item_first() -> None:
    # BM25 finds "both" first (the vectors' 8th); the vectors alone find "dense" first.
    lexical, dense = ["both", "x"], ["dense", *"abcdef", "both"]
    assert reciprocal_rank_fusion([lexical, dense], k=10)[0][0] == "both"
    weighted = reciprocal_rank_fusion([lexical, dense], k=10, weights=[1.0, 3.0])
    assert weighted[0] == ("dense", 3 / 11) and weighted[1] == ("both", 1 / 11 + 3 / 18)
    for bad in ([1.0], [1.0, -1.0]):
        with pytest.raises(ValueError, match="one weight of at least 0 per ranking"):
            reciprocal_rank_fusion([lexical, dense], weights=bad)


rankings = st.lists(st.lists(st.integers(0, 25), unique=True, max_size=15), min_size=1, max_size=4)


@settings(max_examples=200, deadline=None)
@given(rankings, st.integers(0, 100))
def test_fusion_orders_by_the_sum_of_reciprocal_ranks(lists: list[list[int]], k: int) -> None:
    fused = reciprocal_rank_fusion(lists, k=k)
    items = [item for item, _ in fused]
    assert sorted(items) == sorted({i for ranking in lists for i in ranking})
    scores = [score for _, score in fused]
    assert scores == sorted(scores, reverse=True)
    for item, score in fused:
        assert score == pytest.approx(sum(1 / (k + r.index(item) + 1) for r in lists if item in r))
    # An item ahead of another in every ranking that holds the other comes first.
    place = {item: n for n, item in enumerate(items)}
    for a in items:
        for b in items:
            if a != b and all(a in r and r.index(a) < r.index(b) for r in lists if b in r):
                assert place[a] < place[b]
    # One ranking is given back in its own order; the rankings' order changes no score.
    assert [i for i, _ in reciprocal_rank_fusion(lists[:1], k=k)] == lists[0]
    flipped = dict(reciprocal_rank_fusion(lists[::-1], k=k))
    assert {i: pytest.approx(s) for i, s in fused} == flipped
