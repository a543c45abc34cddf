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
