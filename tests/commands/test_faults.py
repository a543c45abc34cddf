"""Faults from an OpenAI-compatible server on 127.0.0.1: every task completes or stops with a
clear error, and a rerun finishes only the remainder; API keys never reach any output."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai import eval
from inspect_ai.log import read_eval_log

from helpers import ScheduledStub, free_port, log_metrics
from medhalbench.cli import cli
from medhalbench.dahl import dahl
from medhalbench.examples import illustrative
from medhalbench.medhal import medhal
from medhalbench.medhallu import medhallu
from stub_server import StubHandler

SECRET = "sk-planted-secret-7f3a"
MODEL = "openai-api/stub/stub"
FAULTS = ["429", "500", "drop", "truncated", "nonjson", "timeout"]


@pytest.fixture(autouse=True)
def stub_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("STUB_API_KEY", SECRET)
    StubHandler.hang = 3.0
    yield


def first_faults(kinds: list[str]) -> Callable[[int], str]:
    return lambda n: kinds[n - 1] if n <= len(kinds) else "ok"


def medhal_statements(folder: Path) -> str:
    path = folder / "statements.jsonl"
    rows = [
        {
            "id": f"s{i}",
            "statement": f"Statement {i} about aspirin.",
            "label": i % 2 == 0,
            "source": "medqa",
        }
        for i in range(4)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


def tasks(folder: Path) -> dict[str, tuple[object, int]]:
    """Each task with its number of samples."""
    return {
        "medhallu": (medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=3), 6),
        "dahl": (dahl(dataset=illustrative("dahl_illustrative.csv"), limit=2), 2),
        "medhal": (medhal(dataset=medhal_statements(folder)), 4),
    }


def assert_no_secret(folder: Path) -> None:
    for path in folder.rglob("*"):
        if path.is_file():
            assert SECRET not in path.read_text(errors="ignore"), path


@pytest.mark.parametrize("system", ["medhallu", "dahl", "medhal"])
def test_every_fault_kind_is_retried_and_the_task_completes(
    system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = ScheduledStub(first_faults(FAULTS))
    monkeypatch.setenv("STUB_BASE_URL", server.base_url)  # for the roles, named by string
    try:
        task, n = tasks(tmp_path)[system]
        [log] = eval(
            task, model=MODEL, model_base_url=server.base_url,
            model_roles={"splitter": MODEL, "checker": MODEL} if system == "dahl" else None,
            # One call may meet every scheduled fault in turn; it must still get through.
            log_dir=str(tmp_path / "logs"), log_format="json", display="none", max_retries=len(FAULTS), attempt_timeout=1, timeout=60,
        )  # fmt: skip
    finally:
        server.stop()
    assert log.status == "success", log.error
    ids = [s.id for s in log.samples]
    assert len(ids) == n == len(set(ids))  # none lost, none twice
    assert all(len(s.scores) == 1 for s in log.samples)  # each scored once
    assert server.seen >= len(FAULTS) + n
    m = log_metrics(log)
    if system == "medhal":
        assert (
            m["unparseable"] == n
        )  # the stub's reply is not in MedHal's format: counted, not guessed
    assert_no_secret(tmp_path)


def test_server_dies_mid_run_then_retry_finishes_only_the_remainder(tmp_path: Path) -> None:
    port = free_port()
    first = ScheduledStub(lambda n: "ok", port=port)

    def die(n: int) -> str:
        if n == 5:
            threading.Thread(target=first.stop, daemon=True).start()
            return "drop"
        return "ok"

    first.schedule = die
    [log] = eval(
        medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=6), model=MODEL, model_base_url=first.base_url,
        log_dir=str(tmp_path), log_format="json", display="none", max_retries=1, timeout=2, max_connections=1,
    )  # fmt: skip
    assert log.status == "error"
    assert "connect" in (log.error.message if log.error else "").lower() or "Connection" in str(
        log.error
    )
    done = [s for s in (read_eval_log(log.location).samples or []) if s.scores and not s.error]
    assert 0 < len(done) < 12
    second = ScheduledStub(lambda n: "ok", port=port)
    try:
        result = CliRunner().invoke(
            cli,
            ["retry", log.location, "--log-dir", str(tmp_path / "retried")],
            catch_exceptions=False,
        )
    finally:
        second.stop()
    assert result.exit_code == 0, result.output
    assert second.seen == 12 - len(done)  # only the remainder was run
    [retried_path] = (tmp_path / "retried").glob("*.json")
    retried = read_eval_log(str(retried_path))
    assert retried.status == "success"
    ids = [s.id for s in retried.samples]
    assert len(ids) == 12 == len(set(ids))
    # Retrying the first log again would run it a third time: refused, naming the resumed one.
    again = CliRunner().invoke(cli, ["retry", log.location, "--log-dir", str(tmp_path / "retried")])
    assert again.exit_code == 2 and "already finished as" in again.stderr
    assert retried_path.name in again.stderr
    assert_no_secret(tmp_path)


def test_builder_stops_clearly_and_a_rerun_finishes_the_rest(tmp_path: Path) -> None:
    papers = tmp_path / "papers.jsonl"
    papers.write_text(
        "".join(
            json.dumps({"id": f"p{i}", "text": f"Paper {i} about insulin."}) + "\n"
            for i in range(4)
        )
    )
    port = free_port()
    server = ScheduledStub(lambda n: "ok" if n <= 2 else "500", port=port)
    out = tmp_path / "out"
    command = ["build", "dahl", "--papers", str(papers), "--out", str(out), "--generator", MODEL,
               "--model-base-url", f"http://127.0.0.1:{port}/v1", "--max-retries", "1", "--timeout", "10", "--concurrency", "1", "--no-cache"]  # fmt: skip
    try:
        result = CliRunner().invoke(cli, command, catch_exceptions=False)
    finally:
        server.stop()
    assert result.exit_code == 2  # a server that failed: the user's to fix, not our bug
    assert (
        "the build stopped" in result.output
        and "rerun the same command" in result.output
        and "Traceback" not in result.output
    )
    done = [
        json.loads(line)["paper_id"] for line in (out / "papers.jsonl").read_text().splitlines()
    ]
    assert done == ["p0", "p1"]
    server = ScheduledStub(lambda n: "ok", port=port)
    try:
        result = CliRunner().invoke(cli, command, catch_exceptions=False)
    finally:
        server.stop()
    assert result.exit_code == 0, result.output
    assert server.seen == 2 and "2 already done, 2 now" in result.output
    ids = [json.loads(line)["paper_id"] for line in (out / "papers.jsonl").read_text().splitlines()]
    assert sorted(ids) == ["p0", "p1", "p2", "p3"]
    assert_no_secret(tmp_path)


def test_report_never_holds_the_key(tmp_path: Path) -> None:
    server = ScheduledStub(lambda n: "ok")
    try:
        eval(
            medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=1),
            model=MODEL,
            model_base_url=server.base_url,
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
    finally:
        server.stop()
    for fmt, name in [("html", "report.html"), ("csv", "tables.csv"), ("parquet", "f.parquet"),
                      ("json", "r.json"), ("latex", "t.tex"), ("markdown", "t.md")]:  # fmt: skip
        result = CliRunner().invoke(
            cli,
            ["report", str(tmp_path / "logs"), "--out", str(tmp_path / name), "--format", fmt],
            catch_exceptions=False,
        )
        assert result.exit_code == 0 and list(tmp_path.glob(f"{Path(name).stem}*")), fmt
    assert_no_secret(tmp_path)


def test_a_retried_run_writes_what_its_benchmark_writes_beside_a_log(tmp_path: Path) -> None:
    """MedHal's predictions file is written when a predict-only run finishes, by whichever
    route finishes it: here a retry after the server failed mid-run."""
    port = free_port()
    first = ScheduledStub(lambda n: "500" if n >= 3 else "ok", port=port)
    try:
        [log] = eval(
            medhal(dataset=medhal_statements(tmp_path), predict=True), model=MODEL,
            model_base_url=first.base_url, log_dir=str(tmp_path), display="none",
            max_retries=0, max_connections=1,
        )  # fmt: skip
    finally:
        first.stop()
    assert log.status == "error"
    second = ScheduledStub(lambda n: "ok", port=port)
    try:
        result = CliRunner().invoke(
            cli, ["retry", log.location, "--log-dir", str(tmp_path / "retried")]
        )
    finally:
        second.stop()
    assert result.exit_code == 0, result.output
    [retried] = (tmp_path / "retried").glob("*.eval")
    written = retried.with_suffix(".predictions.jsonl")
    assert written.is_file() and str(written) in " ".join(result.output.split())
    assert len(written.read_text().splitlines()) == 4  # one line a statement
