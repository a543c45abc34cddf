"""Writing an output whole or not at all: into a temporary file beside it, renamed over it
once complete. A write that fails (a full disk, a read-only folder, a stop) leaves the old
file, or none, never half of one, and says so in one line naming the path."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from medhalbench._errors import DataError


def _unwritable(path: Path, ex: OSError, *, written: bool = True) -> DataError:
    """One line naming the path that could not be written, and why."""
    left = "; nothing half-written is left" if written else ""
    return DataError(f"cannot write it ({ex.strerror or ex}){left}", path=str(path))


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary path beside `path` to write to (by any writer: pandas, pyarrow, ...);
    it replaces `path` when the block ends without error, and is removed otherwise.

    Raises:
        DataError: The folder cannot be written, or the disk is full, naming `path`.
    """
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".part", dir=target.parent
        )
        os.close(handle)
    except OSError as ex:
        raise _unwritable(target, ex, written=False) from None
    temporary = Path(name)
    try:
        yield temporary
        os.replace(temporary, target)
    except OSError as ex:
        raise _unwritable(target, ex) from None
    finally:
        temporary.unlink(missing_ok=True)


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


def write_text_atomically(path: str | Path, text: str) -> None:
    """`Path.write_text`, whole or not at all."""
    with atomic_text(path) as f:
        f.write(text)
