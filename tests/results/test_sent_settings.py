"""A run's generation settings are reported as they were sent, whichever route set them: the
task's default, a task argument (`-T`, our options, a suite) or inspect's own options."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalLog

from helpers import scripted_model
from medhalbench import load_runs
from medhalbench.dahl import dahl
from medhalbench.examples import illustrative
from medhalbench.medhal import medhal
from medhalbench.medhallu import medhallu
from medhalbench.results import run_result

TASKS = {"medhallu": medhallu, "dahl": dahl, "medhal": medhal}
EXAMPLES = {
    "medhallu": "medhallu_illustrative.jsonl",
    "dahl": "dahl_illustrative.csv",
    "medhal": "medhal_illustrative.jsonl",
}


def _sent(log: EvalLog) -> tuple[float | None, int | None]:
    assert log.samples
    events = [e for e in log.samples[0].events if isinstance(e, ModelEvent) and e.role is None]
    config = events[0].config
    return config.temperature, config.max_tokens


@pytest.mark.parametrize("name", sorted(TASKS))
@pytest.mark.parametrize(
    ("task_args", "eval_args", "expected"),
    [
        ({"temperature": 0.5, "max_tokens": 55}, {}, (0.5, 55)),
        ({}, {"temperature": 0.9, "max_tokens": 77}, (0.9, 77)),
        ({"temperature": 0.5}, {"temperature": 0.9, "max_tokens": 77}, (0.9, 77)),
    ],
)
def test_settings_reported_are_those_sent(
    name: str,
    task_args: dict[str, float],
    eval_args: dict[str, float],
    expected: tuple[float, int],
    tmp_path: Path,
) -> None:
    task = TASKS[name](dataset=illustrative(EXAMPLES[name]), limit=1, **task_args)
    model = scripted_model(lambda prompt: "- A fact.\nTrue. 0. Factual: yes.")
    [log] = eval(
        task,
        model=model,
        model_roles={"splitter": model, "checker": model},
        log_dir=str(tmp_path),
        display="none",
        **eval_args,
    )
    assert _sent(log) == expected
    settings = run_result(log).settings
    assert (settings["temperature"], settings["max_tokens"]) == expected
    row = load_runs(tmp_path).iloc[0]
    assert (row["temperature"], row["max_tokens"]) == expected
    assert "temperature" not in (log.eval.metadata or {})  # no second copy to go stale
