"""Writing an output whole or not at all: into a temporary file beside it, renamed over it
once complete. A write that fails (a full disk, a read-only folder, a stop) leaves the old
file, or none, never half of one, and says so in one line naming the path. A file of text
passes the redactor before it is renamed, whoever wrote it (the write boundary)."""

from __future__ import annotations

import contextlib
import csv
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from medhalbench._errors import DataError
from medhalbench._secrets import redact_file


def _unwritable(path: Path, ex: OSError, *, written: bool = True) -> DataError:
    """One line naming the path that could not be written, and why."""
    left = "; nothing half-written is left" if written else ""
    return DataError(f"cannot write it ({ex.strerror or ex}){left}", path=str(path))


@contextlib.contextmanager
def atomic_path(path: str | Path, *, binary: bool = False) -> Iterator[Path]:
    """A temporary path beside `path` to write to (by any writer: pandas, pyarrow, ...);
    it replaces `path` (redacted, unless `binary`) when the block ends without error, and
    is removed otherwise.

    Raises:
        DataError: The folder cannot be written, or the disk is full, naming `path`.
    """
    with atomic_paths([path], binary=binary) as [temporary]:
        yield temporary


@contextlib.contextmanager
def atomic_paths(paths: Sequence[str | Path], *, binary: bool = False) -> Iterator[list[Path]]:
    """Temporary paths beside each of `paths` to write to: they replace all of `paths`
    (each redacted, unless `binary`) when the block ends without error, and are all
    removed otherwise (a set of files, such as a report's CSV tables, is written whole or
    not at all).

    Raises:
        DataError: A folder cannot be written, or the disk is full, naming the file (or,
            when the error names none of them, the folder of the first).
    """
    targets = [Path(p) for p in paths]
    temporaries: list[Path] = []
    try:
        try:
            temporaries.extend(_temporary_beside(target) for target in targets)
        except OSError as ex:
            raise _unwritable(_culprit(ex, targets, temporaries), ex, written=False) from None
        try:
            yield list(temporaries)
            if not binary:
                for temporary in temporaries:
                    redact_file(temporary)
            # Every file is whole before the first is renamed: a failure above leaves none.
            for temporary, target in zip(temporaries, targets, strict=True):
                os.replace(temporary, target)
        except OSError as ex:
            raise _unwritable(_culprit(ex, targets, temporaries), ex) from None
    finally:
        for temporary in temporaries:
            temporary.unlink(missing_ok=True)


def _temporary_beside(target: Path) -> Path:
    """A new empty file in `target`'s folder (made if missing), to be renamed over it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(handle)
    return Path(name)


def _culprit(ex: OSError, targets: list[Path], temporaries: list[Path]) -> Path:
    """The target an error is about: the one whose temporary (or itself) it names, else the
    next one to be made, else the folder of the first."""
    named = {str(t): target for t, target in zip(temporaries, targets, strict=False)}
    named.update({str(target): target for target in targets})
    if ex.filename is not None and str(ex.filename) in named:
        return named[str(ex.filename)]
    if len(temporaries) < len(targets):
        return targets[len(temporaries)]
    return targets[0].parent if len(targets) > 1 else targets[0]


@contextlib.contextmanager
def atomic_text(path: str | Path, *, newline: str | None = None) -> Iterator[IO[str]]:
    """A text file (UTF-8) written whole or not at all (see `atomic_path`)."""
    with atomic_path(path) as temporary:
        try:
            with temporary.open("w", encoding="utf-8", newline=newline) as f:
                yield f
                f.flush()
                os.fsync(f.fileno())
        except OSError as ex:
            raise _unwritable(Path(path), ex) from None


def write_csv(path: str | Path, columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> None:
    """A CSV file (Python's csv module's dialect) of `columns`, one line per row (a column a
    row lacks is left empty, and a key it holds beyond them left out), written whole or not
    at all."""
    with atomic_text(path, newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


def write_text_atomically(path: str | Path, text: str) -> None:
    """`Path.write_text`, whole or not at all, and without a known secret (a name or a
    note a server echoed a key into is written redacted)."""
    with atomic_text(path) as f:
        f.write(text)
