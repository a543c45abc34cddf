"""A table reproduced end to end against a stub server standing in for the provider: the
view sets each published cell beside ours, with the difference and the verdict."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from helpers import openai_served
from medhalbench.cli import cli
from medhalbench.examples import illustrative
from realistic_model import detection_truth

EXAMPLE = illustrative("medhallu_illustrative.jsonl")
TRUTH = detection_truth(EXAMPLE)
MODEL = "openai/gpt-4o-mini-2024-07-18"


def always_hallucinated(messages: list[dict[str, Any]]) -> str:
    return "1"


def test_one_model_of_table_2_reproduced_against_a_stub(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The hub is out of reach here: the paper's data stands as the packaged example rows.
    from medhalbench.medhallu import _dataset, _task

    monkeypatch.setattr(
        _task, "load_medhallu", lambda source, **kw: _dataset.load_medhallu(EXAMPLE)
    )
    monkeypatch.chdir(tmp_path)
    with openai_served(always_hallucinated, monkeypatch):
        result = CliRunner().invoke(
            cli, ["reproduce", "medhallu-table2", "--model", MODEL, "--display", "none"]
        )
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    view = out[out.index("MedHallu Table 2: Detection") :]
    # One model of fourteen: its ten cells, each beside the published figure, both verdicts.
    verdict = re.search(r"(\d+) of 140 cells reproduced, (\d+) not, 130 not run", view)
    assert verdict is not None, view
    assert int(verdict[1]) + int(verdict[2]) == 10 and int(verdict[1]) > 0 and int(verdict[2]) > 0
    assert view.count("GPT-4o mini") == 10 and "Not run: GPT-4o, Qwen2.5-14B-Instruct" in view
    assert "0.607" in view  # the published no-knowledge F1, beside ours
