"""Locks on what a command resumes: a log being retried, a suite's log folder. A second
command on the same log or folder stops at once and says which process holds it; a lock
left by a process that died (kill -9, a power cut) is stale and taken over.

A lock is an OS lock (portalocker's, `flock` on POSIX) on a small file beside what it guards
(`.NAME.lock`), which the kernel releases when its holder dies, however it dies; the file
names its holders (pid, command, start) for the message. A suite holds its folder alone (an
exclusive lock); retries hold it shared (a shared lock: two retries of different logs in one
folder may run at once, not beside a suite). The lock file stays when its holder ends: a
contender may have it open, and a lock taken on a file removed meanwhile would guard nothing.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import portalocker
from portalocker import LockFlags
from portalocker.exceptions import AlreadyLocked

from medhalbench._errors import MedhalbenchError
from medhalbench._secrets import redact

FOLDER_LOCK = ".medhalbench.lock"
"""The lock file of a log folder."""

Mode = Literal["alone", "shared"]

SHARED_LOCKS = os.name == "posix"
"""Whether a shared holder holds shared (portalocker's shared locks on Windows need pywin32;
there a shared holder holds alone)."""


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


def _open(path: str, flags: int) -> int:
    # Never through a link: the lock file lies in a folder that others may write to.
    return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0), 0o666)  # the umask decides


@contextlib.contextmanager
def _held(path: Path, alone: bool) -> Iterator[None]:
    """Hold `path` alone or beside other shared holders, naming this process in it.

    Raises:
        AlreadyLocked: Another process holds it alone, or (to hold it alone) at all.
    """
    lock = portalocker.Lock(
        path,
        # Alone, it is emptied once held (not before): entries left are of holders that ended
        # or died. A shared holder's entry is appended beside the others'.
        "wb" if alone else "ab",
        timeout=0,
        fail_when_locked=True,
        flags=(LockFlags.EXCLUSIVE if alone else LockFlags.SHARED) | LockFlags.NON_BLOCKING,
        opener=_open,
    )
    with lock as f:
        f.write(_entry())
        f.flush()
        try:
            yield
        finally:
            if alone:  # ended: the file names no one
                with contextlib.suppress(OSError):
                    f.truncate(0)


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
    hold = _held(path, alone=mode == "alone" or not SHARED_LOCKS)
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(hold)
        except AlreadyLocked:
            holders = [h for h in _holders(path) if h.alive() and h.pid != os.getpid()]
            who = "; ".join(h.describe() for h in holders[:2]) or "another process"
            raise Busy(
                f"{what} {target} is in use by {who}: wait for it to finish, or stop it "
                "(two commands resuming one run would both do the work)"
            ) from None
        yield
