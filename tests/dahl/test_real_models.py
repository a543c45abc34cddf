"""DAHL end to end through the real engine (the tiny model: the pipeline, not the replies, is
the point): embedded, and every role over llama.cpp's server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog

from helpers import LocalServer, log_metrics
from medhalbench.dahl import dahl
from medhalbench.examples import illustrative

pytestmark = pytest.mark.slow

QUESTIONS = illustrative("dahl_illustrative.csv")


def assert_complete(log, n: int) -> None:
    assert log.status == "success", log.error
    assert len(log.samples) == n
    for sample in log.samples:
        meta = sample.scores["dahl_factuality"].metadata
        assert meta["status"] in ("scored", "declined", "no_units", "unknown_unit", "mismatch")
        if meta["status"] == "scored":
            assert meta["units"] == len(meta["units_text"]) == len(meta["verdicts"]) > 0
    m = log_metrics(log)
    assert m["responses"] == n and m["scored"] + m["excluded"] == n


def in_every_role(model: str, folder: Path, **options: Any) -> EvalLog:
    """Two DAHL questions with `model` answering, splitting and checking."""
    [log] = eval(
        dahl(dataset=QUESTIONS, limit=2, max_tokens=64),
        model=model, model_roles={"splitter": model, "checker": model}, log_dir=str(folder),
        display="none", **options,
    )  # fmt: skip
    return log


def test_embedded_model_in_every_role(tiny_model: str, tmp_path: Path) -> None:
    assert_complete(in_every_role(tiny_model, tmp_path), 2)


def test_every_role_through_openai_compatible_server(
    llama_server: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOCAL_API_KEY", "sk-planted-secret-dahl")
    monkeypatch.setenv("LOCAL_BASE_URL", llama_server.base_url)
    log = in_every_role(f"openai-api/local/{llama_server.model}", tmp_path, log_format="json")
    assert_complete(log, 2)
    assert "sk-planted-secret-dahl" not in next(tmp_path.glob("*.json")).read_text()


def test_real_questions_sample(tiny_model: str, shared_data: Path, tmp_path: Path) -> None:
    [log] = eval(
        dahl(dataset=str(shared_data / "dahl" / "questions.csv"), sample=0.0003, max_tokens=48),
        model=tiny_model,
        # The judges too (the embedded default would judge otherwise): the pipeline on the
        # released questions is the point, not the judging.
        model_roles={"splitter": tiny_model, "checker": tiny_model},
        log_dir=str(tmp_path),
        display="none",
    )
    assert_complete(log, 3)  # round(8573 * 0.0003) = 3, stratified
    assert set(log.stats.model_usage) == {tiny_model}
