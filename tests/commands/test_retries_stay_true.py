"""A retry finishes the run it resumes and nothing else: the files the run read are found from
any folder, a retry on data, prompts or templates edited since is refused naming what changed
(`--force` runs every sample again on the new files), a key the log does not keep is asked
for again, and a second command on the same log is refused naming the first."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai import eval
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from helpers import free_port, interrupt_once_logged
from medhalbench.cli import cli
from medhalbench.examples import illustrative
from medhalbench.medhallu import medhallu
from stub_server import serve

MODEL = "openai-api/stub/stub"
ROWS = 6  # 12 samples: each row's two answers


class Server:
    """The stub server, counting the requests it saw; fails every request after `ok`."""

    def __init__(self, port: int, ok: int | None = None) -> None:
        self.seen = 0
        self.ok = ok

        def fault(_: int) -> str:
            self.seen += 1
            return "500" if self.ok is not None and self.seen > self.ok else "ok"

        self.server = serve(port, 0.0, fault=fault)
        self.server.block_on_close = False
        self.base_url = f"http://127.0.0.1:{port}/v1"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def run_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder a run starts in, holding its data and prompt as relative paths."""
    monkeypatch.setenv("STUB_API_KEY", "sk-unused-key")
    folder = tmp_path / "run"
    folder.mkdir()
    shutil.copy(illustrative("medhallu_illustrative.jsonl"), folder / "data.jsonl")
    (folder / "prompt.txt").write_text("Say 0 if the answer is right, 1 if not.\n")
    monkeypatch.chdir(folder)
    yield folder


def failed_run(port: int, **task_args: object) -> tuple[str, int]:
    """A run whose server fails after 5 replies; its log's path and the samples done."""
    server = Server(port, ok=5)
    try:
        [log] = eval(
            medhallu(dataset="data.jsonl", limit=ROWS, **task_args), model=MODEL,
            model_base_url=server.base_url, log_dir="logs", display="none", max_retries=0,
            max_connections=1,
        )  # fmt: skip
    finally:
        server.stop()
    assert log.status == "error"
    done = sum(s.error is None for s in read_eval_log(log.location).samples or [])
    assert 0 < done < 2 * ROWS
    return log.location.removeprefix("file://"), done


def finished(folder: Path) -> list[EvalLog]:
    return [
        log
        for info in list_eval_logs(str(folder))
        if (log := read_eval_log(info)).status == "success"
    ]


def one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and len(lines[0]) <= 300, stderr
    return lines[0]


def test_a_retry_from_another_folder_finishes_only_the_rest(
    run_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = free_port()
    log, done = failed_run(port, prompt="prompt.txt")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    server = Server(port)
    try:
        result = CliRunner().invoke(cli, ["retry", log])
    finally:
        server.stop()
    assert result.exit_code == 0, result.stderr
    assert server.seen == 2 * ROWS - done
    [log_done] = finished(run_folder / "logs")
    assert len({s.id for s in log_done.samples or []}) == 2 * ROWS
    assert not list(elsewhere.iterdir())  # nothing written where the retry was started


@pytest.mark.parametrize("edited", ["data.jsonl", "prompt.txt"])
def test_a_retry_on_edited_inputs_is_refused_naming_them_and_force_reruns_all(
    run_folder: Path, edited: str
) -> None:
    port = free_port()
    log, _ = failed_run(port, prompt="prompt.txt")
    path = run_folder / edited
    if edited == "data.jsonl":
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        rows[0]["Question"] += " (edited)"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    else:
        path.write_text("Answer 1 if the answer is hallucinated, else 0.\n")
    server = Server(port)
    try:
        refused = CliRunner().invoke(cli, ["retry", log])
        assert refused.exit_code == 2 and server.seen == 0
        line = one_line(refused.stderr)
        assert str(path) in line and "changed since the run" in line and "--force" in line
        forced = CliRunner().invoke(cli, ["retry", log, "--force"])
    finally:
        server.stop()
    assert forced.exit_code == 0, forced.stderr
    assert server.seen == 2 * ROWS  # every sample again, none kept from the old files
    [log_done] = finished(run_folder / "logs")
    questions = {str((s.metadata or {}).get("question")) for s in log_done.samples or []}
    if edited == "data.jsonl":
        assert any(q.endswith("(edited)") for q in questions)


def test_a_key_the_log_does_not_keep_is_asked_for_again(
    run_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = "sk-given-on-the-command-line-0042"
    monkeypatch.delenv("STUB_API_KEY")
    port = free_port()
    server = Server(port, ok=5)
    try:
        made = CliRunner().invoke(
            cli,
            ["eval", "medhallu", "--dataset", "data.jsonl", "--limit", str(ROWS), "--model", MODEL,
             "--model-base-url", server.base_url, "-M", f"api_key={key}", "--max-retries", "0",
             "--max-connections", "1", "--log-dir", "logs", "--no-cache", "--display", "none"],
        )  # fmt: skip
    finally:
        server.stop()
    assert made.exit_code == 2, made.stderr
    [info] = list_eval_logs("logs")
    log = info.name.removeprefix("file://")
    server = Server(port)
    try:
        refused = CliRunner().invoke(cli, ["retry", log])
        line = one_line(refused.stderr)
        assert refused.exit_code == 2 and "STUB_API_KEY" in line and "-M api_key set to it" in line
        assert server.seen == 0
        given = CliRunner().invoke(cli, ["retry", log, "-M", f"api_key={key}"])
    finally:
        server.stop()
    assert given.exit_code == 0, given.stderr
    for file in Path("logs").iterdir():
        assert key.encode() not in file.read_bytes()


HOLD = textwrap.dedent(
    """
    import sys, time
    from medhalbench.commands._locks import locked
    with locked(sys.argv[1], what="the log"):
        print("held", flush=True)
        time.sleep(120)
    """
)


def test_a_second_retry_of_a_log_says_who_resumes_it(run_folder: Path) -> None:
    port = free_port()
    log, _ = failed_run(port)
    first = subprocess.Popen([sys.executable, "-c", HOLD, log], stdout=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None and first.stdout.readline().strip() == "held"
        second = CliRunner().invoke(cli, ["retry", log])
    finally:
        first.kill()
        first.wait()
    line = one_line(second.stderr)
    assert second.exit_code == 2 and f"pid {first.pid}" in line and "in use" in line
    assert len(list(Path("logs").glob("*.eval"))) == 1  # no work was done
    assert os.path.exists(log)


def test_an_interrupted_retry_is_itself_finished(warm_cli: list[str], run_folder: Path) -> None:

    port = free_port()
    log, done = failed_run(port)
    slow = serve(port, 1.0)
    try:
        process = subprocess.Popen(
            [*warm_cli, "retry", log, "--max-connections", "1"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        err = interrupt_once_logged(process, Path("logs"), logs=2, settle=1.5)  # the retry's
    finally:
        slow.shutdown()
        slow.server_close()
    assert process.returncode == 130, err
    line = one_line(err)
    [resumed] = [p for p in Path("logs").glob("*.eval") if str(p.resolve()) != log]
    assert f"medhalbench retry {resumed.resolve()}" in line, line
    server = Server(port)
    try:
        again = CliRunner().invoke(
            cli, ["retry", log]
        )  # the first log: finished through the second
    finally:
        server.stop()
    assert again.exit_code == 0, again.stderr
    assert "was resumed as" in again.stdout
    [log_done] = finished(run_folder / "logs")
    ids = [(s.id, s.epoch) for s in log_done.samples or []]
    assert len(ids) == len(set(ids)) == 2 * ROWS
    assert server.seen <= 2 * ROWS - done
