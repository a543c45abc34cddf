"""`medhalbench serve` ends as a supervised server should: SIGTERM within seconds with 143
(a stop, not a clean exit), and a bad engine option in one line with exit code 2."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers import free_port

SERVE = [sys.executable, "-m", "medhalbench.cli", "serve"]


def test_sigterm_stops_it_within_seconds_as_a_stop(tiny_model: str, tmp_path: Path) -> None:
    process = subprocess.Popen(
        [*SERVE, "--model", tiny_model, "--port", str(free_port())],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        preexec_fn=lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL),
    )  # fmt: skip
    assert process.stdout is not None
    assert "http://127.0.0.1:" in process.stdout.readline()  # ready
    sent = time.monotonic()
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert time.monotonic() - sent < 15 and "Traceback" not in err


def test_a_bad_engine_option_is_refused_in_one_line(tiny_model: str) -> None:
    done = subprocess.run(
        [*SERVE, "--model", tiny_model, "-M", "n_ctx=lots"], capture_output=True, text=True
    )
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert "-M" in line and "n_ctx" in line
