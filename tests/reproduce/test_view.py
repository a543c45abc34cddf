"""A table reproduced end to end against a stub server standing in for the provider: the
view sets each published cell beside ours, with the difference and the verdict."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from helpers import ScheduledStub, openai_served
from medhalbench.cli import cli
from medhalbench.examples import illustrative
from realistic_model import detection_truth

EXAMPLE = illustrative("medhallu_illustrative.jsonl")
TRUTH = detection_truth(EXAMPLE)
MODEL = "openai/gpt-4o-mini-2024-07-18"


def always_hallucinated(messages: list[dict[str, Any]]) -> str:
    return "1"


@pytest.fixture
def served_as() -> Iterator[dict[str, str]]:
    """The model names the stub's replies give, by the model asked for."""
    from stub_server import StubHandler

    yield StubHandler.served_as
    StubHandler.served_as.clear()


def reproduce(*args: str) -> Result:
    return CliRunner().invoke(cli, ["reproduce", "medhallu-table2", *args])


def test_one_model_of_table_2_reproduced_against_a_stub(
    paper_data: None, served_as: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served_as[MODEL.split("/", 1)[1]] = "gpt-4o-mini-2024-07-18-served"
    with openai_served(always_hallucinated, monkeypatch):
        result = reproduce("--model", MODEL, "--display", "none")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    view = out[out.index("MedHallu Table 2: Detection") :]
    # One model of fourteen: its ten cells, each beside the published figure, both verdicts.
    verdict = re.search(r"(\d+) of 140 cells reproduced, (\d+) not, 130 not run", view)
    assert verdict is not None, view
    assert int(verdict[1]) + int(verdict[2]) == 10 and int(verdict[1]) > 0 and int(verdict[2]) > 0
    assert view.count("GPT-4o mini") == 10 and "Not run: GPT-4o, Qwen2.5-14B-Instruct" in view
    assert "0.607" in view  # the published no-knowledge F1, beside ours
    # Each cell names the version the provider served (its replies' model), not ours.
    assert view.count("served") == 11  # its heading, and each cell's (wrapped or not)
    # The view again from the logs, calling nothing (no server now): the same cells as JSON.
    as_json = reproduce("--view", "--format", "json")
    assert as_json.exit_code == 0, as_json.stderr
    document = json.loads(as_json.stdout)
    tally = document["verdict"]
    assert (tally["reproduced"], tally["not_reproduced"]) == (int(verdict[1]), int(verdict[2]))
    assert tally["not_run"] == 130 and len(document["cells"]) == 140
    run = [c for c in document["cells"] if c["paper"] is not None]
    assert {c["model"] for c in run} == {"GPT-4o mini"}
    assert all(c["served"] == ["gpt-4o-mini-2024-07-18-served"] for c in run)
    for c in run:
        inside = c["paper"]["low"] <= c["published"] <= c["paper"]["high"]
        assert c["reproduced"] == inside
        assert c["difference"] == pytest.approx(c["paper"]["value"] - c["published"])
    # A LaTeX table for a paper, its verdict under it.
    written = reproduce("--view", "--out", "table2.tex")
    assert written.exit_code == 0 and "Wrote table2.tex" in written.stdout, written.stderr
    tex = (tmp_path / "table2.tex").read_text()
    assert "\\begin{table}" in tex and f"{verdict[0]}" in " ".join(tex.split())
    # The report of the table's folder sets the table after the summary, cell by cell.
    report = CliRunner().invoke(cli, ["report", "logs/medhallu-table2", "--out", "r.md"])
    assert report.exit_code == 0, report.stderr
    markdown = (tmp_path / "r.md").read_text()
    assert "MedHallu Table 2: Detection without and with knowledge" in markdown
    assert verdict[0] in markdown


def test_runs_on_other_data_or_made_otherwise_are_set_beside_no_table(
    paper_data: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The table's model and call on other data; on the paper's data, without the paper's call.
    made = (["--dataset", EXAMPLE, "--paper-call", "openai"],
            ["--dataset", "UTAustin-AIHealth/MedHallu", "--config", "pqa_labeled"])  # fmt: skip
    with openai_served(always_hallucinated, monkeypatch):
        for args in made:
            ran = CliRunner().invoke(
                cli, ["eval", "medhallu", *args, "--model", MODEL, "--pairing", "random",
                      "--log-dir", "logs/medhallu-table2", "--display", "none"],
            )  # fmt: skip
            assert ran.exit_code == 0, ran.stderr
    view = reproduce("--view")
    flat = " ".join(view.stdout.split())
    assert view.exit_code == 0 and "0 of 140 cells reproduced, 0 not, 140 not run" in flat
    report = CliRunner().invoke(cli, ["report", "logs", "--out", "r.html"])
    assert report.exit_code == 0, report.stderr
    assert "Papers&#39; tables reproduced" not in (tmp_path / "r.html").read_text()


def test_a_run_past_its_cost_limit_is_refused_and_a_stopped_one_resumes(
    paper_data: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "prices.yaml").write_text(f"{MODEL}: {{input: 0.15, output: 0.60}}\n")
    stub = ScheduledStub(lambda n: "ok")
    monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local-test")
    try:
        # Past the limit: refused before any call, the plan's cost named.
        refused = reproduce("--model", MODEL, "--prices", "prices.yaml", "--max-cost", "0.0001")
        assert refused.exit_code == 2 and stub.seen == 0, refused.stderr
        [line] = refused.stderr.strip().splitlines()
        assert "--max-cost" in line and "4 of 4 runs still to do may cost $" in line
        # A server that refuses from its 7th call on stops the run; it is finished by running
        # the same command again, each sample asked once in all.
        stub.schedule = lambda n: "ok" if n <= 6 else "400"
        stopped = reproduce("--model", MODEL, "--display", "none")
        assert stopped.exit_code == 2, stopped.stdout
        assert f"medhalbench reproduce medhallu-table2 --model {MODEL}" in stopped.stderr
        answered = 6
        stub.schedule = lambda n: "ok"
        before = stub.seen
        resumed = reproduce("--model", MODEL, "--prices", "prices.yaml", "--max-cost", "1",
                            "--display", "none")  # fmt: skip
        assert resumed.exit_code == 0, resumed.stderr
        # Four runs of one answer a row; nothing answered is asked again (a run on another
        # configuration of the same rows may be answered from the cache).
        samples = 4 * len(TRUTH) // 2
        assert 0 < stub.seen - before <= samples - answered
        assert "10 of 140 cells" not in resumed.stdout  # every cell of the model has a figure
        assert re.search(r"\d+ of 140 cells reproduced, \d+ not, 130 not run", resumed.stdout)
        # Every run finished: nothing more to spend, and nothing is called.
        again_before = stub.seen
        again = reproduce("--model", MODEL, "--prices", "prices.yaml", "--max-cost", "0")
        assert again.exit_code == 0 and "0 of 4 runs to do, at most $0.00" in again.stdout
        assert stub.seen == again_before
    finally:
        stub.stop()
