"""MedHal end to end against a realistic model behind an OpenAI-compatible server, through
the `openai` SDK as installed (`openai-api/...` with --model-base-url): the figures are those
the intended verdicts give as a careful reader reads each style, the extractor's readings are
counted apart, and the paper column is what the authors' evaluate prints on the same replies."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai.log import read_eval_log

import realistic_model
from authors_code import authors_evaluate
from helpers import log_metrics, stub_at
from medhalbench.cli import cli
from medhalbench.embeddings import DEFAULT_EMBEDDER, Embedder
from realistic_model import FACTUAL_STYLES, RealisticModel, statement_truth

DATASET = str(Path(__file__).parent / "data" / "statements.jsonl")


def non_factual_figures(labels: list[bool], readings: list[bool | None]) -> dict[str, float]:
    from sklearn.metrics import f1_score, precision_score, recall_score

    actual = [not label for label in labels]
    predicted = [r is False for r in readings]  # unread is not a positive
    return {
        "f1": f1_score(actual, predicted),
        "precision": precision_score(actual, predicted),
        "recall": recall_score(actual, predicted),
    }


def test_medhal_through_the_openai_sdk_with_the_extractor(tmp_path: Path) -> None:
    model = RealisticModel(statements=statement_truth(DATASET))
    with stub_at(model) as base_url:
        result = CliRunner(env={"REALISTIC_API_KEY": "sk-local"}).invoke(
            cli,
            [
                "eval", "medhal", "--dataset", DATASET, "--model", "openai-api/realistic/qwen", "--model-base-url", base_url,
                "--extractor", "openai-api/realistic/extractor", "--log-dir", str(tmp_path),
                "--bootstrap", "0", "--no-cache", "--display", "none",
            ],
        )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    [log] = [read_eval_log(str(p)) for p in tmp_path.glob("*.eval")]
    replies = {r.key: r for r in model.of("medhal")}
    assert len(replies) == 20 and len({r.style.kind for r in replies.values()}) >= 6
    labels, strict, extracted, rows = [], [], [], []
    for sample in log.samples or []:
        statement = str(sample.input[-1].text).rsplit("Statement:", 1)[1].strip()
        reply = replies[statement]
        labels.append(bool(sample.metadata["label"]))
        intended = reply.intended == "yes"
        strict.append(intended if reply.style.readable else None)
        readable = reply.style.readable or reply.style.extractable
        extracted.append(intended if readable else None)
        rows.append(
            {"label": sample.metadata["label"], "source": sample.metadata["source"],
             "explanation": sample.metadata["explanation"], "output": reply.text}
        )  # fmt: skip
    m = log_metrics(log)
    for name, value in non_factual_figures(labels, extracted).items():
        assert m[name] == pytest.approx(value), name
    for name, value in non_factual_figures(labels, strict).items():
        assert m[f"strict_{name}"] == pytest.approx(value), name
    assert m["read_by_extractor"] == sum(r.style.extractable for r in replies.values()) > 0
    assert any("<think>" in row["output"] for row in rows)  # the authors read them as sent
    theirs = authors_evaluate(
        [{**row, "source": {"acn": "acm"}.get(str(row["source"]), row["source"])} for row in rows],
        Embedder(DEFAULT_EMBEDDER),
    )
    for name, value in theirs.items():
        assert m[name] == pytest.approx(value, abs=1e-6), name


def test_every_style_is_read_as_a_careful_reader_reads_it() -> None:
    from medhalbench.medhal import parse_factual_verdict

    for style in FACTUAL_STYLES:
        for verdict in ("yes", "no"):
            read = parse_factual_verdict(style.write(verdict)).factual
            assert read == ((verdict == "yes") if style.readable else None), (style.kind, verdict)


def test_the_paper_column_reads_a_reasoning_block_as_the_server_sent_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The authors' parser took the first yes/no of the text as the server sent it, a
    `<think>` block included (inspect moves the block out of the completion)."""
    [reasoning] = [s for s in FACTUAL_STYLES if s.kind == "reasoning"]
    monkeypatch.setattr(realistic_model, "FACTUAL_STYLES", [reasoning])
    model = RealisticModel(statements=statement_truth(DATASET))
    with stub_at(model) as base_url:
        result = CliRunner(env={"REALISTIC_API_KEY": "sk-local"}).invoke(
            cli,
            [
                "eval", "medhal", "--dataset", DATASET, "--limit", "8",
                "--model", "openai-api/realistic/qwen", "--model-base-url", base_url,
                "--log-dir", str(tmp_path), "--bootstrap", "0", "--no-cache", "--display", "none",
            ],
        )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    [log] = [read_eval_log(str(p)) for p in tmp_path.glob("*.eval")]
    replies = {r.key: r for r in model.of("medhal")}
    rows, completions = [], []
    for sample in log.samples or []:
        reply = replies[str(sample.input[-1].text).rsplit("Statement:", 1)[1].strip()]
        row = {"label": sample.metadata["label"], "source": sample.metadata["source"],
               "explanation": sample.metadata["explanation"], "output": reply.text}  # fmt: skip
        rows.append(row)
        completions.append({**row, "output": sample.output.completion})
    assert all(str(r["output"]).startswith("<think>") for r in rows)
    embedder = Embedder(DEFAULT_EMBEDDER)
    theirs = authors_evaluate(rows, embedder)
    on_completions = authors_evaluate(completions, embedder)
    assert theirs["format_matching_f1"] != pytest.approx(on_completions["format_matching_f1"])
    m = log_metrics(log)
    for name, value in theirs.items():
        assert m[name] == pytest.approx(value, abs=1e-6), name
