"""The command line when the model server dies, when the user stops a run, and at the edges of
its inputs: one clear line, a bounded wait, and a resumable log."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai.log import list_eval_logs, read_eval_log

from helpers import free_port, interrupt_once_logged
from medhalbench.cli import cli
from medhalbench.examples import illustrative
from medhalbench.registry import benchmark
from medhalbench.results import log_metrics
from stub_server import serve

MODEL = "openai-api/stub/stub"


@pytest.fixture(autouse=True)
def stub_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STUB_API_KEY", "sk-unused")


def logs_in(folder: Path) -> list:
    return [read_eval_log(info) for info in list_eval_logs(str(folder))]


def test_a_dying_server_ends_in_one_line_and_retry_finishes_the_log_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = free_port()
    base_url = f"http://127.0.0.1:{port}/v1"
    answered = threading.Event()
    seen = []

    def accept_six_then_die(_: int) -> str:
        seen.append(1)  # our own count: the stub's counts every request of the process
        if len(seen) == 6:
            answered.set()
        return "ok"

    server = serve(port, 0.3, fault=accept_six_then_die)
    killer = threading.Thread(
        target=lambda: (answered.wait(120), server.shutdown(), server.server_close())
    )
    killer.start()
    log_dir = tmp_path / "logs"
    result = CliRunner().invoke(
        cli,
        ["eval", "medhallu", "--dataset", illustrative("medhallu_illustrative.jsonl"), "--model", MODEL,
         "--model-base-url", base_url, "--max-connections", "2", "--max-retries", "2",
         "--log-dir", str(log_dir), "--no-cache"],
    )  # fmt: skip
    killer.join()
    # --max-retries 2: it gives up (the test runs' back-off is milliseconds: tests/_fast).
    assert result.exit_code == 2, result.exit_code
    [line] = [x for x in result.stderr.splitlines() if x.strip()]
    [log] = logs_in(log_dir)
    assert line.startswith(f"error: {MODEL} at {base_url}: connection refused")
    [named] = re.findall(r"Finish it with: medhalbench retry (\S+)$", line)
    assert Path(named).resolve() == Path(log.location.removeprefix("file://")).resolve()
    assert "Traceback" not in result.output
    done = {s.id for s in log.samples or [] if s.error is None}
    assert 0 < len(done) < 24  # some samples finished before the server died
    # The server comes back; retry from another folder finishes the log beside the old one.
    server = serve(port, 0.0)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    try:
        retried = CliRunner().invoke(cli, ["retry", log.location.removeprefix("file://")])
    finally:
        server.shutdown()
        server.server_close()
    assert retried.exit_code == 0, retried.output + retried.stderr
    finished = [x for x in logs_in(log_dir) if x.status == "success"]
    assert len(finished) == 1 and not list(elsewhere.iterdir())
    ids = [s.id for s in finished[0].samples or []]
    assert len(ids) == 24 and len(set(ids)) == 24
    # A finished log is not rerun unless asked.
    again = CliRunner().invoke(cli, ["retry", finished[0].location.removeprefix("file://")])
    assert again.exit_code == 2 and "already finished (use --force" in again.stderr


def test_ctrl_c_stops_at_once_and_says_how_to_resume(warm_cli: list[str], tmp_path: Path) -> None:
    port = free_port()
    server = serve(port, 1.0)
    try:
        process = subprocess.Popen(
            [*warm_cli, "eval", "medhallu",
             "--dataset", illustrative("medhallu_illustrative.jsonl"), "--model", MODEL,
             "--model-base-url", f"http://127.0.0.1:{port}/v1", "--max-connections", "2",
             "--display", "none", "--log-dir", str(tmp_path / "logs"), "--no-cache"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "STUB_API_KEY": "sk-unused"},
        )  # fmt: skip
        err = interrupt_once_logged(process, tmp_path / "logs", settle=3)  # a few samples
    finally:
        server.shutdown()
        server.server_close()
    # At once: it wound down by itself, not ended by the watchdog of a stop that hangs.
    assert process.returncode == 130 and "did not wind down" not in err, (process.returncode, err)
    assert "stopped by the user" in err and "medhalbench retry" in err and "Traceback" not in err
    [log] = logs_in(tmp_path / "logs")
    assert log.status == "cancelled"
    # The samples scored before the stop have every figure, not only the headline ones
    # inspect's display is given.
    assert log.results is not None and len(log_metrics(log)) > len(benchmark("medhallu").headline)


def test_dahl_agreement_says_why_a_statistic_is_undefined(tmp_path: Path) -> None:
    from inspect_ai import eval

    from helpers import scripted_model
    from medhalbench.dahl import dahl, question_id

    model = scripted_model(
        lambda p: (
            "A is B.\nC is D."
            if "one fact" in p
            else ("True" if "true or false" in p.lower() else "A is B. C is D.")
        )
    )
    [log] = eval(
        dahl(dataset=illustrative("dahl_illustrative.csv")), model=model,
        model_roles={"splitter": model, "checker": model}, log_dir=str(tmp_path), display="none",
    )  # fmt: skip
    human = tmp_path / "human.csv"
    with human.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "human_true", "human_units"])
        for sample in log.samples or []:
            writer.writerow([question_id(sample.metadata["question"]), 2, 2])
    result = CliRunner().invoke(
        cli, ["dahl", "agreement", "--auto", log.location, "--human", str(human)]
    )
    assert result.exit_code == 0, result.output
    assert (
        "Pearson r (precision, automated vs human): undefined (the automated and human precision is the same for every response)"
        in " ".join(result.output.split())
    )
    assert "nan" not in result.output and "inf" not in result.output


def test_answers_to_questions_not_in_the_dataset_are_counted(tmp_path: Path) -> None:
    from inspect_ai import eval

    from helpers import scripted_model
    from medhalbench.dahl import dahl

    responses = tmp_path / "answers.jsonl"
    with open(illustrative("dahl_illustrative.csv")) as f:
        known = next(csv.DictReader(f))["question"]
    responses.write_text(
        json.dumps({"question": known, "response": "A is B."})
        + "\n"
        + json.dumps({"question": "A question nobody asked?", "response": "C is D."})
        + "\n"
    )
    model = scripted_model(lambda p: "X is Y." if "one fact" in p else "True")
    [log] = eval(
        dahl(dataset=illustrative("dahl_illustrative.csv"), responses=str(responses)), model="none/none",
        model_roles={"splitter": model, "checker": model}, log_dir=str(tmp_path), display="none",
    )  # fmt: skip
    assert log.eval.metadata["questions_not_in_dataset"] == 1


def run_in_terminal(args: list[str], columns: int, env: dict[str, str]) -> str:
    """Run the CLI on a pseudo-terminal of the given width; its output as text."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    clean = {k: v for k, v in env.items() if k not in ("COLUMNS", "LINES")}
    process = subprocess.Popen(
        [sys.executable, "-m", "medhalbench.cli", *args], stdin=slave, stdout=slave,
        stderr=slave, env={**clean, "TERM": "dumb"}, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=120)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.parametrize("columns", [80, 120])
def test_tables_fit_the_terminal_and_never_cut_a_number(columns: int, tmp_path: Path) -> None:
    port = free_port()
    server = serve(port, 0.0)
    try:
        out = run_in_terminal(
            ["eval", "medhallu", "--dataset", illustrative("medhallu_illustrative.jsonl"), "--not-sure",
             "--model", MODEL, "--model-base-url", f"http://127.0.0.1:{port}/v1",
             "--log-dir", str(tmp_path), "--display", "none"],
            columns, {**os.environ, "STUB_API_KEY": "sk-unused"},
        )  # fmt: skip
    finally:
        server.shutdown()
        server.server_close()
    [log] = logs_in(tmp_path)
    m = log_metrics(log)
    table = [line for line in out.splitlines() if line.startswith(("│", "┃", "┏", "└"))]
    assert table and all(len(line) <= columns for line in table), out
    assert "…" not in out
    f1 = f"{m['f1']:.3f} [{m['f1_ci_low']:.3f}, {m['f1_ci_high']:.3f}]"
    assert any(line.startswith("│ F1 ") and f1 in line for line in table), (f1, out)
    rate = f"{m['response_rate']:.3f}"
    assert any(line.startswith("│ Response rate ") and rate in line for line in table), out


def test_cluster_analysis_writes_valid_json_with_null_for_undefined(tmp_path: Path) -> None:
    pubmedqa = tmp_path / "ori_pqal.json"
    pubmedqa.write_text(
        json.dumps(
            {
                str(i): {
                    "QUESTION": f"Does drug {i} lower blood pressure?",
                    "CONTEXTS": [f"Trial {i} compared drug {i} with placebo for twelve weeks."],
                    "final_decision": "yes",
                    "LONG_ANSWER": f"Yes. Drug {i} lowered blood pressure compared with placebo.",
                }
                for i in range(2)
            }
        )
    )
    port = free_port()
    server = serve(port, 0.0)
    try:
        result = CliRunner().invoke(
            cli,
            ["analyze", "clusters", "--pubmedqa", str(pubmedqa), "--candidates", "2",
             "--generator", MODEL, "--discriminator", MODEL, "--nli", f"llm:{MODEL}",
             "--model-base-url", f"http://127.0.0.1:{port}/v1", "--out", str(tmp_path / "c.json")],
            env={"STUB_API_KEY": "sk-unused"},
        )  # fmt: skip
    finally:
        server.shutdown()
        server.server_close()
    assert result.exit_code == 0, result.output + result.stderr
    text = (tmp_path / "c.json").read_text()

    def no_constants(name: str) -> None:
        raise AssertionError(f"not valid JSON: {name}")

    table = json.loads(text, parse_constant=no_constants)["table"]
    # The stub's NLI judge never finds entailment: no candidate joins another, so one kind
    # of cluster is missing and its figures are undefined (null), shown as "–".
    assert any(value is None for row in table.values() for value in row.values())
    assert "–" in result.output


def test_roles_take_the_model_base_url_or_their_own(tmp_path: Path) -> None:
    main_port, checker_port = free_port(), free_port()
    main, checker = serve(main_port, 0.0), serve(checker_port, 0.0)
    main_url, checker_url = (
        f"http://127.0.0.1:{main_port}/v1",
        f"http://127.0.0.1:{checker_port}/v1",
    )
    try:
        result = CliRunner().invoke(
            cli,
            ["eval", "dahl", "--dataset", illustrative("dahl_illustrative.csv"), "--limit", "1",
             "--model", MODEL, "--splitter", MODEL, "--checker", MODEL, "--model-base-url", main_url,
             "--role-base-url", f"checker={checker_url}", "--log-dir", str(tmp_path), "--display", "none"],
            env={"STUB_API_KEY": "sk-unused"},
        )  # fmt: skip
    finally:
        for server in (main, checker):
            server.shutdown()
            server.server_close()
    assert result.exit_code == 0, result.output + result.stderr
    [log] = logs_in(tmp_path)
    roles = log.eval.model_roles or {}
    assert log.eval.model_base_url == main_url
    assert roles["splitter"].base_url == main_url and roles["checker"].base_url == checker_url
