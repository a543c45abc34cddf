"""DAHL end to end with real models: embedded, and every role over a local server."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval

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


def test_embedded_model_in_every_role(tmp_path: Path) -> None:
    [log] = eval(
        dahl(dataset=QUESTIONS, limit=2, max_tokens=64),
        model="embedded/smollm2",
        model_roles={"splitter": "embedded/smollm2", "checker": "embedded/smollm2"},
        log_dir=str(tmp_path),
        display="none",
    )
    assert_complete(log, 2)


def test_every_role_through_openai_compatible_server(
    llama_server: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOCAL_API_KEY", "sk-planted-secret-dahl")
    monkeypatch.setenv("LOCAL_BASE_URL", llama_server.base_url)
    name = f"openai-api/local/{llama_server.model}"
    [log] = eval(
        dahl(dataset=QUESTIONS, limit=2, max_tokens=64),
        model=name,
        model_roles={"splitter": name, "checker": name},
        log_dir=str(tmp_path),
        log_format="json",
        display="none",
    )
    assert_complete(log, 2)
    assert "sk-planted-secret-dahl" not in next(tmp_path.glob("*.json")).read_text()


def test_real_questions_sample(shared_data: Path, tmp_path: Path) -> None:
    [log] = eval(
        dahl(dataset=str(shared_data / "dahl" / "questions.csv"), sample=0.0003, max_tokens=48),
        model="embedded/smollm2",
        log_dir=str(tmp_path),
        display="none",
    )
    assert_complete(log, 3)  # round(8573 * 0.0003) = 3, stratified
