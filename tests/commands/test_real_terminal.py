"""The commands as a person sees them in a real terminal: the installed entry point run in a
pseudo-terminal of 80 and 120 columns, its output drawn by a terminal emulator (pyte), so
that what is asserted is what stays on the screen once the progress bars have been redrawn
and stopped. Piped, the same commands print no live display at all, which is why every
other test saw them end cleanly while a terminal showed them exit 1."""

from __future__ import annotations

import fcntl
import json
import os
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte
import pytest

from medhalbench.examples import illustrative

pytestmark = pytest.mark.slow

WIDTHS = [80]
"""Where tables must fit (the demo also runs at 120 columns: the wide layout ends cleanly)."""
ROWS = 40
ENTRY_POINT = str(Path(sys.executable).with_name("medhalbench"))
TINY = "embedded/tiny.gguf"
"""The tiny model, as the working folder holds it (`tiny`): a short name that tables show whole."""
MEDHALLU = illustrative("medhallu_illustrative.jsonl")
DAHL = illustrative("dahl_illustrative.csv")


def in_terminal(
    args: list[str], *, columns: int, cwd: Path, timeout: float = 600
) -> tuple[int, str]:
    """Run the installed `medhalbench` in a pseudo-terminal of `columns` x `ROWS`.

    Returns:
        The exit code, and every line the terminal shows or scrolled past, as drawn.
    """
    controller, terminal = os.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in _SIZE_AND_COLOUR}
    env["TERM"] = "xterm-256color"
    # The terminal is the command's stdin, stdout and stderr, as a shell gives them.
    std = {"stdin": terminal, "stdout": terminal, "stderr": terminal}
    process = subprocess.Popen(
        [ENTRY_POINT, *args], cwd=cwd, env=env, start_new_session=True, **std
    )
    os.close(terminal)
    screen = pyte.HistoryScreen(columns, ROWS, history=100_000)
    stream = pyte.ByteStream(screen)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([controller], [], [], 1.0)
            if not ready:
                if process.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # the terminal closed: the command has ended
                break
            if not chunk:
                break
            stream.feed(chunk)
        code = process.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        if process.poll() is None:
            process.kill()
        os.close(controller)
    lines = ["".join(line[x].data for x in range(columns)) for line in screen.history.top]
    return code, "\n".join(line.rstrip() for line in [*lines, *screen.display])


_SIZE_AND_COLOUR = {
    "COLUMNS",
    "LINES",
    "NO_COLOR",
    "FORCE_COLOR",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
}


@pytest.fixture
def tiny(tiny_model: str, tmp_path: Path) -> str:
    """The tiny model, linked into the test's folder (the commands' working folder)."""
    (tmp_path / "tiny.gguf").symlink_to(tiny_model.removeprefix("embedded/"))
    return TINY


def _assert_clean(code: int, screen: str, columns: int) -> None:
    assert code == 0, screen
    assert "Traceback" not in screen and "error:" not in screen, screen
    assert max(len(line) for line in screen.splitlines()) <= columns


@pytest.mark.parametrize("columns", WIDTHS)
def test_eval_ends_cleanly_with_its_table(tiny: str, tmp_path: Path, columns: int) -> None:
    code, screen = in_terminal(
        ["eval", "medhallu", "--dataset", MEDHALLU, "--limit", "2", "--model", tiny],
        columns=columns,
        cwd=tmp_path,
    )
    _assert_clean(code, screen, columns)
    assert "4/4" in screen  # the bar, stopped at its count
    assert "│ F1" in screen and "Log (success):" in screen
    assert "Open the per-sample logs with:" in screen


# The demo at both widths on the tiny model (the terminal, not the model, is the point; the
# README's test runs it on the embedded default, as a first run does, with its closing lines).
@pytest.mark.parametrize("columns", [80, 120])
def test_the_demo_ends_cleanly_with_every_table_and_its_closing_lines(
    tiny: str, tmp_path: Path, columns: int
) -> None:
    code, screen = in_terminal(
        ["demo", "--limit", "1", "--model", tiny, "--judge", tiny], columns=columns, cwd=tmp_path
    )
    _assert_clean(code, screen, columns)
    flat = " ".join(screen.split())
    for title in (f"MedHallu: {tiny}", f"DAHL: {tiny}", "MedHal (ours: non-factual = positive;"):
        assert title in flat
    assert "report: report.html" in flat and (tmp_path / "report.html").is_file()
    assert "its figures say nothing about model quality" not in flat  # said of the default
    # Outputs written to illustrate the comparisons, labelled as such, beside the model's runs.
    assert "MedHallu: system/illustrative-detector-b" in flat
    assert "score outputs we wrote to show the comparisons at work" in flat
    assert "Demo finished in" in flat
    assert "temperature nan" not in flat  # the DAHL bar is titled with what it sends


@pytest.mark.parametrize("columns", WIDTHS)
def test_a_suite_runs_to_its_report(tiny: str, tmp_path: Path, columns: int) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(
        f"models:\n  - name: {tiny}\n    roles: {{splitter: {tiny}, checker: {tiny}}}\nruns:\n"
        f"  - benchmark: medhallu\n    args: {{dataset: {MEDHALLU}, limit: 1}}\n"
        f"  - benchmark: dahl\n    args: {{dataset: {DAHL}, limit: 1}}\n"
    )
    code, screen = in_terminal(["run", str(suite)], columns=columns, cwd=tmp_path)
    _assert_clean(code, screen, columns)
    flat = " ".join(screen.split())
    assert f"MedHallu: {tiny}" in flat and f"DAHL: {tiny}" in flat
    assert list(tmp_path.rglob("*.html")), "the suite's report"


@pytest.mark.parametrize("columns", WIDTHS)
def test_a_build_ends_cleanly(tiny: str, tmp_path: Path, columns: int) -> None:
    pubmedqa = tmp_path / "ori_pqal.json"
    pubmedqa.write_text(
        json.dumps(
            {
                "1": {
                    "QUESTION": "Does aspirin reduce the risk of a second heart attack?",
                    "CONTEXTS": ["Low-dose aspirin lowered recurrent infarction in trials."],
                    "LABELS": [],
                    "MESHES": [],
                    "final_decision": "yes",
                    "LONG_ANSWER": "Yes, low-dose aspirin lowers the risk of a second infarction.",
                }
            }
        )
    )
    out = tmp_path / "built"
    code, screen = in_terminal(
        [
            "build",
            "medhallu",
            "--pubmedqa",
            str(pubmedqa),
            "--out",
            str(out),
            "--attempts",
            "1",
            "--model",
            tiny,
        ],  # fmt: skip
        columns=columns,
        cwd=tmp_path,
    )
    _assert_clean(code, screen, columns)
    assert "1/1" in screen
    assert any(out.iterdir())


@pytest.mark.parametrize("columns", WIDTHS)
def test_retry_ends_cleanly_with_its_table(tiny: str, tmp_path: Path, columns: int) -> None:
    code, screen = in_terminal(
        [
            "eval",
            "medhallu",
            "--dataset",
            MEDHALLU,
            "--limit",
            "1",
            "--display",
            "none",
            "--model",
            tiny,
        ],  # fmt: skip
        columns=columns,
        cwd=tmp_path,
    )
    assert code == 0, screen
    [log] = (tmp_path / "logs").glob("*.eval")
    code, screen = in_terminal(["retry", str(log), "--force"], columns=columns, cwd=tmp_path)
    _assert_clean(code, screen, columns)
    assert "2/2" in screen and "│ F1" in screen and "Log (success):" in screen
