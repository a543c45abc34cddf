"""Provider batch APIs, for real, against a stub of OpenAI's files and batches endpoints on
127.0.0.1: uploads, a batch created and polled, results fetched, a failed line sent again."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai.log import list_eval_logs, read_eval_log

from helpers import free_port
from medhalbench.cli import cli
from medhalbench.examples import illustrative
from stub_server import _batches, serve


def test_an_evaluation_through_the_batch_api_scores_every_sample_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-unused")
    failed: list[str] = []

    def fail_the_first_line(custom_id: str) -> bool:
        if failed:
            return False
        failed.append(custom_id)
        return True

    port = free_port()
    server = serve(port, 0.0)
    _batches.delay, _batches.fail, before = 0.5, fail_the_first_line, _batches.lines_served
    try:
        result = CliRunner().invoke(
            cli,
            ["eval", "medhallu", "--dataset", illustrative("medhallu_illustrative.jsonl"), "--limit", "6",
             "--model", "openai/stub", "--model-base-url", f"http://127.0.0.1:{port}/v1",
             "--batch", "--batch-delay", "0.5", "--log-dir", str(tmp_path), "--no-cache",
             "--display", "none"],
        )  # fmt: skip
    finally:
        _batches.fail = lambda custom_id: False
        server.shutdown()
        server.server_close()
    assert result.exit_code == 0, result.output + result.stderr
    [log] = [read_eval_log(info) for info in list_eval_logs(str(tmp_path))]
    assert log.status == "success" and log.eval.model_generate_config.batch
    ids = [s.id for s in log.samples or []]
    assert len(ids) == 12 and len(set(ids)) == 12
    assert all("detection_verdict" in (s.scores or {}) for s in log.samples or [])
    # Every request went through a batch. inspect fails the whole batch that held the failed
    # line; its samples were sent again, in a second batch, within the same run.
    assert len(failed) == 1 and _batches.lines_served - before == 24
    assert len(_batches.batches) >= 2


def test_batch_with_a_provider_that_has_none_is_refused_naming_the_model() -> None:
    result = CliRunner(env={"LOCAL_API_KEY": "sk-unused"}).invoke(
        cli,
        ["eval", "medhallu", "--dataset", illustrative("medhallu_illustrative.jsonl"),
         "--model", "openai-api/local/m", "--model-base-url", "http://127.0.0.1:9/v1",
         "--batch", "--dry-run"],
    )  # fmt: skip
    assert result.exit_code == 2
    [line] = [x for x in result.stderr.splitlines() if x.strip()]
    assert "--batch" in line and "openai-api/local/m has no batch API" in line
