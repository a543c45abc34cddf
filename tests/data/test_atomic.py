"""Outputs are written whole or not at all: a write that fails (a full disk here) leaves the
old file, or none, never half of one, and is one line naming the path."""

from __future__ import annotations

import errno
from pathlib import Path

import pandas as pd
import pytest

from medhalbench import DataError
from medhalbench.data import _atomic, atomic_paths, atomic_text, write_csv, write_text_atomically


class FullDisk:
    """A file object that takes `room` characters, then fails as a full disk does."""

    def __init__(self, inner: object, room: int) -> None:
        self.inner, self.room = inner, room

    def write(self, text: str) -> int:
        self.room -= len(text)
        if self.room < 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        return self.inner.write(text)  # type: ignore[attr-defined]


def test_a_write_that_fails_leaves_the_old_file_and_no_part(tmp_path: Path) -> None:
    target = tmp_path / "kept.csv"
    target.write_text("the old file\n")
    with pytest.raises(DataError) as failed:
        with atomic_text(target) as f:
            full = FullDisk(f, room=10)
            for row in range(100):
                full.write(f"row {row}\n")
    assert str(target) in str(failed.value) and "No space left" in str(failed.value)
    assert target.read_text() == "the old file\n"
    assert [p.name for p in tmp_path.iterdir()] == ["kept.csv"]  # no temporary file left


def test_a_stopped_write_leaves_nothing_new(tmp_path: Path) -> None:
    target = tmp_path / "new.jsonl"
    with pytest.raises(KeyboardInterrupt), atomic_text(target) as f:
        f.write("half")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    write_text_atomically(target, "whole\n")
    assert target.read_text() == "whole\n" and len(list(tmp_path.iterdir())) == 1


def test_dahl_filter_on_a_full_disk_writes_no_half_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import csv

    from medhalbench.dahl.builder import _filters

    questions = tmp_path / "questions.csv"
    questions.write_text(
        "question,category\n" + "".join(f"What is drug {i}?,cardiology\n" for i in range(2000))
    )
    real = csv.DictWriter

    class Filling(real):  # type: ignore[misc,valid-type]
        written = 0

        def writerow(self, row: dict[str, object]) -> object:
            Filling.written += 1
            if Filling.written > 50:
                raise OSError(errno.ENOSPC, "No space left on device")
            return super().writerow(row)

        def writerows(self, rows: object) -> None:
            for row in rows:  # type: ignore[attr-defined]
                self.writerow(row)

    monkeypatch.setattr(_atomic.csv, "DictWriter", Filling)
    with pytest.raises(DataError, match="No space left"):
        _filters.filter_questions(
            _filters.FilterRequest(questions=str(questions), out=str(tmp_path / "kept.csv"))
        )
    assert not (tmp_path / "kept.csv").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


KEY = "sk-ATOMICq8Zx41vN0cKe3xWm7"


def _written_by(writer: str, target: Path) -> None:
    text = f'{{"model_a": "openai-api/{KEY}/m"}}'
    if writer == "write_text_atomically":
        write_text_atomically(target, text)
    elif writer == "write_csv":
        write_csv(target, ["question"], [{"question": f"Which {KEY} is it?"}])
    elif writer == "atomic_text":
        with atomic_text(target) as f:
            f.write(text[:20])
            f.write(text[20:])  # the key cut across two writes
    else:  # any writer of its own (pandas here) given a path
        with atomic_paths([target]) as [part]:
            pd.DataFrame({"name": [KEY]}).to_csv(part, index=False)


@pytest.mark.parametrize("writer", ["write_text_atomically", "write_csv", "atomic_text", "pandas"])
def test_text_written_holds_no_known_secret(
    writer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every text file we write passes the redactor, whoever writes it: an export whose
    names a server echoed a key into, a question that quotes one (a filter's kept file)."""
    monkeypatch.setenv("ATOMIC_API_KEY", KEY)  # known by its source
    target = tmp_path / "out.csv"
    _written_by(writer, target)
    assert KEY[3:15] not in target.read_text() and "[redacted]" in target.read_text()
