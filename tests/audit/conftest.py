"""Logs to audit: a MedHal, a MedHallu and a DAHL run on outputs written elsewhere (no model
needed, verdicts known), each made once per test process and copied into each test's own
folder (a test may write answers beside it)."""

from __future__ import annotations

import shutil
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


def _copied(log: Path, folder: Path) -> Path:
    folder.mkdir()
    return Path(shutil.copy(log, folder / log.name))


@pytest.fixture(scope="session")
def _medhal_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("audit-medhal")
    replies = write_jsonl(
        folder / "replies.jsonl",
        (
            {
                "id": r["id"],
                "reply": "Factual: NO\nExplanation: wrong dose." if i % 2 else "Factual: YES",
            }
            for i, r in enumerate(read_jsonl(MEDHAL))
        ),
    )
    return _eval(
        ["medhal", "--dataset", MEDHAL, "--responses", str(replies),
         "--embedder", "none"],
        folder / "medhal",
    )  # fmt: skip


@pytest.fixture
def medhal_log(_medhal_log: Path, tmp_path: Path) -> Path:
    """A MedHal log of eight replies: factual, then not factual, in turn."""
    return _copied(_medhal_log, tmp_path / "medhal")


@pytest.fixture(scope="session")
def _medhallu_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("audit-medhallu")
    replies = write_jsonl(
        folder / "detector.jsonl",
        (
            {"id": f"{r['pubid']}-{kind}", "reply": "1 - hallucinated" if (i + j) % 2 else "**0**"}
            for i, r in enumerate(read_jsonl(MEDHALLU))
            for j, kind in enumerate(("ground_truth", "hallucinated"))
        ),
    )
    return _eval(
        ["medhallu", "--dataset", MEDHALLU, "--responses", str(replies)], folder / "medhallu"
    )


@pytest.fixture
def medhallu_log(_medhallu_log: Path, tmp_path: Path) -> Path:
    """A MedHallu log whose replies say factual or hallucinated in turn."""
    return _copied(_medhallu_log, tmp_path / "medhallu")


DAHL_ANSWERS = {
    "What does aspirin inhibit?": "Aspirin inhibits COX-1. Aspirin inhibits COX-2. Aspirin is an antibiotic.",
    "What is metformin?": "Metformin is a biguanide. Metformin raises blood glucose.",
}
DAHL_CHECKS = {"antibiotic": "False.", "raises": "Hmm, partly true?", "COX-2": "**True** [1]"}


@pytest.fixture(scope="session")
def _dahl_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    reply = dahl_replies(
        DAHL_ANSWERS,
        lambda unit: next((r for cue, r in DAHL_CHECKS.items() if cue in unit), "True"),
    )
    folder = tmp_path_factory.mktemp("audit-dahl")
    log = dahl_run(DAHL_ANSWERS, reply, folder / "dahl", paper_protocol=False)
    return Path(log.location)


@pytest.fixture
def dahl_log(_dahl_log: Path, tmp_path: Path) -> Path:
    """A DAHL log of two answers split into five units, checked in several styles."""
    return _copied(_dahl_log, tmp_path / "dahl")
