"""Exit codes as a contract: 0 done; 2 bad input, refused, or a model server that failed (one
line of at most 300 characters naming the culprit); 130/143 stopped (a second Ctrl-C ends the
process at once, no traceback, and the threads still writing are wound down first); 1 only for
a bug of ours, with its traceback in a file."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import TaskState

from helpers import free_port, scripted_model
from medhalbench.cli import cli
from medhalbench.commands._errors import MAX_MESSAGE_CHARS, one_line
from medhalbench.commands._failures import fail_on_unfinished
from medhalbench.examples import illustrative
from stub_server import serve


def test_a_long_message_keeps_its_start_and_its_end() -> None:
    message = "error: /data/file.csv, line 3: " + "x" * 800_000 + " (see --help)"
    line = one_line(message)
    assert len(line) <= MAX_MESSAGE_CHARS and "\n" not in line
    assert line.startswith("error: /data/file.csv, line 3: ") and line.endswith("(see --help)")


def test_an_800kb_value_is_quoted_in_part(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text('{"Question": "q", "Difficulty Level": "' + "z" * 800_000 + '"}\n')
    result = CliRunner().invoke(cli, ["eval", "medhallu", "--dataset", str(path), "--dry-run"])
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and len(lines[0]) <= MAX_MESSAGE_CHARS
    assert str(path) in lines[0]


SLOW_WIND_DOWN_S = 60
"""How long the slow mode's wind-down would take, were it not ended at once."""
WINDS_DOWN_SLOWLY = textwrap.dedent(
    f"""
    import threading, time
    SLOW_WIND_DOWN_S = {SLOW_WIND_DOWN_S}
    from medhalbench.commands import _errors

    def write():  # stands for inspect's log writer: a thread that imports as it writes
        while True:
            import json  # noqa: F401
            time.sleep(0.01)

    threading.Thread(target=write, daemon=True).start()
    try:
        with _errors.interruptible("stopped by the user"):
            print("ready", flush=True)
            time.sleep(60)
    except KeyboardInterrupt:
        print("winding down", flush=True)
        if __import__("sys").argv[1] == "slow":
            time.sleep(SLOW_WIND_DOWN_S)  # a wind-down the user does not wait for
        _errors.fail("stopped by the user", 130)
    """
)


def _stopped(mode: str, signals: int) -> tuple[int, str, float]:
    process = subprocess.Popen(
        [sys.executable, "-c", WINDS_DOWN_SLOWLY, mode],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    process.send_signal(signal.SIGINT)
    assert process.stdout.readline().strip() == "winding down"
    started = time.monotonic()
    if signals == 2:
        process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    return process.returncode, err, time.monotonic() - started


def test_a_stop_winds_down_the_threads_and_says_one_line() -> None:
    code, err, _ = _stopped("quick", 1)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 130 and lines == ["error: stopped by the user"], err


def test_a_second_ctrl_c_ends_at_once_without_a_traceback() -> None:
    code, err, elapsed = _stopped("slow", 2)
    lines = [line for line in err.splitlines() if line.strip()]
    # Ended before the wind-down it cut short (no bound on a loaded machine's speed).
    assert code == 130 and elapsed < SLOW_WIND_DOWN_S, (code, elapsed, err)
    assert len(lines) == 1 and "stopped at once" in lines[0] and "Traceback" not in err


@scorer(metrics=[mean()])
def exhausts_memory():  # type: ignore[no-untyped-def]
    async def score(state: TaskState, target: Target) -> Score:
        raise MemoryError()

    return score


def test_a_bug_of_ours_mid_run_is_exit_1_with_its_traceback_not_a_server_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task = Task(dataset=[Sample(input="q", target="a")], scorer=exhausts_memory())
    model = scripted_model(lambda prompt: "an answer")
    [log] = eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "error"
    with pytest.raises(SystemExit) as exited:
        fail_on_unfinished([log])
    line = capsys.readouterr().err.strip()
    assert exited.value.code == 1 and "ran out of memory" in line and "full traceback:" in line
    assert "server" not in line
    traceback = Path(line.split("full traceback: ")[1].split(")")[0])
    assert "MemoryError" in traceback.read_text()


def test_a_failing_checker_is_named_not_the_model_under_test(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUB_API_KEY", "sk-unused-stub")
    monkeypatch.setenv("DEAD_API_KEY", "sk-unused-dead")
    answering, dead = free_port(), free_port()
    server = serve(answering, 0.0)
    try:
        result = CliRunner().invoke(
            cli,
            ["eval", "dahl", "--dataset", illustrative("dahl_illustrative.csv"), "--limit", "1",
             "--model", "openai-api/stub/answers", "--model-base-url", f"http://127.0.0.1:{answering}/v1",
             "--splitter", "openai-api/stub/splits", "--checker", "openai-api/dead/checks",
             "--role-base-url", f"checker=http://127.0.0.1:{dead}/v1", "--max-retries", "0",
             "--log-dir", str(tmp_path / "logs"), "--no-cache", "--display", "none"],
        )  # fmt: skip
    finally:
        server.shutdown()
        server.server_close()
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1, result.stderr
    assert lines[0].startswith(
        f"error: checker model openai-api/dead/checks at http://127.0.0.1:{dead}/v1: "
    ), lines[0]
    assert "openai-api/stub/answers" not in lines[0]
