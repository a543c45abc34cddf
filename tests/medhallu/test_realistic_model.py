"""MedHallu end to end against a realistic model behind an OpenAI-compatible server, through
the `openai` SDK as installed: the figures are those the model's intended verdicts give, read
as a careful reader reads each reply style (and, with the extractor, the idioms too)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai.log import read_eval_log

import realistic_model
from authors_code import authors_calculate_metrics
from helpers import log_metrics, stub_at
from medhalbench.cli import cli
from medhalbench.examples import illustrative
from realistic_model import DETECTION_STYLES, RealisticModel, detection_truth

DATASET = illustrative("medhallu_illustrative.jsonl")


def expected_figures(labels: list[int], readings: list[int | None]) -> dict[str, float]:
    from sklearn.metrics import f1_score, precision_score, recall_score

    predicted = [r == 1 for r in readings]  # unread and factual are not positive
    return {
        "f1": f1_score(labels, predicted),
        "precision": precision_score(labels, predicted),
        "recall": recall_score(labels, predicted),
    }


def run(tmp_path: Path, base_url: str, *extra: str) -> None:
    result = CliRunner(env={"REALISTIC_API_KEY": "sk-local"}).invoke(
        cli,
        [
            "eval", "medhallu", "--dataset", DATASET, "--model", "openai-api/realistic/llama-3",
            "--model-base-url", base_url, "--log-dir", str(tmp_path), "--bootstrap", "0",
            "--no-cache", "--display", "none", *extra,
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr


def test_medhallu_through_the_openai_sdk_with_and_without_the_extractor(tmp_path: Path) -> None:
    model = RealisticModel(detection=detection_truth(DATASET))
    with stub_at(model) as base_url:
        run(tmp_path / "strict", base_url)
        run(
            tmp_path / "extracted", base_url,
            "--extractor", "openai-api/realistic/extractor",
        )  # fmt: skip
    replies = model.of("detection")
    assert len({r.key for r in replies}) == 24  # both answers of 12 rows
    kinds = {r.style.kind for r in replies}
    assert len(kinds) >= 8, kinds  # many families' styles in one run
    [strict_log] = [read_eval_log(str(p)) for p in (tmp_path / "strict").glob("*.eval")]
    [extracted_log] = [read_eval_log(str(p)) for p in (tmp_path / "extracted").glob("*.eval")]
    assert strict_log.eval.model == "openai-api/realistic/llama-3"
    by_answer = {r.key: r for r in replies}
    labels, careful, with_extractor, texts, difficulties = [], [], [], [], []
    for sample in strict_log.samples or []:
        answer = str(sample.input[-1].text).split("Answer:", 1)[1].rsplit("Your judgement", 1)[0]
        reply = by_answer[answer.strip()]
        labels.append(int(sample.metadata["label"]))
        careful.append(int(reply.intended) if reply.style.readable else None)
        extractable = reply.style.readable or reply.style.extractable
        with_extractor.append(int(reply.intended) if extractable else None)
        texts.append(reply.text)  # as the server sent it: a reasoning block included
        difficulties.append(str(sample.metadata["difficulty"]))
    m = log_metrics(strict_log)
    for name, value in expected_figures(labels, careful).items():
        assert m[name] == pytest.approx(value), name
    assert m["unparseable"] == sum(r is None for r in careful) > 0
    assert m["read_by_extractor"] == 0
    # The paper column: the authors' calculate_metrics on the same replies, as sent.
    assert any("<think>" in t for t in texts)
    theirs = authors_calculate_metrics(labels, texts, difficulties)
    for name in ("f1", "precision", "recall", "not_sure_rate"):
        assert m[f"paper_{name}"] == pytest.approx(theirs[name]), name
    e = log_metrics(extracted_log)
    for name, value in expected_figures(labels, with_extractor).items():
        assert e[name] == pytest.approx(value), name
    idioms = sum(r.style.extractable for r in by_answer.values())
    assert e["read_by_extractor"] == idioms > 0
    # The figures without the extractor's readings equal the strict run's.
    assert e["strict_f1"] == pytest.approx(m["f1"])
    assert "extractor" in {k for k in (extracted_log.eval.model_roles or {})}


def test_every_style_is_read_as_a_careful_reader_reads_it() -> None:
    from medhalbench.medhallu import parse_detection_verdict

    for style in DETECTION_STYLES:
        for verdict in ("0", "1"):
            read = parse_detection_verdict(style.write(verdict)).label
            expected = int(verdict) if style.readable else None
            assert (None if read is None else int(read)) == expected, (style.kind, verdict)


def test_the_paper_column_reads_a_reasoning_block_as_the_server_sent_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """inspect moves a `<think>` block out of the reply; the authors' scorer read the text as
    the server sent it, so the paper column does, and ours reads the answer after the block."""
    [reasoning] = [s for s in DETECTION_STYLES if s.kind == "reasoning"]
    monkeypatch.setattr(realistic_model, "DETECTION_STYLES", [reasoning])
    model = RealisticModel(detection=detection_truth(DATASET))
    with stub_at(model) as base_url:
        run(tmp_path, base_url, "--limit", "6")
    [log] = [read_eval_log(str(p)) for p in tmp_path.glob("*.eval")]
    by_answer = {r.key: r for r in model.of("detection")}
    labels, sent, completions, difficulties, careful = [], [], [], [], []
    for sample in log.samples or []:
        answer = str(sample.input[-1].text).split("Answer:", 1)[1].rsplit("Your judgement", 1)[0]
        reply = by_answer[answer.strip()]
        labels.append(int(sample.metadata["label"]))
        sent.append(reply.text)
        completions.append(sample.output.completion)
        difficulties.append(str(sample.metadata["difficulty"]))
        careful.append(int(reply.intended))
    assert all(t.startswith("<think>") for t in sent)
    assert not any("<think>" in c for c in completions)  # inspect split the block off
    m = log_metrics(log)
    theirs = authors_calculate_metrics(labels, sent, difficulties)
    on_completions = authors_calculate_metrics(labels, completions, difficulties)
    assert theirs["f1"] != pytest.approx(on_completions["f1"])  # the block matters here
    for name in ("f1", "precision", "recall", "not_sure_rate"):
        assert m[f"paper_{name}"] == pytest.approx(theirs[name]), name
    assert m["f1"] == pytest.approx(expected_figures(labels, careful)["f1"])  # ours: the answer
