"""Index folders: built from every corpus layout, loaded memory-mapped, searched; the BM25
scores are bm25s's own; a build that fails leaves nothing behind."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from corpora import (
    DOCUMENTS,
    write_csv,
    write_jsonl,
    write_medhallu,
    write_pubmedqa,
    write_sumpubmed,
    write_txt_folder,
)

from medhalbench._errors import DataError
from medhalbench.evidence import (
    PassageIndex,
    build_index,
    corpus_kind,
    open_retriever,
    read_documents,
)
from medhalbench.settings import IndexSettings

LAYOUTS: dict[str, tuple[Callable[[Path], Path], str, set[str]]] = {
    "jsonl": (lambda t: write_jsonl(t / "c.jsonl"), "rows", set(DOCUMENTS)),
    "beir": (lambda t: write_jsonl(t / "c.jsonl", id_field="_id"), "rows", set(DOCUMENTS)),
    "pyserini": (
        lambda t: write_jsonl(t / "c.jsonl", text_field="contents"), "rows", set(DOCUMENTS)
    ),
    "csv": (lambda t: write_csv(t / "c.csv"), "rows", set(DOCUMENTS)),
    "txt": (
        lambda t: write_txt_folder(t / "texts"), "txt",
        {"loop-diuretics", "nested/metformin", "vaccines", "nested/lung-cancer"},
    ),
    "pubmedqa": (lambda t: write_pubmedqa(t / "ori_pqal.json"), "pubmedqa", {"10000", "10001", "10002", "10003"}),
    "sumpubmed": (lambda t: write_sumpubmed(t / "sumpubmed"), "sumpubmed", {f"text_{n}" for n in range(1, 5)}),
    "medhallu": (lambda t: write_medhallu(t / "rows.jsonl"), "medhallu", {"p0", "p1", "p2", "p3"}),
}  # fmt: skip


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_each_corpus_layout_is_indexed_and_searched(tmp_path: Path, layout: str) -> None:
    write, kind, ids = LAYOUTS[layout]
    corpus = write(tmp_path)
    assert corpus_kind(corpus) == kind
    manifest = build_index([corpus], tmp_path / "index", progress=False)
    assert manifest.documents == 4 and manifest.passages == 4
    index = PassageIndex(tmp_path / "index")
    assert {index.passage(i).source_id for i in range(len(index))} == ids
    [[(best, score)]] = index.search(["Which cotransporter does furosemide inhibit?"], 1)
    passage = index.passage(best)
    assert "Na-K-2Cl" in passage.text or "na-k-2cl" in passage.text
    assert score > 0
    index.close()


def test_passages_keep_offsets_into_their_document(tmp_path: Path) -> None:
    long_text = " ".join(f"word{i}" for i in range(230)) + " furosemide closes it."
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps({"id": "long", "title": "T", "text": long_text}) + "\n")
    settings = IndexSettings(passage_words=50, overlap_words=10)
    build_index([corpus], tmp_path / "index", settings, progress=False)
    index = PassageIndex(tmp_path / "index")
    passages = [index.passage(i) for i in range(len(index))]
    assert len(passages) == 6
    for passage in passages:
        assert long_text[passage.start : passage.end] == passage.text
        assert passage.source_id == "long" and passage.title == "T"
    [[(best, _)]] = index.search(["furosemide"], 1)
    assert index.passage(best).id == "long#5"


def test_the_index_loads_memory_mapped(tmp_path: Path) -> None:
    build_index([write_jsonl(tmp_path / "c.jsonl")], tmp_path / "index", progress=False)
    index = PassageIndex(tmp_path / "index")
    scores = index.bm25.scores
    assert all(isinstance(scores[k], np.memmap) for k in ("data", "indices", "indptr"))
    assert isinstance(index.offsets, np.memmap)
    manifest = json.loads((tmp_path / "index" / "manifest.json").read_text())
    assert manifest["passages"] == 4 and manifest["settings"]["passage_words"] == 100


def test_scores_equal_those_of_bm25s_own_index(tmp_path: Path) -> None:
    import bm25s

    from medhalbench.evidence._build import index_text
    from medhalbench.evidence._layout import make_tokenizer

    texts = [f"{title}\n{text}" for title, text in DOCUMENTS.values()] * 3
    texts += ["the of and", "Sodium sodium sodium chloride."]
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(
        "".join(json.dumps({"id": str(i), "text": t}) + "\n" for i, t in enumerate(texts))
    )
    build_index([corpus], tmp_path / "index", progress=False)
    ours = PassageIndex(tmp_path / "index")
    tokenizer = make_tokenizer(IndexSettings())
    ids = tokenizer.tokenize(
        [index_text(ours.passage(i)) for i in range(len(ours))], show_progress=False
    )
    theirs = bm25s.BM25(method="lucene")
    theirs.index((ids, tokenizer.get_vocab_dict()), show_progress=False)
    assert ours.tokenizer.get_vocab_dict() == tokenizer.get_vocab_dict()
    for name in ("indptr", "indices"):
        assert np.array_equal(np.asarray(ours.bm25.scores[name]), theirs.scores[name]), name
    assert np.allclose(np.asarray(ours.bm25.scores["data"]), theirs.scores["data"], rtol=1e-6)


def test_search_leaves_out_what_shares_no_word(tmp_path: Path) -> None:
    build_index([write_jsonl(tmp_path / "c.jsonl")], tmp_path / "index", progress=False)
    retriever = open_retriever(str(tmp_path / "index"))
    unknown, few = retriever.search(["zebrafish telomerase", "radon asbestos"], 10)
    assert unknown == []
    assert [h.passage.source_id for h in few] == ["lung-cancer"]
    assert few[0].rank == 1 and few[0].bm25 == few[0].score > 0


def test_a_corpus_is_indexed_for_the_run_when_given_directly(tmp_path: Path) -> None:
    corpus = write_csv(tmp_path / "c.csv")
    retriever = open_retriever(str(corpus))
    assert retriever is open_retriever(str(corpus))  # indexed once per process
    [[hit, *_]] = retriever.search(["memory B cells after vaccination"], 3)
    assert hit.passage.source_id == "vaccines"


def test_a_failed_build_leaves_no_index_and_no_scratch(tmp_path: Path) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl")
    with corpus.open("a") as f:
        f.write('{"id": "bad", "title": "no text here"}\n')
    with pytest.raises(DataError, match=r"line 5, field 'text'"):
        build_index([corpus], tmp_path / "index", progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.jsonl"]


def test_ids_must_be_unique_across_corpora(tmp_path: Path) -> None:
    a, b = write_jsonl(tmp_path / "a.jsonl"), write_csv(tmp_path / "b.csv")
    # The second place (file, line) is the error's; the first is named in it.
    with pytest.raises(DataError) as raised:
        build_index([a, b], tmp_path / "index", progress=False)
    assert str(raised.value) == (
        f"{b}, line 2: document id 'loop-diuretics' is used twice (first at {a}, line 1)"
    )
    with a.open("a") as f:
        f.write('{"id": "metformin", "text": "Again."}\n')
    with pytest.raises(DataError, match=r"a.jsonl, line 5: document id 'metformin' is used "):
        build_index([a], tmp_path / "index", progress=False)


def test_an_existing_index_is_replaced_only_when_asked(tmp_path: Path) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl")
    first = build_index([corpus], tmp_path / "index", progress=False)
    # The same corpora and settings: the index is kept, nothing is rebuilt.
    said: list[str] = []
    assert build_index([corpus], tmp_path / "index", progress=False, say=said.append) == first
    assert said == ["the index of the same corpora and settings is kept: already built"]
    with pytest.raises(DataError, match="already holds an index"):
        build_index([write_csv(tmp_path / "c.csv")], tmp_path / "index", progress=False)
    settings = IndexSettings(passage_words=10, overlap_words=2)
    with pytest.raises(DataError, match="already holds an index"):
        build_index([corpus], tmp_path / "index", settings, progress=False)
    manifest = build_index([corpus], tmp_path / "index", settings, overwrite=True, progress=False)
    assert manifest.passages > 4 and PassageIndex(tmp_path / "index").manifest == manifest
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "keep.txt").write_text("mine")
    with pytest.raises(DataError, match="not empty and holds no index"):
        build_index([corpus], tmp_path / "other", overwrite=True, progress=False)


def test_a_damaged_index_is_named(tmp_path: Path) -> None:
    build_index([write_jsonl(tmp_path / "c.jsonl")], tmp_path / "index", progress=False)
    (tmp_path / "index" / "passages.offsets.npy").unlink()
    with pytest.raises(DataError, match=r"incomplete index \(passages.offsets.npy missing\)"):
        PassageIndex(tmp_path / "index")


def test_documents_without_text_are_counted_not_indexed(tmp_path: Path) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl")
    with corpus.open("a") as f:
        f.write('{"id": "empty", "title": "Nothing", "text": "   "}\n')
    assert [d.id for d in read_documents(corpus)][-1] == "empty"
    manifest = build_index([corpus], tmp_path / "index", progress=False)
    assert manifest.documents == 4
    assert manifest.notes == [f"{corpus}: 1 document(s) without text left out"]


def test_a_corpus_that_quotes_a_known_key_is_indexed_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every file of an index (passages, vocabulary, scores: some written by bm25s) is
    made from the corpus as read without a known secret, in any of its forms."""
    key = "sk-CORPUSq8Zx41vN0cKe3xWm7"
    monkeypatch.setenv("CORPUS_API_KEY", key)
    corpus = tmp_path / "c.jsonl"
    rows = [
        {"id": "d1", "title": base64.b64encode(key.encode()).decode(), "text": f"key {key} here"},
        {"id": "d2", "text": "Insulin lowers blood glucose."},
    ]
    corpus.write_text("".join(json.dumps(row) + "\n" for row in rows))
    build_index([corpus], tmp_path / "index", progress=False)
    written = b"".join(p.read_bytes() for p in (tmp_path / "index").rglob("*") if p.is_file())
    assert key[3:15].lower().encode() not in written.lower()
    assert base64.b64encode(key.encode())[4:16] not in written
