"""Retrievers besides BM25: dense re-ranking with the real offline MiniLM model, and a search
engine plugged in by name through the Retriever protocol."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from corpora import write_jsonl

from medhalbench._errors import DataError
from medhalbench.evidence import (
    DenseReranker,
    Passage,
    RetrievedPassage,
    build_index,
    open_retriever,
    register_retriever,
)


def test_minilm_reranks_bm25_candidates_by_meaning(tmp_path: Path) -> None:
    build_index([write_jsonl(tmp_path / "c.jsonl")], tmp_path / "index", progress=False)
    retriever = open_retriever(str(tmp_path / "index"), rerank=True)
    assert isinstance(retriever, DenseReranker)
    assert retriever.name.startswith(f"bm25:{tmp_path / 'index'} reranked by all-MiniLM-L6-v2")
    # "cancer" and "smoking" share words with one passage; the question means the lung one.
    [found] = retriever.search(["Does tobacco smoking cause lung cancer?"], 4)
    assert found[0].passage.source_id == "lung-cancer"
    assert [h.rank for h in found] == list(range(1, len(found) + 1))
    dense = [h.dense for h in found]
    assert all(d is not None and -1 <= d <= 1 for d in dense)
    assert dense == sorted(dense, reverse=True) and found[0].score == dense[0]
    assert all(h.bm25 is not None and h.bm25 > 0 for h in found)


class FakeEngine:
    """A search engine holding documents of its own (as Elasticsearch would)."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.asked: list[str] = []

    @property
    def name(self) -> str:
        return f"fake:{self.address}"

    def search(self, queries: Sequence[str], k: int) -> list[list[RetrievedPassage]]:
        self.asked += queries
        text = "Loop diuretics act in the thick ascending limb."
        passage = Passage(id="doc-1#0", source_id="doc-1", text=text, start=0, end=len(text))
        return [[RetrievedPassage(passage, 12.5, 1, bm25=12.5)][:k] for _ in queries]


def test_a_registered_search_engine_is_named_by_scheme(tmp_path: Path) -> None:
    register_retriever("fake", FakeEngine)
    retriever = open_retriever("fake:pubmed-abstracts")
    assert isinstance(retriever, FakeEngine) and retriever.name == "fake:pubmed-abstracts"
    [[hit]] = retriever.search(["loop diuretics"], 5)
    assert hit.passage.source_id == "doc-1"
    register_retriever("broken", lambda address: object())  # type: ignore[arg-type,return-value]
    with pytest.raises(DataError, match="the 'broken' plug-in made object, no retriever"):
        open_retriever("broken:x")
    with pytest.raises(DataError, match="no such index, corpus or retriever; plug-in retrievers: "):
        open_retriever("nothing:here")


def test_dahl_can_check_against_a_plugged_in_engine(tmp_path: Path) -> None:
    from medhalbench.dahl import DahlPlanSettings, dahl
    from medhalbench.registry import benchmark

    register_retriever("fakeplan", FakeEngine)
    questions = tmp_path / "q.csv"
    questions.write_text("question,category\nHow do loop diuretics work?,pharmacology\n")
    task = dahl(dataset=str(questions), evidence="fakeplan:pubmed", paper_protocol=False)
    assert (task.metadata or {})["evidence_index"] == {
        "retriever": "fake:pubmed",  # as the engine names itself
        "fingerprint": "fakeplan:pubmed",
        "retrieval": None,  # the engine's own way
    }
    [_, _, checker] = benchmark("dahl").implementation.plan(
        task, {}, DahlPlanSettings(units_per_answer=2)
    )
    plain = dahl(dataset=str(questions), paper_protocol=False)
    [_, _, closed] = benchmark("dahl").implementation.plan(
        plain, {}, DahlPlanSettings(units_per_answer=2)
    )
    # A plug-in's passages cannot be sampled: 160 tokens each are assumed, 5 per unit.
    assert checker.input_tokens - closed.input_tokens > 2 * 160 * 5
