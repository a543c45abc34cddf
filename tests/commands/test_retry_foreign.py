"""`retry` of a log of another task (not a medhalbench benchmark) is refused in one line
before any work: nothing runs, nothing is written."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from inspect_ai import Task, task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, get_model
from inspect_ai.scorer import match

from medhalbench.cli import cli


@task
def other_task() -> Task:
    return Task(dataset=[Sample(input="2+2?", target="4")], scorer=match())


def test_retry_of_another_tasks_log_is_refused_before_any_work(tmp_path: Path) -> None:
    model = get_model("mockllm/model", custom_outputs=[ModelOutput.from_content("m", "4")])
    [log] = inspect_eval(other_task(), model=model, log_dir=str(tmp_path), display="none")
    before = sorted(tmp_path.iterdir())
    result = CliRunner().invoke(cli, ["retry", log.location, "--force"])
    assert result.exit_code == 2, result.output
    [line] = [x for x in result.stderr.splitlines() if x.strip()]
    assert "other_task, no medhalbench benchmark" in line and "inspect eval-retry" in line
    assert sorted(tmp_path.iterdir()) == before  # no new log, nothing changed beside it


@task(name="medhallu")
def another_package_medhallu() -> Task:
    """Another package's task that shares a benchmark's short name."""
    return Task(dataset=[Sample(input="2+2?", target="4")], scorer=match())


def test_retry_of_a_same_named_task_of_another_package_is_refused(tmp_path: Path) -> None:
    model = get_model("mockllm/model", custom_outputs=[ModelOutput.from_content("m", "4")])
    [log] = inspect_eval(
        another_package_medhallu(), model=model, log_dir=str(tmp_path), display="none"
    )
    assert log.eval.task == "medhallu"  # not medhalbench/medhallu
    before = sorted(tmp_path.iterdir())
    result = CliRunner().invoke(cli, ["retry", log.location, "--force"])
    assert result.exit_code == 2, result.output
    assert "a log of medhallu, no medhalbench benchmark" in result.stderr
    assert sorted(tmp_path.iterdir()) == before
