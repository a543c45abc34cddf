"""A reply cannot make a sample spend without bound: each sample's model calls (every
attempt, every role) are counted against a ceiling derived from its benchmark's plan, and
past it the sample stops with a reason (a DAHL splitter's endless units; a failing call
retried past the ceiling by the model under test)."""

from __future__ import annotations

import math
from pathlib import Path

from click.testing import CliRunner
from inspect_ai import eval as inspect_eval

from helpers import ScheduledStub, dahl_replies, dahl_run, scripted_model, stub_at
from medhalbench._call_ceiling import CEILING_MARGIN, DEFAULT_TRIES
from medhalbench.cli import cli
from medhalbench.dahl import dahl
from medhalbench.examples import illustrative
from medhalbench.medhallu import medhallu
from medhalbench.registry import benchmark

QUESTION = "What does insulin do"


def endless_units(prompt: str) -> str:
    if "one fact" in prompt:
        return "\n".join(f"Insulin fact number {i} holds." for i in range(100))
    return dahl_replies({QUESTION: "Insulin lowers blood glucose."}, lambda _: "True")(prompt)


def test_a_splitter_reply_of_endless_units_stops_its_sample(tmp_path: Path) -> None:
    calls: list[str] = []
    model = scripted_model(endless_units, calls)
    path = tmp_path / "q.csv"
    path.write_text(f"question,category\n{QUESTION},x\n")
    task = dahl(dataset=str(path), max_calls_per_sample=40)
    [log] = inspect_eval(
        task, model=model, model_roles={"splitter": model, "checker": model},
        log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    assert log.status == "error" and log.error is not None
    assert "reached its ceiling of 40 model calls" in log.error.message
    assert len(calls) == 40  # the 41st call was never sent


def test_the_default_ceiling_is_the_plan_s_calls_times_margin_and_tries(tmp_path: Path) -> None:
    question = "What does glucagon do"  # not the question above, whose replies are cached
    replies = dahl_replies({question: "Glucagon raises blood glucose."}, lambda _: "True")
    log = dahl_run([question], replies, tmp_path)
    assert log.status == "success", log.error
    [sample] = log.samples or []
    task = dahl(dataset=str(tmp_path / "questions.csv"))
    planned = sum(e.calls for e in benchmark("dahl").implementation.plan(task, {}, None))
    ceiling, sample_id = sample.store["medhalbench:call_ceiling"]
    assert planned > 2 and ceiling == math.ceil(planned * CEILING_MARGIN) * DEFAULT_TRIES
    assert sample_id == sample.id and 0 < sample.store["medhalbench:calls"] <= planned


def test_the_model_under_test_past_its_ceiling_ends_that_sample_only(tmp_path: Path) -> None:
    """A solver's call past the ceiling ends the sample as a limit (inspect's own way): the
    others are run and the sample says why."""

    def failing(prompt: str) -> str:
        raise ConnectionError("a failure to retry")

    model = scripted_model(failing)
    model.api.should_retry = lambda ex: True  # type: ignore[method-assign]
    [log] = inspect_eval(
        medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=1,
                 max_calls_per_sample=1),
        model=model, max_retries=5, log_dir=str(tmp_path), display="none", cache=False,
    )  # fmt: skip
    samples = log.samples or []
    assert log.status == "success" and len(samples) == 2
    assert all(s.limit is not None and s.limit.type == "custom" for s in samples)
    assert all("ceiling of 1 model calls" in (s.limit.reason or "") for s in samples if s.limit)


def endless_units_to_any_question(messages: list[dict[str, object]]) -> str:
    prompt = str(messages[-1]["content"])
    return endless_units(prompt) if "one fact" in prompt else "True"


def test_the_command_line_names_the_ceiling_in_one_line(tmp_path: Path) -> None:
    with stub_at(endless_units_to_any_question) as base_url:
        model = ["--model", "openai-api/stub/m", "--model-base-url", base_url]
        result = CliRunner().invoke(
            cli,
            ["eval", "dahl", "--dataset", illustrative("dahl_illustrative.csv"), "--limit", "1",
             *model, "--splitter", "openai-api/stub/m", "--checker", "openai-api/stub/m",
             "--max-calls-per-sample", "30", "--no-cache", "--log-dir", str(tmp_path),
             "--display", "none"],
            env={"STUB_API_KEY": "EMPTY"},
        )  # fmt: skip
    lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert result.exit_code == 2, result.stderr
    assert len(lines) == 1 and "ceiling of 30 model calls" in lines[0], result.stderr
    assert "--max-calls-per-sample" in lines[0] and "Traceback" not in result.stderr


def test_a_run_whose_every_sample_hit_the_ceiling_prints_its_tables(tmp_path: Path) -> None:
    # The samples' outputs hold no reply (each call failed): the tables and the line on
    # replies that ended early read them without one.
    server = ScheduledStub(lambda n: "500")
    try:
        result = CliRunner().invoke(
            cli,
            ["eval", "medhallu", "--dataset", illustrative("medhallu_illustrative.jsonl"),
             "--limit", "1", "--model", "openai-api/stub/m", "--model-base-url",
             server.base_url, "--max-retries", "20", "--max-calls-per-sample", "2",
             "--no-cache", "--log-dir", str(tmp_path), "--display", "none"],
            env={"STUB_API_KEY": "EMPTY"},
        )  # fmt: skip
    finally:
        server.stop()
    assert result.exit_code == 0, result.output + result.stderr
    assert "2 samples, 2 unparseable" in " ".join(result.output.split())
    assert server.seen == 4  # 2 samples x 2 calls
