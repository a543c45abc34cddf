"""Logs to audit: a MedHal and a MedHallu run on outputs written elsewhere (no model needed,
verdicts known), each in its own folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from medhalbench.cli import cli
from medhalbench.examples import illustrative

MEDHAL = illustrative("medhal_illustrative.jsonl")
MEDHALLU = illustrative("medhallu_illustrative.jsonl")


def _eval(args: list[str], folder: Path) -> Path:
    result = CliRunner().invoke(cli, ["eval", *args, "--log-dir", str(folder)])
    assert result.exit_code == 0, result.stderr
    [log] = folder.glob("*.eval")
    return log


@pytest.fixture
def medhal_log(tmp_path: Path) -> Path:
    """A MedHal log of eight replies: factual, then not factual, in turn."""
    rows = [json.loads(line) for line in Path(MEDHAL).read_text().splitlines()]
    replies = tmp_path / "replies.jsonl"
    replies.write_text(
        "".join(
            json.dumps({"id": r["id"], "reply": "Factual: NO\nExplanation: wrong dose."
                        if i % 2 else "Factual: YES"}) + "\n"
            for i, r in enumerate(rows)
        )
    )  # fmt: skip
    return _eval(
        ["medhal", "--dataset", MEDHAL, "--split", "train", "--responses", str(replies),
         "--embedder", "none"],
        tmp_path / "medhal",
    )  # fmt: skip


@pytest.fixture
def medhallu_log(tmp_path: Path) -> Path:
    """A MedHallu log whose replies say factual or hallucinated in turn."""
    rows = [json.loads(line) for line in Path(MEDHALLU).read_text().splitlines()]
    replies = tmp_path / "detector.jsonl"
    replies.write_text(
        "".join(
            json.dumps({"id": f"{r['pubid']}-{kind}",
                        "reply": "1 - hallucinated" if (i + j) % 2 else "**0**"}) + "\n"
            for i, r in enumerate(rows)
            for j, kind in enumerate(("ground_truth", "hallucinated"))
        )
    )  # fmt: skip
    return _eval(
        ["medhallu", "--dataset", MEDHALLU, "--responses", str(replies)], tmp_path / "medhallu"
    )


DAHL_ANSWERS = {
    "What does aspirin inhibit?": "Aspirin inhibits COX-1. Aspirin inhibits COX-2. Aspirin is an antibiotic.",
    "What is metformin?": "Metformin is a biguanide. Metformin raises blood glucose.",
}
DAHL_CHECKS = {"antibiotic": "False.", "raises": "Hmm, partly true?", "COX-2": "**True** [1]"}


def dahl_reply(prompt: str) -> str:
    """A model answering DAHL's questions, splitting and checking (replies in varied styles)."""
    if "one fact" in prompt:
        text = prompt.split("TEXT:")[-1].split("SENTENCES:")[0]
        return "\n".join(s.strip() + "." for s in text.strip().split(".") if s.strip())
    if "true or false" in prompt.lower():
        unit = prompt.split("Statement:")[-1]
        return next((r for cue, r in DAHL_CHECKS.items() if cue in unit), "True")
    return next(a for q, a in DAHL_ANSWERS.items() if q in prompt)


@pytest.fixture
def dahl_log(tmp_path: Path) -> Path:
    """A DAHL log of two answers split into five units, checked in several styles."""
    from inspect_ai import eval as inspect_eval

    from helpers import scripted_model
    from medhalbench.dahl import dahl

    questions = tmp_path / "questions.csv"
    questions.write_text("question,category\n" + "".join(f"{q},x\n" for q in DAHL_ANSWERS))
    model = scripted_model(dahl_reply)
    [log] = inspect_eval(
        dahl(dataset=str(questions), paper_protocol=False),
        model=model,
        model_roles={"splitter": model, "checker": model},
        log_dir=str(tmp_path / "dahl"),
        display="none",
    )
    return Path(log.location)
