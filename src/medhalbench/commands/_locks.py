"""Locks on what a command resumes: a log being retried, a suite's log folder. A second
command on the same log or folder stops at once and says which process holds it; a lock
left by a process that died (kill -9, a power cut) is stale and taken over.

A lock is an OS lock (`flock`) on a small file beside what it guards (`.NAME.lock`), which
the kernel releases when its holder dies, however it dies; the file names its holders (pid,
command, start) for the message. A suite holds its folder alone; retries hold it shared
(two retries of different logs in one folder may run at once, not beside a suite).

Holding alone is filelock's `FileLock`. filelock has no kernel-released shared mode (its
`ReadWriteLock` is a SQLite database, which would live in the user's log folder, and its
`SoftReadWriteLock` a heartbeat lease that a kill -9 leaves held until it expires), so a
shared holder takes `flock`'s `LOCK_SH` on the same file itself, which `FileLock`'s
`LOCK_EX` excludes. The lock file stays when its holder ends, as filelock keeps it: a
contender may have it open, and filelock's try on a removed file fails (a false Busy).
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

from filelock import FileLock, Timeout

from medhalbench._errors import MedhalbenchError
from medhalbench._secrets import redact

try:  # POSIX; elsewhere (Windows) a shared holder holds alone, as filelock can there
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

FOLDER_LOCK = ".medhalbench.lock"
"""The lock file of a log folder."""

Mode = Literal["alone", "shared"]

# flock's answers to "held by another" (EACCES on some filesystems), as filelock reads them.
_CONTENDED = frozenset({errno.EACCES, errno.EAGAIN, errno.EWOULDBLOCK})


class Busy(MedhalbenchError):
    """What a command needs is held by another process."""


@dataclass(frozen=True)
class Holder:
    """A process holding a lock, as its lock file names it.

    Attributes:
        pid: Its process id.
        command: Its command line, redacted.
        since: When it took the lock (local time).
    """

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
        """The holder for a message: pid, command (cut short), start."""
        return f"pid {self.pid} ({self.command[:80]}, since {self.since})"


def lock_path(target: str | Path) -> Path:
    """The lock file of a log (`.NAME.lock` beside it) or of a folder (inside it).

    Args:
        target: The log file or the folder.

    Returns:
        The path of its lock file.
    """
    path = Path(target)
    if path.is_dir():
        return path / FOLDER_LOCK
    return path.parent / f".{path.name}.lock"


def _holders(path: Path) -> list[Holder]:
    """The holders a lock file names, stale ones included."""
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


def _entry() -> bytes:
    """This process's line in a lock file: pid, command, start, tab-separated."""
    # The command line may hold a key (`-M api_key=...`): the lock file is read by others.
    command = redact(" ".join(["medhalbench", *sys.argv[1:]])).replace("\t", " ").replace("\n", " ")
    since = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    return f"{os.getpid()}\t{command[:200]}\t{since}\n".encode()


@contextlib.contextmanager
def _alone(path: Path) -> Iterator[None]:
    """Hold `path` exclusively, naming this process in it.

    Raises:
        Timeout: Another process holds it (in either mode).
    """
    held: list[int] = []

    def claim(fd: int) -> None:
        # The only holder now: entries left are of holders that ended or died.
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, _entry())
        held.append(fd)

    # on_acquired also rules out filelock's fallback to a soft lock where flock is missing,
    # which a kill -9 would leave held.
    with FileLock(path, blocking=False, on_acquired=claim):
        try:
            yield
        finally:
            for fd in held:  # ended: the file names no one
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, 0)


@contextlib.contextmanager
def _shared(path: Path) -> Iterator[None]:
    """Hold `path` beside other shared holders, naming this process in it.

    Raises:
        Timeout: Another process holds it alone.
    """
    flags = os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
    handle = os.open(path, flags, 0o666)  # as FileLock makes it: the umask decides
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError as ex:
            if ex.errno not in _CONTENDED:
                raise
            raise Timeout(str(path)) from None
        # Appended beside the other shared holders'; the next holder alone clears them.
        os.write(handle, _entry())
        yield
    finally:
        os.close(handle)  # closing releases the flock


@contextlib.contextmanager
def locked(target: str | Path, *, what: str, mode: Mode = "alone") -> Iterator[None]:
    """Hold the lock of a log or folder while the block runs.

    Args:
        target: The log file or the folder.
        what: What it is, for the message ("the log", "the suite's folder").
        mode: `alone` (nothing else may hold it) or `shared` (others holding it shared may
            too).

    Yields:
        Nothing; the lock is held until the block ends.

    Raises:
        Busy: Another process holds it: names the process (pid, command, start).
    """
    path = lock_path(target)
    hold = _shared(path) if mode == "shared" and fcntl is not None else _alone(path)
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(hold)
        except Timeout:
            holders = [h for h in _holders(path) if h.alive() and h.pid != os.getpid()]
            who = "; ".join(h.describe() for h in holders[:2]) or "another process"
            raise Busy(
                f"{what} {target} is in use by {who}: wait for it to finish, or stop it "
                "(two commands resuming one run would both do the work)"
            ) from None
        yield
