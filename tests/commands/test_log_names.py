"""Logs named by their run: benchmark, model and condition, numbered when the name is taken,
never written over; a log in progress or named by someone keeps its name; a stopped run's log
is named too, and `retry` finds and finishes it beside it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from inspect_ai import eval as inspect_eval
from inspect_ai.log import list_eval_logs, read_eval_log

from helpers import free_port, interrupt_once_logged, scripted_model, stub_at
from medhalbench.cli import cli
from medhalbench.commands._log_names import name_log, named_logs
from medhalbench.examples import illustrative
from medhalbench.medhallu import medhallu
from stub_server import canned_reply, serve

MODEL = "openai-api/stub/stub"
NAMED = "openai-api-stub-stub"  # the model as a log's name spells it


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("STUB_API_KEY", "sk-unused")
    with stub_at(canned_reply) as base_url:
        yield base_url


def evaluate(base_url: str, logs: Path, *args: str) -> Result:
    return CliRunner().invoke(
        cli,
        ["eval", *args, "--dataset", "example", "--limit", "1", "--model", MODEL,
         "--model-base-url", base_url, "--log-dir", str(logs), "--no-cache", "--display", "none"],
    )  # fmt: skip


def printed_logs(result: Result) -> list[str]:
    return re.findall(r"Log \(success\): (\S+\.eval)", result.stdout.replace("\n", ""))


def test_each_run_is_named_by_benchmark_model_and_condition_and_numbered_when_taken(
    stub: str, tmp_path: Path
) -> None:
    logs = tmp_path / "logs"
    runs = {
        f"medhallu_{NAMED}.eval": ["medhallu"],
        f"medhallu_{NAMED}_knowledge.eval": ["medhallu", "--knowledge"],
        f"dahl_{NAMED}_no-paper-protocol.eval": ["dahl", "--judge", MODEL, "--no-paper-protocol"],
    }
    for name, args in runs.items():
        result = evaluate(stub, logs, *args)
        assert result.exit_code == 0, result.stderr
        assert printed_logs(result) == [str(logs / name)]  # the name it ends with
    assert sorted(p.name for p in logs.iterdir()) == sorted(runs)
    first = (logs / f"medhallu_{NAMED}.eval").read_bytes()
    for number in (2, 3):
        again = evaluate(stub, logs, "medhallu")
        assert again.exit_code == 0, again.stderr
        assert printed_logs(again) == [str(logs / f"medhallu_{NAMED}-{number}.eval")]
    assert (logs / f"medhallu_{NAMED}.eval").read_bytes() == first  # nothing written over
    # inspect lists and reads them by their headers, as `inspect view` and `inspect log list`.
    listed = {
        Path(i.name).name: read_eval_log(i, header_only=True) for i in list_eval_logs(str(logs))
    }
    assert len(listed) == 5 and {h.status for h in listed.values()} == {"success"}
    assert len({h.eval.task_id for h in listed.values()}) == 5
    assert listed[f"dahl_{NAMED}_no-paper-protocol.eval"].eval.task == "medhalbench/dahl"


def test_a_log_in_progress_or_named_by_someone_keeps_its_name(tmp_path: Path) -> None:
    [log] = inspect_eval(
        medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=1),
        model=scripted_model(lambda _: "1"), log_dir=str(tmp_path), display="none",
    )  # fmt: skip
    inspect_named = Path(log.location)
    mine = shutil.copy(inspect_named, tmp_path / "baseline.eval")
    header = read_eval_log(str(mine), header_only=True)
    assert name_log(header).location == str(mine) and Path(mine).is_file()
    started = read_eval_log(str(inspect_named), header_only=True)
    started = started.model_copy(update={"status": "started"})
    assert name_log(started).location == str(inspect_named) and inspect_named.is_file()
    # A file of that name that is no log is not written over either.
    (tmp_path / "medhallu_mockllm-model.eval").write_text("notes")
    [named] = named_logs([log])
    assert named.location == str(tmp_path / "medhallu_mockllm-model-2.eval")
    assert not inspect_named.exists() and (tmp_path / "medhallu_mockllm-model.eval").read_text()
    assert len(named.samples or []) == 2  # samples inspect had not read yet, read all the same


def test_a_stopped_run_is_named_and_retry_finishes_it_beside_it(
    warm_cli: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUB_API_KEY", "sk-unused")
    monkeypatch.chdir(tmp_path)
    port = free_port()
    slow = serve(port, 1.0)
    try:
        process = subprocess.Popen(
            [*warm_cli, "eval", "medhallu", "--dataset", "example", "--limit", "4", "--model",
             MODEL, "--model-base-url", f"http://127.0.0.1:{port}/v1", "--max-connections", "1",
             "--log-dir", "logs", "--no-cache", "--display", "none"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ),
        )  # fmt: skip
        err = interrupt_once_logged(process, Path("logs"))
    finally:
        slow.shutdown()
        slow.server_close()
    assert process.returncode == 130, err
    stopped = Path("logs") / f"medhallu_{NAMED}.eval"
    [named] = re.findall(r"medhalbench retry (\S+)", err)
    assert Path(named).resolve() == stopped.resolve(), err
    assert read_eval_log(str(stopped), header_only=True).status == "cancelled"
    server = serve(port, 0.0)  # the log's server, answering again
    try:
        retried = CliRunner().invoke(cli, ["retry", str(stopped), "--display", "none"])
    finally:
        server.shutdown()
        server.server_close()
    assert retried.exit_code == 0, retried.stderr
    finished = Path("logs") / f"medhallu_{NAMED}-2.eval"
    assert [Path(p).resolve() for p in printed_logs(retried)] == [finished.resolve()]
    log = read_eval_log(str(finished))
    ids = [(s.id, s.epoch) for s in log.samples or []]
    assert log.status == "success" and len(ids) == len(set(ids)) == 8
    # The stopped run's later log is found by its header, whatever its name.
    again = CliRunner().invoke(cli, ["retry", str(stopped)])
    assert again.exit_code == 2 and f"already finished as {finished.resolve()}" in " ".join(
        again.stderr.split()
    )
