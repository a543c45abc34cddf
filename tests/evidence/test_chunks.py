"""Passages: windows of words that overlap as asked, cover every word, and keep offsets that
give each passage back from its document."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medhalbench.evidence import Document, chunk_document, passage_windows


def test_a_short_document_is_one_passage_with_its_offsets() -> None:
    text = "  Metformin lowers hepatic glucose output.\n"
    [passage] = chunk_document(Document("m", text, "Metformin"), size=100, overlap=20)
    assert passage.id == "m#0" and passage.source_id == "m" and passage.title == "Metformin"
    assert (passage.start, passage.end) == (2, len(text) - 1)
    assert text[passage.start : passage.end] == passage.text == text.strip()


def test_long_documents_are_cut_into_overlapping_passages() -> None:
    words = [f"w{i}" for i in range(250)]
    text = " ".join(words)
    passages = chunk_document(Document("d", text), size=100, overlap=20)
    assert [p.text.split()[0] for p in passages] == ["w0", "w80", "w160"]
    assert [len(p.text.split()) for p in passages] == [100, 100, 90]
    for a, b in zip(passages, passages[1:], strict=False):
        assert a.text.split()[-20:] == b.text.split()[:20]  # 20 words shared
    assert [p.id for p in passages] == ["d#0", "d#1", "d#2"]


def test_a_tail_of_a_few_new_words_joins_the_passage_before() -> None:
    assert passage_windows(101, 100, 20) == [(0, 101)]
    assert passage_windows(150, 100, 20) == [(0, 100), (80, 150)]
    assert passage_windows(0, 100, 20) == []


@pytest.mark.parametrize("size,overlap", [(0, 0), (10, 10), (10, -1)])
def test_impossible_windows_are_refused(size: int, overlap: int) -> None:
    with pytest.raises(ValueError, match="cannot overlap"):
        passage_windows(50, size, overlap)


@settings(max_examples=150, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from("ab é\n\t.,"), max_size=400),
    size=st.integers(1, 30),
    overlap_share=st.floats(0, 0.9),
)
def test_offsets_give_each_passage_back_and_every_word_is_in_one(
    text: str, size: int, overlap_share: float
) -> None:
    overlap = min(size - 1, int(size * overlap_share))
    passages = chunk_document(Document("x", text), size=size, overlap=overlap)
    spans = [m.span() for m in re.finditer(r"\S+", text)]
    for passage in passages:
        assert text[passage.start : passage.end] == passage.text
        assert passage.text == passage.text.strip()
    covered = {s for p in passages for s in spans if p.start <= s[0] and s[1] <= p.end}
    assert covered == set(spans)
    assert all(len(p.text.split()) <= size + (size - overlap) for p in passages)
