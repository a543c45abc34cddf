"""Outputs written elsewhere are matched to the samples they answer, by id, else by text;
what matches nothing is counted, a second output for one sample is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai.dataset import Sample

from medhalbench import DataError
from medhalbench.cli import cli
from medhalbench.outputs import GIVEN_OUTPUT, GivenOutput, match_outputs


def samples() -> list[Sample]:
    return [
        Sample(id=f"s{i}", input="q", metadata={"text": f"Statement {i}."}) for i in range(1, 5)
    ]


def keys(sample: Sample) -> tuple[str, str]:
    return str(sample.id), " ".join(str((sample.metadata or {})["text"]).lower().split())


def test_outputs_match_by_id_then_by_text_and_the_rest_are_counted() -> None:
    outputs = [
        GivenOutput(("s3", None), "by id", 1),
        GivenOutput((None, "statement 1."), "by text", 2),
        GivenOutput(("nope", "not a statement of the dataset"), "unmatched", 3),
    ]
    matched = match_outputs(samples(), outputs, keys, path="out.jsonl")
    assert [(s.id, (s.metadata or {})[GIVEN_OUTPUT]) for s in matched.samples] == [
        ("s1", "by text"),
        ("s3", "by id"),
    ]
    assert matched.not_in_dataset == 1 and matched.without_output == ["s2", "s4"]


def test_a_run_on_outputs_for_some_samples_says_how_many_were_left_out_and_which(
    tmp_path: Path,
) -> None:
    outputs = tmp_path / "out.jsonl"
    outputs.write_text(
        '{"id": "illustrative-01-ground_truth", "verdict": 0}\n'
        '{"id": "illustrative-01-hallucinated", "verdict": 1}\n'
    )
    result = CliRunner().invoke(
        cli, ["eval", "medhallu", "--dataset", "example", "--responses", str(outputs),
              "--system", "mine", "--log-dir", str(tmp_path / "logs"), "--display", "none"],
        terminal_width=400,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    flat = " ".join(result.stdout.split())
    assert (
        "2 samples, 0 unparseable, 22 of the dataset's samples without an output (left out: "
        in flat
    )
    assert (
        "illustrative-02-ground_truth, illustrative-02-hallucinated, " in flat and ", ...)" in flat
    )


def test_two_outputs_for_one_sample_are_refused_naming_the_line() -> None:
    outputs = [GivenOutput(("s1", None), "a", 1), GivenOutput((None, "statement 1."), "b", 7)]
    with pytest.raises(DataError, match=r"line 7.*second output for sample s1"):
        match_outputs(samples(), outputs, keys, path="out.jsonl")


def test_outputs_that_match_nothing_are_refused() -> None:
    with pytest.raises(DataError, match="none of its 1 outputs matches"):
        match_outputs(samples(), [GivenOutput(("x", "y"), "z", 1)], keys, path="out.jsonl")


def test_an_output_whose_text_two_samples_judge_is_refused_naming_both() -> None:
    twins = [*samples(), Sample(id="s9", input="q", metadata={"text": "Statement 2."})]
    with pytest.raises(DataError, match=r"line 4.*matches samples s2 and s9.*its sample's id"):
        match_outputs(twins, [GivenOutput((None, "statement 2."), "x", 4)], keys, path="o.jsonl")
    # By id it is no guess.
    kept = match_outputs(
        twins, [GivenOutput(("s9", "statement 2."), "x", 4)], keys, path="o"
    ).samples
    assert [s.id for s in kept] == ["s9"]
