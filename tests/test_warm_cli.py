"""The warm CLI (`warm_cli.py`) that most command tests run through gives what the installed
command gives: the same output streams and exit codes, the caller's folder and environment,
signals passed on, and an end by a signal ended the same way."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import free_port
from medhalbench.examples import illustrative

ENTRY_POINT = str(Path(sys.executable).with_name("medhalbench"))


@pytest.mark.parametrize(
    "args",
    [
        ["--version"],
        ["eval", "nope"],
        ["eval", "medhallu", "--dataset", "missing.jsonl", "--dry-run"],
        ["report", "--help"],
    ],
)
def test_the_same_streams_and_exit_code_as_the_installed_command(
    warm_cli: list[str], tmp_path: Path, args: list[str]
) -> None:
    def run(program: list[str]) -> tuple[int, str, str]:
        done = subprocess.run(
            [*program, *args], capture_output=True, text=True, cwd=tmp_path, timeout=120
        )
        return done.returncode, done.stdout, done.stderr

    assert run(warm_cli) == run([ENTRY_POINT])


def test_the_callers_folder_and_environment(warm_cli: list[str], tmp_path: Path) -> None:
    # A relative dataset is found in the caller's folder, not the warm server's.
    shutil.copy(illustrative("medhallu_illustrative.jsonl"), tmp_path / "here.jsonl")
    plan = subprocess.run(
        [*warm_cli, "eval", "medhallu", "--dataset", "here.jsonl", "--dry-run"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert plan.returncode == 0, plan.stderr
    # The help's wrapping follows the caller's COLUMNS, as the installed command's does.
    shown = {}
    for columns in ("50", "90"):
        env = {**os.environ, "COLUMNS": columns}
        shown[columns] = [
            subprocess.run(
                [*program, "eval", "--help"],
                capture_output=True,
                text=True,
                cwd=tmp_path,
                env=env,
                timeout=120,
            ).stdout  # fmt: skip
            for program in (warm_cli, [ENTRY_POINT])
        ]
        assert shown[columns][0] == shown[columns][1]
    assert shown["50"][0] != shown["90"][0]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGHUP])
def test_a_signal_reaches_the_command_and_ends_the_launcher_as_it_ends_the_command(
    warm_cli: list[str], tiny_model: str, tmp_path: Path, stop: signal.Signals
) -> None:
    """Ctrl-C stops `serve` as it stops the installed command (its own exit code); SIGHUP,
    which nothing handles, ends both by the signal itself."""

    def stopped(program: list[str]) -> tuple[int, bool]:
        # Started as from a shell that handles the signal by default (a test process may have
        # been started ignoring it, and an ignored signal stays ignored in its children).
        process = subprocess.Popen(
            [*program, "serve", "--model", tiny_model, "--port", str(free_port())],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
            preexec_fn=lambda: signal.signal(stop, signal.SIG_DFL),
        )  # fmt: skip
        assert process.stdout is not None
        first = process.stdout.readline()  # it says where it serves once it is ready
        assert "http://127.0.0.1:" in first, first
        process.send_signal(stop)
        _, err = process.communicate(timeout=120)
        return process.returncode, "Traceback" in err

    assert stopped(warm_cli) == stopped([ENTRY_POINT])
