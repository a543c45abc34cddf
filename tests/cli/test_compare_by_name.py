"""`medhalbench compare` takes runs by name within a log folder (`--log-dir`, default `logs/`):
the name the report shows, or the log's file stem. A name that finds no run, or several, is
one line listing the runs, exit code 2."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from inspect_ai import eval as inspect_eval

from helpers import scripted_model
from medhalbench.cli import cli
from medhalbench.commands._log_names import named_logs
from medhalbench.dahl import dahl
from medhalbench.examples import illustrative
from medhalbench.medhal import medhal
from medhalbench.medhallu import medhallu
from medhalbench.report import collect, run_names
from stub_server import canned_reply

pytestmark = pytest.mark.xdist_group("compare-by-name")  # one folder of logs, made once

MEDHALLU = illustrative("medhallu_illustrative.jsonl")


def _reply(prompt: str) -> str:
    return canned_reply([{"content": prompt}])


@pytest.fixture(scope="module")
def _made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of named logs: MedHallu without and with knowledge, MedHal and DAHL."""
    folder = tmp_path_factory.mktemp("named") / "logs"
    model = scripted_model(_reply)
    logs = inspect_eval(
        [
            medhallu(dataset=MEDHALLU, limit=3),
            medhallu(dataset=MEDHALLU, limit=3, knowledge=True),
            medhal(dataset="example", limit=2),
            dahl(dataset="example", limit=1),
        ],
        model=model, model_roles={"splitter": model, "checker": model}, log_dir=str(folder),
        display="none",
    )  # fmt: skip
    assert [log.status for log in logs] == ["success"] * 4
    named_logs(logs)
    return folder


@pytest.fixture
def logs(_made: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The named logs in `logs/` of the test's own working folder."""
    monkeypatch.chdir(tmp_path)
    return Path(shutil.copytree(_made, tmp_path / "logs"))


def compare(*args: str) -> Result:
    return CliRunner().invoke(cli, ["compare", *args, "--bootstrap", "50"])


def error_line(result: Result) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1, (result.exit_code, result.stderr)
    assert "Traceback" not in result.output
    return lines[0]


def test_runs_are_compared_by_their_log_stems(logs: Path) -> None:
    assert sorted(p.name for p in logs.iterdir()) == [
        "dahl_mockllm-model.eval",
        "medhal_mockllm-model.eval",
        "medhallu_mockllm-model.eval",
        "medhallu_mockllm-model_knowledge.eval",
    ]
    result = compare("medhallu_mockllm-model", "medhallu_mockllm-model_knowledge.eval")
    assert result.exit_code == 0, result.stderr
    flat = " ".join(result.stdout.split())
    assert "A: medhallu_mockllm-model.eval; B: medhallu_mockllm-model_knowledge.eval" in flat


def test_runs_are_compared_by_the_names_the_report_shows(logs: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    runs = collect([logs]).runs
    shown = dict(zip((Path(r.log).stem for r in runs), run_names(runs), strict=True))
    assert shown["medhallu_mockllm-model_knowledge"] == "MedHallu · mockllm/model · knowledge yes"
    result = CliRunner().invoke(
        cli,
        ["compare", shown["medhallu_mockllm-model"], "medhallu mockllm/model knowledge yes",
         "--log-dir", str(logs), "--bootstrap", "50"],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    flat = " ".join(result.stdout.split())
    assert "A: medhallu_mockllm-model.eval; B: medhallu_mockllm-model_knowledge.eval" in flat
    # A log file given as before.
    by_file = compare(str(logs / "medhallu_mockllm-model.eval"), "medhallu_mockllm-model_knowledge")
    assert by_file.exit_code == 0, by_file.stderr


def test_a_name_of_no_run_is_one_line_listing_the_runs(logs: Path, tmp_path: Path) -> None:
    line = error_line(compare("medhallu_mockllm-model", "medhallu_gpt-4o"))
    assert line.startswith("error: ") and "logs: no log file or run named 'medhallu_gpt-4o'" in line
    assert line.endswith(
        "the runs there: dahl_mockllm-model, medhal_mockllm-model, medhallu_mockllm-model, "
        "medhallu_mockllm-model_knowledge"
    ), line
    line = error_line(compare("a.eval", "b", "--log-dir", str(tmp_path / "none")))
    assert "no log file or run named 'a.eval'" in line and "no folder" in line


def test_a_name_of_several_runs_is_one_line_naming_them(logs: Path) -> None:
    # Without its benchmark, the report's name of a run may be another benchmark's too.
    assert "MedHal · mockllm/model" in run_names(collect([logs]).runs)
    line = error_line(compare("mockllm/model", "medhallu_mockllm-model"))
    assert "'mockllm/model' names 2 runs: " in line and "give the log file" in line
    assert "dahl_mockllm-model.eval" in line and "medhal_mockllm-model.eval" in line
    # With it, each names one: found, then refused as runs of different benchmarks.
    line = error_line(compare("MedHal · mockllm/model", "DAHL mockllm/model"))
    assert "different benchmarks (medhal and dahl)" in line, line
    # Two folders holding a run of the same name.
    copy = logs / "again"
    copy.mkdir()
    shutil.copy(logs / "medhal_mockllm-model.eval", copy)
    line = error_line(compare("medhal_mockllm-model", "medhallu_mockllm-model"))
    assert "'medhal_mockllm-model' names 2 runs: " in line and "give the log file" in line
    assert "again/medhal_mockllm-model.eval" in line


def test_part_of_a_name_that_names_one_run_alone_finds_it(logs: Path) -> None:
    # As the summary's row shows a run (its condition is the column's), or any part of its
    # name that no other run's holds.
    result = compare("MedHallu mockllm/model knowledge yes", "medhallu · knowledge no")
    assert result.exit_code == 0, result.stderr
    flat = " ".join(result.stdout.split())
    assert "A: medhallu_mockllm-model_knowledge.eval; B: medhallu_mockllm-model.eval" in flat
    line = error_line(compare("medhallu mockllm/model", "medhal_mockllm-model"))
    assert "'medhallu mockllm/model' names 2 runs: " in line, line
