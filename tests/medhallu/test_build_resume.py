"""A MedHallu build killed with SIGKILL part way, then rerun, equals an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import free_port
from stub_server import StubHandler, serve

pytestmark = pytest.mark.slow

QUESTIONS = 8


def pubmedqa(path: Path) -> Path:
    entries = {
        str(1000 + i): {
            "QUESTION": f"Does treatment {i} improve outcome {i}?",
            "CONTEXTS": [f"Patients received treatment {i} or placebo."],
            "final_decision": "yes",
            "LONG_ANSWER": f"Yes. Treatment {i} improved outcome {i} compared with placebo in adults.",
        }
        for i in range(QUESTIONS)
    }
    path.write_text(json.dumps(entries))
    return path


def command(program: list[str], source: Path, out: Path) -> list[str]:
    model = "openai-api/stub/stub"
    return [
        *program, "build", "medhallu", "--pubmedqa", str(source),
        "--out", str(out), "--generator", model, "--discriminator", model, "--discriminator", model,
        "--refiner", model, "--nli", f"llm:{model}", "--attempts", "3", "--concurrency", "2",
        "--seed", "11", "--no-cache",
    ]  # fmt: skip


def records(out: Path) -> list[dict]:
    return sorted(
        (json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()),
        key=lambda r: r["pubid"],
    )


def test_sigkill_then_rerun_equals_uninterrupted(warm_cli: list[str], tmp_path: Path) -> None:
    # The killed build runs as installed (kill -9 is its point); the others need no process
    # start of their own, nor the delay that lets the kill land part way.
    installed = [str(Path(sys.executable).parent / "medhalbench")]
    port = free_port()
    server = serve(port, delay=0.15)
    env = {**os.environ, "STUB_BASE_URL": f"http://127.0.0.1:{port}/v1", "STUB_API_KEY": "unused"}
    source = pubmedqa(tmp_path / "ori_pqal.json")
    try:
        killed = tmp_path / "killed"
        process = subprocess.Popen(
            command(installed, source, killed),
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            progress = killed / "records.jsonl"
            if progress.exists() and len(progress.read_text().splitlines()) >= 2:
                break
            assert process.poll() is None, (
                process.stderr.read().decode()[-2000:] if process.stderr else ""
            )
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        partial = len((killed / "records.jsonl").read_text().splitlines())
        assert 2 <= partial < QUESTIONS, "the build was not interrupted part way"
        StubHandler.delay = 0.0
        rerun = subprocess.run(
            command(warm_cli, source, killed), env=env, capture_output=True, text=True, timeout=300
        )
        assert rerun.returncode == 0, rerun.stderr[-2000:]
        assert f"already done: {partial}" in rerun.stdout
        whole = tmp_path / "whole"
        full = subprocess.run(
            command(warm_cli, source, whole), env=env, capture_output=True, text=True, timeout=300
        )
        assert full.returncode == 0, full.stderr[-2000:]
    finally:
        server.shutdown()
    resumed, uninterrupted = records(killed), records(whole)
    assert [r["pubid"] for r in resumed] == [
        str(1000 + i) for i in range(QUESTIONS)
    ]  # none lost, none twice
    assert resumed == uninterrupted
    assert (killed / "medhallu.jsonl").read_text().count("\n") == (
        whole / "medhallu.jsonl"
    ).read_text().count("\n")
