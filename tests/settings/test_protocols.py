"""Knobs whose default is their build protocol's: unset, each takes its protocol's value; one
a protocol does not use is refused by name when given, never silently ignored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import pytest
from click.testing import CliRunner

from medhalbench.cli import cli
from medhalbench.settings import ByProtocol, NotTaken, ProtocolSettings, SettingsError


class Knobs(ProtocolSettings):
    rounds: Annotated[int | None, ByProtocol(5, 3)] = None
    length: Annotated[float | None, ByProtocol(0.1, NotTaken("theirs has no length check"))] = None


class Request(Knobs):
    """Knobs inherited, as a builder's request extends its knobs."""

    name: str = "x"


def test_unset_knobs_take_their_protocols_values_when_validated() -> None:
    assert (Request().rounds, Request().length) == (5, 0.1)
    paper = Request.of(protocol="paper")
    assert (paper.rounds, paper.length) == (3, None)
    given = Request.of(protocol="paper", rounds=1)
    assert given.rounds == 1  # given: honoured
    assert Request.of(given.model_dump()) == given  # read back: the same record
    assert Request.read(given.stored()) == given


def test_a_knob_the_protocol_does_not_take_is_refused_by_name() -> None:
    with pytest.raises(SettingsError) as refused:
        Request.of(protocol="paper", length=0.2, rounds=0.5)
    problems = {p.setting: p.reason for p in refused.value.problems}
    assert "theirs has no length check" in problems["length"]
    assert "rounds" in problems  # every setting at fault, at once


@pytest.fixture
def pubmedqa(tmp_path: Path) -> str:
    path = tmp_path / "ori_pqal.json"
    entry = {"QUESTION": "Does drug X help?", "CONTEXTS": ["It was tested."], "LABELS": [],
             "MESHES": [], "final_decision": "yes", "LONG_ANSWER": "Yes, drug X helps."}  # fmt: skip
    path.write_text(json.dumps({"1": entry, "2": entry}))
    return str(path)


PAPER = ["--protocol", "paper", "--model", "embedded/smollm2", "--dry-run",
         *(["--discriminator", "embedded/smollm2"] * 3)]  # fmt: skip


def _generator_calls(output: str) -> str:
    row = next(line for line in output.splitlines() if "│ generator" in line)
    return row.split("│")[3].strip()


def test_the_paper_build_plans_the_attempts_given(pubmedqa: str, tmp_path: Path) -> None:
    base = ["build", "medhallu", "--pubmedqa", pubmedqa, "--out", str(tmp_path / "o"), *PAPER]
    theirs = CliRunner().invoke(cli, base)
    one = CliRunner().invoke(cli, [*base, "--attempts", "1"])
    assert theirs.exit_code == 0 and one.exit_code == 0, theirs.output + one.output
    # Two questions; a fresh and a rewritten candidate per attempt: their five, or one.
    assert _generator_calls(theirs.output) == "2–20" and _generator_calls(one.output) == "2–4"


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["build", "medhallu", "--tau", "0.5", *PAPER], "--tau"),
        (["build", "medhallu", "--length-tolerance", "0.2", *PAPER], "--length-tolerance"),
        (["build", "medhallu", "--generate-prompt", "PROMPT", *PAPER], "--generate-prompt"),
        (
            [
                "build",
                "medhal",
                "--source",
                "medqa=x.json",
                "--max-tokens",
                "100",
                "--protocol",
                "paper",
                "--dry-run",
            ],
            "--max-tokens",
        ),  # fmt: skip
        (
            ["build", "dahl", "--papers", ".", "--cases", "--protocol", "paper", "--dry-run"],
            "--cases",
        ),  # fmt: skip
        (
            ["dahl", "filter", "QUESTIONS", "--out", "kept.csv", "--cases", "--protocol", "paper"],
            "--cases",
        ),  # fmt: skip
    ],
)
def test_a_knob_not_taken_by_the_paper_protocol_is_refused(
    args: list[str], flag: str, pubmedqa: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("PROMPT").write_text("{question}")
    Path("QUESTIONS").write_text("question\nWhat is aspirin?\n")
    if args[:2] == ["build", "medhallu"]:
        args = [*args[:2], "--pubmedqa", pubmedqa, "--out", "o", *args[2:]]
    if args[:2] in (["build", "medhal"], ["build", "dahl"]):
        args = [*args, "--out", "o"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    [line] = [x for x in result.stderr.splitlines() if x.strip()]
    assert flag in line and "not taken by --protocol paper" in line
    assert not Path("o").exists() and not Path("kept.csv").exists()


@pytest.mark.parametrize(
    ("args", "targets"),
    [([], 7), (["--all-projections"], 7), (["--no-all-projections"], 4)],
)
def test_medhal_train_under_paper_trains_all_seven_projections_unless_told(
    args: list[str], targets: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from medhalbench.medhal import _train

    taken: dict[str, Any] = {}

    def train(request: _train.TrainRequest, **_: Any) -> Any:
        taken["recipe"] = _train.recipe(request, examples=100)
        return _train.TrainResult(base=request.base, examples=0, steps=0, seconds=0.0)

    monkeypatch.setattr(_train, "train_medhal", train)
    result = CliRunner().invoke(
        cli, ["medhal", "train", "--data", str(tmp_path), "--out", str(tmp_path / "e"),
              "--protocol", "paper", *args],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert len(taken["recipe"].targets) == targets
    assert taken["recipe"].lora_r == 64 and taken["recipe"].schedule == "linear"
