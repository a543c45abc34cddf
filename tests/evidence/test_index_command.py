"""`medhalbench index`: builds an index from corpora; a corpus it cannot read, or a folder it
cannot write, ends in one line naming the culprit, exit code 2, and no index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from corpora import write_csv, write_jsonl, write_sumpubmed, write_txt_folder

from medhalbench.cli import cli
from medhalbench.evidence import PassageIndex


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["index", *args])
    return result.exit_code, result.stdout, result.stderr


def test_index_builds_one_index_from_several_corpora(tmp_path: Path) -> None:
    jsonl = write_jsonl(tmp_path / "c.jsonl")
    folder = write_sumpubmed(tmp_path / "sumpubmed")
    code, out, err = run(str(jsonl), str(folder), "--out", str(tmp_path / "idx"), "--no-progress")
    assert code == 0, err
    assert "Indexed 8 passages of 8 documents" in out
    index = PassageIndex(tmp_path / "idx")
    assert {index.passage(i).source_id for i in range(len(index))} >= {"metformin", "text_2"}
    assert index.manifest.sources == [str(jsonl), str(folder)]


def test_settings_come_from_the_options(tmp_path: Path) -> None:
    corpus = write_csv(tmp_path / "c.csv")
    out = tmp_path / "idx"
    code, _, err = run(
        str(corpus), "--out", str(out), "--passage-words", "12", "--overlap-words", "4",
        "--stemmer", "none", "--stopwords", "none", "--no-progress",
    )  # fmt: skip
    assert code == 0, err
    settings = json.loads((out / "manifest.json").read_text())["settings"]
    assert settings["passage_words"] == 12 and settings["stemmer"] == "none"
    assert PassageIndex(out).manifest.passages > 4


def _bad_jsonl(t: Path) -> Path:
    (t / "c.jsonl").write_text('{"id": "a", "text": "fine"}\n{"id": "b", "text": \n')
    return t / "c.jsonl"


def _no_text_csv(t: Path) -> Path:
    (t / "c.csv").write_text("id,title\n1,a title\n")
    return t / "c.csv"


def _empty_folder(t: Path) -> Path:
    (t / "empty").mkdir()
    return t / "empty"


def _latin1_txt(t: Path) -> Path:
    folder = write_txt_folder(t / "texts")
    (folder / "bad.txt").write_bytes("Le café\n".encode() + "caf\xe9 au lait".encode("latin-1"))
    return folder


def _latin1_jsonl(t: Path) -> Path:
    # Past the first 64 KiB (the sniffed head): the line's own decoding finds it.
    rows = json.dumps({"id": "a", "text": "x" * 70_000}) + "\n"
    (t / "c.jsonl").write_bytes(rows.encode() + b'{"id": "b", "text": "caf\xe9"}\n')
    return t / "c.jsonl"


def _latin1_csv(t: Path) -> Path:
    # Past the first 64 KiB too: the CSV reader decodes in blocks, the line is found again.
    text = "id,text\na," + "x" * 70_000 + "\n"
    (t / "c.csv").write_bytes(text.encode() + b"b,caf\xe9 au lait\n")
    return t / "c.csv"


def _duplicate_id(t: Path) -> Path:
    (t / "c.jsonl").write_text(
        '{"id": "a", "text": "one"}\n{"id": "b", "text": "two"}\n{"id": "a", "text": "three"}\n'
    )
    return t / "c.jsonl"


def _text_not_text(t: Path) -> Path:
    (t / "c.jsonl").write_text('{"id": "a", "text": ["a", "list"]}\n')
    return t / "c.jsonl"


BAD_CORPORA = {
    "missing": (lambda t: t / "nope.jsonl", "nope.jsonl does not exist"),
    "malformed JSONL": (_bad_jsonl, "c.jsonl, line 2: malformed JSON"),
    "no text column": (_no_text_csv, "c.csv, line 2, field 'text': no text"),
    "empty folder": (_empty_folder, "empty: the folder holds no .txt files"),
    "not UTF-8": (
        _latin1_txt,
        "bad.txt, line 2: not UTF-8 text (byte 0xe9 at character 4 of the line)",
    ),
    "not UTF-8 row": (
        _latin1_jsonl,
        "c.jsonl, line 2: not UTF-8 text (byte 0xe9 at character 25 of the line)",
    ),
    "not UTF-8 CSV": (
        _latin1_csv,
        "c.csv, line 3: not UTF-8 text (byte 0xe9 at character 6 of the line)",
    ),
    "duplicate id": (_duplicate_id, "c.jsonl, line 3: document id 'a' is used twice (first at"),
    "text of another type": (_text_not_text, "field 'text': expected text, got list"),
    "unknown type": (lambda t: t / "c.xml", "unknown corpus file type '.xml'"),
}


@pytest.mark.parametrize("case", list(BAD_CORPORA))
def test_a_bad_corpus_ends_in_one_line_and_leaves_no_index(tmp_path: Path, case: str) -> None:
    make, expected = BAD_CORPORA[case]
    corpus = make(tmp_path)
    if case == "unknown type":
        corpus.write_text("<corpus/>")
    code, out, err = run(str(corpus), "--out", str(tmp_path / "idx"), "--no-progress")
    assert code == 2, out
    [line] = err.strip().splitlines()
    assert expected in line and "Traceback" not in err
    assert not (tmp_path / "idx").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".idx")]


def test_an_index_is_no_corpus_and_is_not_overwritten_unasked(tmp_path: Path) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl")
    assert run(str(corpus), "--out", str(tmp_path / "idx"), "--no-progress")[0] == 0
    code, _, err = run(str(tmp_path / "idx"), "--out", str(tmp_path / "other"))
    assert code == 2 and "idx: is an index folder, not a corpus" in err
    code, out, err = run(str(corpus), "--out", str(tmp_path / "idx"), "--no-progress")
    assert code == 0 and "the index of the same corpora and settings is kept" in out
    other = write_csv(tmp_path / "c.csv")
    code, _, err = run(str(other), "--out", str(tmp_path / "idx"))
    assert code == 2 and "already holds an index (give --overwrite to replace it)" in err
    code, _, err = run(str(corpus), "--out", str(tmp_path / "idx"), "--overlap-words", "100")
    assert code == 2 and "--overlap-words" in err and "not below passage_words" in err
