"""Reading full-text papers: a folder of text files, or JSONL with id, title and text."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

from pydantic import Field

from medhalbench._errors import DataError
from medhalbench.data import AS_TEXT, Record, read_records


class Paper(Record):
    """A full-text paper."""

    id: Annotated[str, AS_TEXT] = Field(min_length=1)  # a JSONL id may be a number
    text: str = Field(min_length=1)
    title: str | None = None


def _natural_key(path: Path) -> tuple[str, int]:
    number = re.findall(r"\d+", path.stem)
    return (re.sub(r"\d+", "", path.stem), int(number[-1]) if number else -1)


def load_papers(
    source: str | Path, *, limit: int | None = None, unreadable: list[str] | None = None
) -> list[Paper]:
    """Load papers.

    Args:
        source: A folder of `.txt` files (the id is the file name without `.txt`, e.g.
            SumPubMed's `text_12`), or a JSONL file with `id`, `text` and optional `title`.
        limit: Keep the first N papers (folders are read in natural order: text_2 before text_10).
        unreadable: Collects the files left out because they are not UTF-8 text (binary
            files among them); they count towards `limit`.

    Raises:
        DataError: Missing folder, no papers, an empty paper or a bad JSONL line.
    """
    path = Path(source)
    papers: list[Paper] = []
    if path.is_dir():
        files = sorted(path.glob("*.txt"), key=_natural_key)
        if not files:
            raise DataError("folder holds no .txt papers", path=path)
        for file in files[:limit]:
            data = file.read_bytes()
            try:
                if b"\x00" in data:
                    raise UnicodeDecodeError("utf-8", data, data.index(b"\x00"), 0, "NUL byte")
                text = data.decode("utf-8").strip()
            except UnicodeDecodeError:
                if unreadable is not None:
                    unreadable.append(file.name)
                continue
            if not text:
                raise DataError("paper is empty", path=file)
            papers.append(Paper(id=file.stem, text=text))
        if not papers:
            raise DataError("no paper there is UTF-8 text", path=path)
        return papers
    return [paper for _, paper in read_records(Paper, path, limit=limit)]
