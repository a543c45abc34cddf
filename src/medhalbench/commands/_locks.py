"""Locks on what a command resumes: a log being retried, a suite's log folder. A second
command on the same log or folder stops at once and says which process holds it; a lock
left by a process that died (kill -9, a power cut) is stale and taken over.

A lock is an advisory `flock` on a small file beside what it guards (`.NAME.lock`), which
the kernel releases when its holder dies, however it dies; the file names its holders (pid,
command, start) for the message. A suite holds its folder alone; retries hold it shared
(two retries of different logs in one folder may run at once, not beside a suite).
"""

from __future__ import annotations

import contextlib
import datetime
import errno
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from medhalbench._errors import MedhalbenchError
from medhalbench._secrets import redact

try:  # POSIX; elsewhere commands run without locks
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

FOLDER_LOCK = ".medhalbench.lock"
"""The lock file of a log folder."""

Mode = Literal["alone", "shared"]


class Busy(MedhalbenchError):
    """What a command needs is held by another process."""


@dataclass(frozen=True)
class Holder:
    """A process holding a lock, as its lock file names it."""

    pid: int
    command: str
    since: str

    def alive(self) -> bool:
        """Whether the process still runs (a pid that ended is a stale entry)."""
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True  # someone else's process
        return True

    def describe(self) -> str:
        return f"pid {self.pid} ({self.command[:80]}, since {self.since})"


def lock_path(target: str | Path) -> Path:
    """The lock file of a log (`.NAME.lock` beside it) or of a folder (inside it)."""
    path = Path(target)
    if path.is_dir():
        return path / FOLDER_LOCK
    return path.parent / f".{path.name}.lock"


def _holders(path: Path) -> list[Holder]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    found = []
    for line in text.splitlines():
        pid, _, rest = line.partition("\t")
        command, _, since = rest.rpartition("\t")
        if pid.isdigit():
            found.append(Holder(int(pid), command, since))
    return found


def _entry() -> str:
    # The command line may hold a key (`-M api_key=...`): the lock file is read by others.
    command = redact(" ".join(["medhalbench", *sys.argv[1:]])).replace("\t", " ").replace("\n", " ")
    since = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    return f"{os.getpid()}\t{command[:200]}\t{since}\n"


@contextlib.contextmanager
def locked(target: str | Path, *, what: str, mode: Mode = "alone") -> Iterator[None]:
    """Hold the lock of a log or folder while the block runs.

    Args:
        target: The log file or the folder.
        what: What it is, for the message ("the log", "the suite's folder").
        mode: `alone` (nothing else may hold it) or `shared` (others holding it shared may
            too).

    Raises:
        Busy: Another process holds it: names the process (pid, command, start).
    """
    if fcntl is None:
        yield
        return
    path = lock_path(target)
    while True:
        handle = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            fcntl.flock(
                handle, (fcntl.LOCK_EX if mode == "alone" else fcntl.LOCK_SH) | fcntl.LOCK_NB
            )
        except OSError as ex:
            os.close(handle)
            if ex.errno not in (errno.EWOULDBLOCK, errno.EACCES, errno.EAGAIN):
                raise
            holders = [h for h in _holders(path) if h.alive() and h.pid != os.getpid()]
            who = "; ".join(h.describe() for h in holders[:2]) or "another process"
            raise Busy(
                f"{what} {target} is in use by {who}: wait for it to finish, or stop it "
                "(two commands resuming one run would both do the work)"
            ) from None
        # The file may have been removed by its last holder between our open and our lock.
        try:
            same = os.path.samestat(os.fstat(handle), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(handle)
    try:
        if mode == "alone":
            os.ftruncate(handle, 0)  # entries of holders that died are stale
        # Shared holders append; entries of holders that ended are passed over when read.
        os.write(handle, _entry().encode())
        yield
    finally:
        with contextlib.suppress(OSError):
            if mode == "alone":
                path.unlink()
            os.close(handle)
