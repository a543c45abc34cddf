"""MedHallu detection end to end through the real engine (the tiny model: the pipeline, not
the replies, is the point): embedded and over llama.cpp's server."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.event import ModelEvent

from helpers import LocalServer
from medhalbench.medhallu import medhallu
from medhalbench.results import log_metrics

pytestmark = pytest.mark.slow


def model_events(log) -> list[ModelEvent]:
    return [e for s in log.samples for e in s.events if isinstance(e, ModelEvent)]


def assert_complete(log, n_samples: int) -> None:
    assert log.status == "success", log.error
    assert len(log.samples) == n_samples
    for sample in log.samples:
        score = sample.scores["detection_verdict"]
        assert score.metadata["prediction"] in (
            "factual",
            "hallucinated",
            "not_sure",
            "unparseable",
        )
        assert score.value in (0, 1)
        assert sample.output.completion is not None
    names = set(log_metrics(log))
    assert {"f1", "precision", "easy_f1", "medium_f1", "hard_f1", "unparseable"} <= names


def test_embedded_model_end_to_end_and_cached_rerun(
    tiny_model: str, sample_path: str, tmp_path: Path
) -> None:
    task = medhallu(dataset=sample_path, limit=3, knowledge=True)
    [first] = eval(task, model=tiny_model, log_dir=str(tmp_path), display="none", cache=True)
    assert_complete(first, 6)
    assert all(e.cache == "write" for e in model_events(first))
    [second] = eval(
        medhallu(dataset=sample_path, limit=3, knowledge=True),
        model=tiny_model,
        log_dir=str(tmp_path),
        display="none",
        cache=True,
    )
    assert_complete(second, 6)
    events = model_events(second)
    assert len(events) == 6 and all(e.cache == "read" for e in events)
    assert [s.output.completion for s in sorted(first.samples, key=lambda s: s.id)] == [
        s.output.completion for s in sorted(second.samples, key=lambda s: s.id)
    ]


def test_through_openai_compatible_server(
    llama_server: LocalServer, sample_path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "sk-planted-secret-4242"
    monkeypatch.setenv("LOCAL_API_KEY", secret)
    task = medhallu(dataset=sample_path, limit=3, not_sure=True)
    [log] = eval(
        task,
        model=f"openai-api/local/{llama_server.model}",
        model_base_url=llama_server.base_url,
        log_dir=str(tmp_path),
        log_format="json",  # plain text, so the key check below can read it
        display="none",
        max_connections=2,
    )
    assert_complete(log, 6)
    assert log.eval.model == f"openai-api/local/{llama_server.model}"
    assert all(e.error is None for e in model_events(log))
    names = set(log_metrics(log))
    assert "response_rate" in names
    # The API key never reaches the log.
    assert all(
        secret not in p.read_text(errors="ignore") for p in tmp_path.rglob("*") if p.is_file()
    )


def test_real_dataset_with_embedded_model(
    tiny_model: str, shared_data: Path, tmp_path: Path
) -> None:
    task = medhallu(dataset=str(shared_data / "medhallu" / "pqa_labeled_dev.jsonl"), limit=2)
    [log] = eval(task, model=tiny_model, log_dir=str(tmp_path), display="none")
    assert_complete(log, 4)


def test_structured_verdicts_and_probabilities_on_the_embedded_model(
    tiny_model: str, sample_path: str, tmp_path: Path
) -> None:
    """Constrained decoding leaves no reply unreadable; the verdict token's probabilities
    give AUROC and average precision, equal to scikit-learn's on the kept probabilities."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    task = medhallu(dataset=sample_path, limit=6, structured=True, probabilities=True)
    [log] = eval(task, model=tiny_model, log_dir=str(tmp_path), display="none")
    assert_complete(log, 12)
    metrics = log_metrics(log)
    assert metrics["unparseable"] == 0
    kept = [
        (s.metadata["label"], s.scores["detection_verdict"].metadata["p_hallucinated"])
        for s in log.samples
    ]
    assert all(p is not None and 0 <= p <= 1 for _, p in kept)
    labels, probabilities = [label for label, _ in kept], [p for _, p in kept]
    assert metrics["auroc"] == pytest.approx(roc_auc_score(labels, probabilities))
    assert metrics["average_precision"] == pytest.approx(
        average_precision_score(labels, probabilities)
    )
    assert all('"verdict"' in s.output.completion for s in log.samples)
