"""Reading a corpus's documents: JSONL/JSON/CSV rows (id, title, text), a folder of .txt
files, PubMedQA's `ori_pqal.json`, SumPubMed's folder and MedHallu rows (their knowledge)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, NamedTuple, get_args

from medhalbench._errors import DataError
from medhalbench.data import line_and_column, load_pubmedqa, max_field_chars, read_rows
from medhalbench.evidence._layout import INDEX_MANIFEST
from medhalbench.evidence._records import Document

CorpusKind = Literal["rows", "txt", "pubmedqa", "sumpubmed", "medhallu"]
"""The corpus layouts read: rows of id, title, text (JSONL, JSON, CSV, Parquet); a folder
of .txt files (or one file); PubMedQA (`ori_pqal.json` or the hub's layout; each abstract's
contexts); SumPubMed's folder (its full texts); MedHallu rows (each row's knowledge)."""
CORPUS_KINDS: tuple[str, ...] = get_args(CorpusKind)

ID_FIELDS = ("id", "_id", "docid", "doc_id", "pmid", "pubid")
"""Fields that may hold a row's id (`_id`: BEIR's corpus.jsonl)."""
TEXT_FIELDS = ("text", "contents", "abstract", "body")
"""Fields that may hold a row's text (`contents`: Pyserini's JSONL)."""
TITLE_FIELDS = ("title",)
ROW_SUFFIXES = (".jsonl", ".ndjson", ".json", ".csv", ".parquet")


class Located(NamedTuple):
    """A document and where it was read: the file, and its line (or entry) in it where the
    file holds several."""

    file: Path
    line: int | str | None
    document: Document

    def place(self) -> str:
        """Where it was read, as an error names it (`corpus.jsonl, line 3`)."""
        return (
            f"{self.file}, line {self.line}"
            if isinstance(self.line, int)
            else (f"{self.file}, {self.line}" if self.line else str(self.file))
        )


def _first(row: dict[str, Any], names: tuple[str, ...]) -> tuple[str, Any] | None:
    lowered = {str(k).lower(): k for k in row}
    for name in names:
        if name in lowered:
            return lowered[name], row[lowered[name]]
    return None


def _is_sumpubmed(folder: Path) -> bool:
    return (folder / "text").is_dir() and (folder / "abstract").is_dir()


def corpus_kind(path: str | Path) -> CorpusKind:
    """The layout of a corpus, from the path and, for rows, the first row's fields.

    Raises:
        DataError: No such path, an index folder (not a corpus), or a file of no known kind.
    """
    source = Path(path)
    if not source.exists():
        raise DataError("no such file or folder", path=path)
    if source.is_dir():
        if (source / INDEX_MANIFEST).is_file():
            raise DataError("is an index folder, not a corpus", path=path)
        return "sumpubmed" if _is_sumpubmed(source) else "txt"
    suffix = source.suffix.lower()
    if suffix == ".txt":
        return "txt"
    if suffix not in ROW_SUFFIXES:
        raise DataError(
            f"unknown corpus file type '{suffix}' (expected {', '.join(ROW_SUFFIXES)}, .txt, "
            "a folder of .txt files, SumPubMed's folder or an index folder)",
            path=path,
        )
    _, first = next(read_rows(source))
    keys = {str(k).lower() for k in first}
    if {"contexts", "question"} <= keys or {"context", "question"} <= keys:
        return "pubmedqa"
    if {"knowledge", "question"} <= keys:
        return "medhallu"
    return "rows"


def _row_documents(path: Path) -> Iterator[Located]:
    for line, row in read_rows(path):
        found_id = _first(row, ID_FIELDS)
        if found_id is None or found_id[1] is None or not str(found_id[1]).strip():
            raise DataError(
                f"no document id (a corpus row holds one of {', '.join(ID_FIELDS)}, a title "
                f"and a text: {', '.join(TEXT_FIELDS)})",
                path=path, line=line, field="id",
            )  # fmt: skip
        found_text = _first(row, TEXT_FIELDS)
        if found_text is None:
            raise DataError(
                f"no text (a corpus row holds its text in one of {', '.join(TEXT_FIELDS)})",
                path=path, line=line, field="text",
            )  # fmt: skip
        text, title = found_text[1], (_first(row, TITLE_FIELDS) or ("", ""))[1]
        if text is not None and not isinstance(text, str):
            raise DataError(
                f"expected text, got {type(text).__name__}", path=path, line=line,
                field=found_text[0],
            )  # fmt: skip
        yield Located(path, line, Document(str(found_id[1]).strip(), text or "", str(title or "")))


def _pubmedqa_documents(path: Path) -> Iterator[Located]:
    # The question is left out: PubMedQA's questions are their articles' titles, and a
    # title in the index would hand the retriever its query.
    for record in load_pubmedqa(path):
        yield Located(path, f"entry '{record.pubid}'", Document(record.pubid, record.context_text))


def _medhallu_documents(path: Path) -> Iterator[Located]:
    for line, row in read_rows(path):
        found = _first(row, ("knowledge",))
        knowledge = found[1] if found else None
        if isinstance(knowledge, list):
            knowledge = "\n".join(str(k) for k in knowledge if k)
        if not isinstance(knowledge, str):
            raise DataError("expected the row's knowledge as text", path=path, line=line,
                            field="Knowledge")  # fmt: skip
        found_id = _first(row, ("pubid", "id"))
        document = Document(str(found_id[1]) if found_id else f"row-{line}", knowledge)
        yield Located(path, line, document)


def _text_file(file: Path, root: Path) -> Located:
    size = file.stat().st_size
    if size > 4 * max_field_chars():
        raise DataError(
            f"the file is {size:,} bytes, more than the limit of {4 * max_field_chars():,} "
            "(set MEDHALBENCH_MAX_FIELD_CHARS to raise it)",
            path=file,
        )
    raw = file.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as ex:
        line, column = line_and_column(raw, ex.start)
        raise DataError(
            f"not UTF-8 text (byte 0x{raw[ex.start]:02x} at character {column} of the line); "
            "save the file as UTF-8",
            path=file,
            line=line,
        ) from None
    return Located(file, None, Document(file.relative_to(root).with_suffix("").as_posix(), text))


def _txt_documents(path: Path) -> Iterator[Located]:
    if path.is_file():
        yield _text_file(path, path.parent)
        return
    files = sorted(p for p in path.rglob("*.txt") if p.is_file())
    if not files:
        raise DataError("the folder holds no .txt files", path=path)
    for file in files:
        yield _text_file(file, path)


def _sumpubmed_documents(path: Path) -> Iterator[Located]:
    # The full texts; the abstracts and shorter abstracts summarise them (duplicates).
    yield from _txt_documents(path / "text")


_READERS = {
    "rows": _row_documents,
    "txt": _txt_documents,
    "pubmedqa": _pubmedqa_documents,
    "sumpubmed": _sumpubmed_documents,
    "medhallu": _medhallu_documents,
}


def located_documents(path: str | Path) -> Iterator[Located]:
    """The documents of a corpus, in order, each with the file and line it was read from.

    Raises:
        DataError: As `read_documents`.
    """
    kind = corpus_kind(path)
    yield from _READERS[kind](Path(path))


def read_documents(path: str | Path) -> Iterator[Document]:
    """The documents of a corpus, in order (see `CorpusKind` for the layouts read).

    Raises:
        DataError: A missing or unreadable corpus, a row without id or text (naming file,
            line and field), a file that is not UTF-8 (naming the line and the character
            in it).
    """
    for found in located_documents(path):
        yield found.document
