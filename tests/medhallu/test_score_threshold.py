"""A prompt that asks the detector for a probability, read against the threshold given with
`--score-threshold`, end to end through the `openai` SDK against a stub server (without the
threshold a score is never a verdict: `tests/judging/test_score.py`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner
from inspect_ai.log import read_eval_log

from helpers import log_metrics, stub_at
from medhalbench.cli import cli
from medhalbench.examples import illustrative
from realistic_model import detection_truth

DATASET = illustrative("medhallu_illustrative.jsonl")
TRUTH = detection_truth(DATASET)


def probability(messages: list[dict[str, Any]]) -> str:
    """P(hallucinated) as a well-calibrated detector would give it."""
    prompt = str(messages[-1]["content"])
    answer = prompt.split("Answer:", 1)[1].rsplit("Your judgement", 1)[0].strip()
    return "P(hallucinated) = 0.85" if TRUTH[answer] == "1" else "0.10"


def run(tmp_path: Path, base_url: str, *extra: str) -> tuple[int, str]:
    tmp_path.mkdir()
    prompt = tmp_path / "probability.txt"
    prompt.write_text("Give the probability, from 0 to 1, that the answer is hallucinated.\n")
    result = CliRunner(env={"STUB_API_KEY": "sk-local"}).invoke(
        cli,
        [
            "eval", "medhallu", "--dataset", DATASET, "--limit", "4",
            "--model", "openai-api/stub/detector", "--model-base-url", base_url,
            "--log-dir", str(tmp_path / "logs"), "--bootstrap", "0", "--no-cache",
            "--display", "none", "--prompt", str(prompt), *extra,
        ],
    )  # fmt: skip
    return result.exit_code, result.stderr


def test_a_probability_is_read_only_against_a_stated_threshold(tmp_path: Path) -> None:
    with stub_at(probability) as base_url:
        assert run(tmp_path / "asked", base_url, "--score-threshold", "0.5")[0] == 0
    [asked] = [read_eval_log(str(p)) for p in (tmp_path / "asked/logs").glob("*.eval")]
    assert log_metrics(asked)["f1"] == 1.0 and log_metrics(asked)["unparseable"] == 0
    reasons = {s.scores["detection_verdict"].explanation for s in asked.samples or []}
    assert any("threshold 0.5" in str(r) for r in reasons), reasons
