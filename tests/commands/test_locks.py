"""A log or suite folder being resumed is held by one command: a second one stops at once and
names the holder; a lock whose holder died is taken over. A suite holds its folder alone,
retries hold it shared: two retries at once, never one beside a suite."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from medhalbench.commands._locks import FOLDER_LOCK, Busy, lock_path, locked

HOLD = textwrap.dedent(
    """
    import sys, time
    from medhalbench.commands._locks import locked
    with locked(sys.argv[1], what="the log", mode=sys.argv[2]):
        print("held", flush=True)
        time.sleep(120)
    """
)
KEY = "sk-Q7xTest9Lm2Pz4Rt8"


def holder(target: Path, mode: str = "alone", *extra: str) -> subprocess.Popen[str]:
    """Another process holding `target`'s lock (in `mode`) until it is killed."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(target), mode, *extra], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "held"
    return process


def kill_9(process: subprocess.Popen[str]) -> None:
    """Kill a holder as a power cut would: it cleans nothing up."""
    process.send_signal(signal.SIGKILL)
    process.wait()


def test_a_second_command_names_the_holder_then_takes_a_stale_lock(tmp_path: Path) -> None:
    log = tmp_path / "run.eval"
    log.write_bytes(b"log")
    process = holder(log, "alone", "-M", f"api_key={KEY}", "two\nlines")
    try:
        entry = lock_path(log).read_text()
        with pytest.raises(Busy) as info, locked(log, what="the log"):
            pass
    finally:
        kill_9(process)  # dies holding it: the kernel drops the lock, its entry stays
    message = str(info.value)
    assert f"pid {process.pid} (medhalbench " in message and str(log) in message
    assert "\n" not in message and KEY not in message
    # The entry others read: one line, the key redacted.
    assert entry.startswith(f"{process.pid}\t") and entry.count("\n") == 1
    assert KEY not in entry and "[redacted]" in entry
    with locked(log, what="the log"):  # stale: taken over at once
        assert lock_path(log).read_text().startswith(f"{os.getpid()}\t")
        assert f"{process.pid}\t" not in lock_path(log).read_text()
    # filelock keeps the file (a contender may have it open); it names no one any more.
    assert lock_path(log).read_text() == ""
    with locked(log, what="the log"):  # and it is free again
        pass


def test_one_process_holding_a_log_twice_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "run.eval"
    log.write_bytes(b"log")
    with (
        locked(log, what="the log"),
        pytest.raises(Busy, match="in use by another process"),
        locked(log, what="the log"),  # the same log given twice to one retry
    ):
        pass


def test_shared_holders_exclude_only_a_holder_alone(tmp_path: Path) -> None:
    process = holder(tmp_path, "shared")
    try:
        assert lock_path(tmp_path) == tmp_path / FOLDER_LOCK
        with locked(tmp_path, what="the log folder", mode="shared"):  # two retries in one folder
            entries = lock_path(tmp_path).read_text()
            assert f"{process.pid}\t" in entries and f"{os.getpid()}\t" in entries
        with pytest.raises(Busy, match=f"pid {process.pid}"), locked(tmp_path, what="the folder"):
            pass  # a suite beside a retry
    finally:
        kill_9(process)
    with locked(tmp_path, what="the suite's log folder"):  # the dead retry holds nothing
        assert f"{process.pid}\t" not in lock_path(tmp_path).read_text()


def test_a_folder_held_alone_refuses_a_shared_holder(tmp_path: Path) -> None:
    process = holder(tmp_path, "alone")
    try:
        with (
            pytest.raises(Busy, match=f"pid {process.pid}"),
            locked(tmp_path, what="the log folder", mode="shared"),
        ):
            pass  # a retry beside a suite
    finally:
        kill_9(process)
    with locked(tmp_path, what="the log folder", mode="shared"):  # stale: taken over
        pass
