"""A score given as the verdict is read only where the prompt asked for one, against the
threshold it states; elsewhere it is never a verdict."""

from __future__ import annotations

import dataclasses

import pytest

from medhalbench.dahl import parse_truth_verdicts, read_truth_verdict
from medhalbench.judging import prepare_reply, read_stance
from medhalbench.medhal import parse_factual_verdict
from medhalbench.medhallu import parse_detection_verdict
from medhalbench.medhallu._verdicts import DETECTION_SCHEMA

SCORED = dataclasses.replace(DETECTION_SCHEMA, score=(0.5, "fails"))


@pytest.mark.parametrize(
    "reply",
    ["P(hallucinated) = 0.9", "0.9", "Score: 85%", "Probability: 0.2", "I'd put it at 0.5."],
)
def test_a_score_is_no_verdict_where_none_was_asked(reply: str) -> None:
    assert parse_detection_verdict(reply).label is None


@pytest.mark.parametrize(
    ("reply", "stance"),
    [
        ("P(hallucinated) = 0.9", "fails"),
        ("0.3", "holds"),
        ("Score: 85%", "fails"),
        ("probability: 0.5", "fails"),  # at the threshold: the class the score is of
        ("P(factual) = 0.9", "holds"),  # the class named inside P(...) decides
        ("P(hallucinated) ≈ 0.9, so my answer is 1.", "fails"),
        ("P(hallucinated) ≈ 0.9, so my answer is 0.", None),  # the cues disagree
        ("Score: 7", None),  # no score from 0 to 1
    ],
)
def test_a_score_is_read_against_the_threshold_the_prompt_states(
    reply: str, stance: str | None
) -> None:
    assert read_stance(prepare_reply(reply), SCORED).verdict == stance


def test_each_benchmark_reads_the_score_of_its_own_question() -> None:
    assert int(parse_detection_verdict("0.7", score_threshold=0.6).label) == 1  # type: ignore[arg-type]
    assert int(parse_detection_verdict("0.5", score_threshold=0.6).label) == 0  # type: ignore[arg-type]
    assert parse_factual_verdict("0.7", score_threshold=0.6).factual is True
    assert parse_factual_verdict("0.5", score_threshold=0.6).factual is False
    assert read_truth_verdict("P(true) = 0.8").verdict is None
    assert read_truth_verdict("P(true) = 0.8", 0.5).verdict == "true"
    assert parse_truth_verdicts("1. 0.9\n2. 0.1", 0.5) == ["true", "false"]


@pytest.mark.parametrize(
    ("benchmark", "needs"),
    [
        ("medhallu", "--prompt"),
        ("medhal", "--prompt"),
        ("dahl", "--check-prompt, --check-batch-prompt or --evidence-prompt"),
    ],
)
def test_a_threshold_is_refused_without_a_prompt_that_asks_for_a_score(
    benchmark: str, needs: str
) -> None:
    from click.testing import CliRunner

    from medhalbench.cli import cli

    given = ["eval", benchmark, "--dataset", "example", "--score-threshold", "0.5"]
    result = CliRunner().invoke(cli, given)
    assert result.exit_code == 2
    assert "--score-threshold: needs" in result.stderr and needs in result.stderr
