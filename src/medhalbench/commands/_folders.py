"""Output folders: checked before any work without being made, and removed again when the
command that made them is refused or stops before it wrote anything, so that a refused
command leaves nothing behind for the next command to misread."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from medhalbench.commands._locks import FOLDER_LOCK
from medhalbench.commands._models import OptionError


def writable_folder(path: str | Path, option: str) -> None:
    """Check that a folder can be written, before any work; one that does not exist yet is
    not made (its nearest existing parent must take it).

    Raises:
        OptionError: It or its nearest existing parent is a file, or cannot be written.
    """
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise OptionError(f"{option} {path}: a file is there, not a folder")
    existing = next(p for p in (folder, *folder.absolute().parents) if p.exists())
    if not existing.is_dir():
        raise OptionError(f"{option} {path}: {existing} is a file, not a folder")
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as ex:
        raise OptionError(f"{option} {path}: cannot write there ({ex.strerror or ex})") from None


def _holds_work(folder: Path) -> bool:
    """Whether a folder holds a file of work (a command's own lock file is none)."""
    return any(p.is_file() and p.name != FOLDER_LOCK for p in folder.rglob("*"))


@contextlib.contextmanager
def made_for_output(path: str | Path) -> Iterator[None]:
    """Run a command that writes into `path`; when it fails or is stopped and the folders it
    made on the way (`--out new/deeper`) hold no work, remove them again. Work already
    written is kept, and so is every folder that was there before."""
    target = Path(path).absolute()
    made = [p for p in (target, *target.parents) if not p.exists()]
    try:
        yield
    except BaseException:
        top = made[-1] if made else None
        if top is not None and top.is_dir() and not _holds_work(top):
            shutil.rmtree(top, ignore_errors=True)
        raise


@contextlib.contextmanager
def log_folder(path: str | Path | None, option: str) -> Iterator[None]:
    """Hold a log folder a command writes to (checked, made, and removed again when the
    command made it and stops before writing any work); None: the logs' own folders."""
    if path is None:
        yield
        return
    writable_folder(path, option)
    with made_for_output(path):
        Path(path).mkdir(parents=True, exist_ok=True)  # its lock is kept inside
        yield
