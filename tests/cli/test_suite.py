"""Suites: a grid of models and runs through inspect's eval_set, one report; interrupted part
way, a rerun does only the rest; `plan` prints every run's calls without calling a model."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai.log import list_eval_logs, read_eval_log

from helpers import free_port
from medhalbench.cli import cli
from medhalbench.settings import DEMO_ROWS as EXAMPLE_ROWS
from stub_server import StubHandler, serve

MODEL = "openai-api/stub/stub"


def write_suite(folder: Path, base_url: str) -> Path:
    suite = folder / "suite.yaml"
    suite.write_text(
        f"""
log_dir: {folder / "logs"}
settings: {{model_base_url: "{base_url}", max_connections: 2, cache: false}}
models:
  - name: {MODEL}
runs:
  - benchmark: medhallu
    args: {{dataset: example, limit: 4}}
  - benchmark: medhallu
    args: {{dataset: example, limit: 4, knowledge: true}}
  - benchmark: medhal
    args: {{dataset: example}}
"""
    )
    return suite


def test_an_interrupted_suite_finishes_on_rerun_with_one_report(
    warm_cli: list[str], tmp_path: Path
) -> None:
    port = free_port()
    server = serve(port, 1.0)
    suite = write_suite(tmp_path, f"http://127.0.0.1:{port}/v1")
    env = {**os.environ, "STUB_API_KEY": "sk-unused"}
    try:
        before = StubHandler.requests
        process = subprocess.Popen(
            [*warm_cli, "run", str(suite)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
        )  # fmt: skip
        # Start-up (the counter is shared by every stub in this process: wait at least as long
        # as the command takes to start), then a few samples.
        started = time.monotonic()
        while time.monotonic() < started + 90 and (
            StubHandler.requests - before < 3 or time.monotonic() < started + 8
        ):
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        first = StubHandler.requests - before
        assert process.returncode == 130, err
        assert f"run 'medhalbench run {suite}' again" in err and "Traceback" not in err
        assert 0 < first < 24
        rerun = subprocess.run(
            [*warm_cli, "run", str(suite)],
            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
        )  # fmt: skip
        second = StubHandler.requests - before - first
    finally:
        server.shutdown()
        server.server_close()
    assert rerun.returncode == 0, rerun.stderr
    assert "retry_immediate" not in rerun.stderr  # no inspect warning about our own setting
    logs = [read_eval_log(i) for i in list_eval_logs(str(tmp_path / "logs"))]
    finished = [log for log in logs if log.status == "success"]
    assert sorted(len(log.samples or []) for log in finished) == [8, 8, 8]
    # Each run's log named by its benchmark, model and condition, its stopped one resumed.
    assert sorted(Path(log.location).name for log in finished) == [
        "medhal_openai-api-stub-stub.eval",
        "medhallu_openai-api-stub-stub.eval",
        "medhallu_openai-api-stub-stub_knowledge.eval",
    ]
    for log in finished:
        ids = [(s.id, s.epoch) for s in log.samples or []]
        assert len(ids) == len(set(ids))  # each sample scored once
    # The rerun asked only for what was missing (a call cut off by the interrupt is asked again).
    assert second <= 24 - first + 2, (first, second)
    report = (tmp_path / "logs" / "report.html").read_text()
    assert report.count('id="medhallu"') == 1 and 'id="medhal"' in report
    assert "(published)" in report  # the papers' reference rows


HEADER_VALUE = "hv-suite-RERUNk4Qz81Lm"


def test_a_suite_with_a_header_argument_reruns_with_nothing_left_to_do(tmp_path: Path) -> None:
    """A header value is kept redacted in the logs and the eval set's manifest; a rerun still
    pairs each log with its run (inspect pairs them by the model's arguments as logged) and
    calls nothing, while the calls made carry the header as given."""
    suite = tmp_path / "suite.yaml"
    port = free_port()
    server = serve(port, 0.0)
    suite.write_text(
        f"""
log_dir: {tmp_path / "logs"}
settings: {{model_base_url: "http://127.0.0.1:{port}/v1", cache: false}}
models:
  - name: {MODEL}
    args: {{default_headers: {{X-Api-Key: {HEADER_VALUE}}}}}
runs:
  - benchmark: medhallu
    args: {{dataset: example, limit: 2}}
"""
    )
    env = {"STUB_API_KEY": "sk-unused"}
    try:
        before = len(StubHandler.headers_seen)
        first = CliRunner().invoke(cli, ["run", str(suite)], env=env)
        calls = len(StubHandler.headers_seen) - before
        again = CliRunner().invoke(cli, ["run", str(suite)], env=env)
    finally:
        server.shutdown()
        server.server_close()
    assert first.exit_code == 0, first.stderr
    assert again.exit_code == 0, again.stderr
    sent = {h.get("x-api-key") for h in StubHandler.headers_seen[before:]}
    assert calls > 0 and sent == {HEADER_VALUE}
    assert len(StubHandler.headers_seen) - before == calls  # the rerun called nothing
    assert len(list_eval_logs(str(tmp_path / "logs"))) == 1
    for path in (tmp_path / "logs").iterdir():
        data = path.read_bytes()
        if path.suffix == ".eval":
            with zipfile.ZipFile(path) as z:
                data = b"".join(z.read(n) for n in z.namelist())
        assert HEADER_VALUE[3:18].encode() not in data, path


def test_plan_of_the_packaged_demo_suite_calls_no_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["plan", "demo", "-P", "units_per_answer=3"])
    assert result.exit_code == 0, result.stderr
    titles = [line for line in result.stdout.splitlines() if line.startswith("MedHallu ·")]
    # The two MedHallu plans are told apart by their settings; each takes the demo's rows
    # (both answers of each).
    samples = f": {2 * EXAMPLE_ROWS} samples"
    assert len(titles) == 2 and all(t.endswith(samples) for t in titles), titles
    assert {"knowledge no" in t for t in titles} == {True, False}
    assert any(
        line.startswith("MedHal ·") and line.endswith(": 8 samples")
        for line in result.stdout.splitlines()
    )
    checker, paper = (
        next(line for line in result.stdout.splitlines() if line.startswith(f"│ {role} "))
        for role in ("checker", "checker (paper column)")
    )
    # 4 answers x 3 units, checked by our pipeline and again by the authors' (paper protocol).
    assert checker.split("│")[3].strip() == paper.split("│")[3].strip() == "12"
    assert not (tmp_path / "logs").exists()


@pytest.mark.parametrize(
    ("text", "culprit"),
    [
        ("models: [embedded/smollm2]\nruns: [{benchmark: nope}]\n", "unknown benchmark 'nope'"),
        ("models: []\nruns: [{benchmark: dahl}]\n", "models"),
        ("models: [embedded/smollm2]\nruns: [{benchmark: dahl}]\nsettings: {speed: 2}\n", "speed"),
        (
            "models: [embedded/smollm2]\nruns: [{benchmark: medhal, args: {colour: red}}]\n",
            "colour",
        ),
        # Model names are checked by a plan as by `eval --dry-run`.
        (
            "models: [openai/]\nruns: [{benchmark: medhal, args: {dataset: example}}]\n",
            "'models.openai/': name openai/",
        ),
        ("models: [nosuch/m]\nruns: [{benchmark: medhal, args: {dataset: example}}]\n", "nosuch"),
        (
            "models: [{name: embedded/smollm2, roles: {checker: gpt4}}]\nruns: [{benchmark: dahl, args: {dataset: example}}]\n",
            "roles.checker gpt4",
        ),
        # Role options are named as a suite names them.
        (
            "models: [openai/gpt-4o]\nruns: [{benchmark: dahl, args: {dataset: example}}]\n",
            "give roles.splitter MODEL and roles.checker MODEL, or roles.judge MODEL",
        ),
    ],
)
def test_a_bad_suite_is_one_line_and_exit_2(text: str, culprit: str, tmp_path: Path) -> None:
    suite = tmp_path / "bad.yaml"
    suite.write_text(text)
    result = CliRunner().invoke(cli, ["plan", str(suite)])
    assert result.exit_code == 2 and culprit in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
