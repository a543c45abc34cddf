"""Logs to audit: a MedHal and a MedHallu run on outputs written elsewhere (no model needed,
verdicts known), each in its own folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import dahl_replies, dahl_run, read_jsonl, write_jsonl
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
    replies = write_jsonl(
        tmp_path / "replies.jsonl",
        (
            {
                "id": r["id"],
                "reply": "Factual: NO\nExplanation: wrong dose." if i % 2 else "Factual: YES",
            }
            for i, r in enumerate(read_jsonl(MEDHAL))
        ),
    )
    return _eval(
        ["medhal", "--dataset", MEDHAL, "--split", "train", "--responses", str(replies),
         "--embedder", "none"],
        tmp_path / "medhal",
    )  # fmt: skip


@pytest.fixture
def medhallu_log(tmp_path: Path) -> Path:
    """A MedHallu log whose replies say factual or hallucinated in turn."""
    replies = write_jsonl(
        tmp_path / "detector.jsonl",
        (
            {"id": f"{r['pubid']}-{kind}", "reply": "1 - hallucinated" if (i + j) % 2 else "**0**"}
            for i, r in enumerate(read_jsonl(MEDHALLU))
            for j, kind in enumerate(("ground_truth", "hallucinated"))
        ),
    )
    return _eval(
        ["medhallu", "--dataset", MEDHALLU, "--responses", str(replies)], tmp_path / "medhallu"
    )


DAHL_ANSWERS = {
    "What does aspirin inhibit?": "Aspirin inhibits COX-1. Aspirin inhibits COX-2. Aspirin is an antibiotic.",
    "What is metformin?": "Metformin is a biguanide. Metformin raises blood glucose.",
}
DAHL_CHECKS = {"antibiotic": "False.", "raises": "Hmm, partly true?", "COX-2": "**True** [1]"}


@pytest.fixture
def dahl_log(tmp_path: Path) -> Path:
    """A DAHL log of two answers split into five units, checked in several styles."""
    reply = dahl_replies(
        DAHL_ANSWERS,
        lambda unit: next((r for cue, r in DAHL_CHECKS.items() if cue in unit), "True"),
    )
    log = dahl_run(DAHL_ANSWERS, reply, tmp_path / "dahl", paper_protocol=False)
    return Path(log.location)
