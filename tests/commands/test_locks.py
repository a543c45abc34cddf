"""A log or suite folder being resumed is held by one command: a second one stops at once and
names the holder; a lock whose holder died is taken over."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from medhalbench.commands._locks import Busy, lock_path, locked

HOLD = textwrap.dedent(
    """
    import sys, time
    from medhalbench.commands._locks import locked
    with locked(sys.argv[1], what="the log", mode=sys.argv[2]):
        print("held", flush=True)
        time.sleep(120)
    """
)


def holder(target: Path, mode: str = "alone") -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(target), mode], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "held"
    return process


def test_a_second_command_names_the_holder_then_takes_a_stale_lock(tmp_path: Path) -> None:
    log = tmp_path / "run.eval"
    log.write_bytes(b"log")
    process = holder(log)
    try:
        with pytest.raises(Busy) as info, locked(log, what="the log"):
            pass
        message = str(info.value)
        assert f"pid {process.pid}" in message and str(log) in message
    finally:
        process.send_signal(signal.SIGKILL)  # dies holding it: the lock file stays behind
        process.wait()
    assert lock_path(log).exists()
    with locked(log, what="the log"):  # stale: taken over
        assert f"{os.getpid()}\t" in lock_path(log).read_text()
    assert not lock_path(log).exists()  # released and removed


def test_shared_holders_exclude_only_a_holder_alone(tmp_path: Path) -> None:
    process = holder(tmp_path, "shared")
    try:
        with locked(tmp_path, what="the log folder", mode="shared"):
            pass  # two retries in one folder
        with pytest.raises(Busy, match=f"pid {process.pid}"), locked(tmp_path, what="the folder"):
            pass  # a suite beside a retry
    finally:
        process.kill()
        process.wait()
