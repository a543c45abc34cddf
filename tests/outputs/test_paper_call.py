"""`--paper-call ROUTE`: each benchmark calls the model under test as its authors' script did
on that route (their message layout and generation settings, our prompts unless given as
files), through the openai SDK as installed against a server on 127.0.0.1; the log records
the request as sent. Settings the call sets are refused beside it, in one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from inspect_ai.log import EvalLog, read_eval_log, resolve_sample_attachments
from inspect_ai.log._transcript import ModelEvent

from helpers import stub_at
from medhalbench.cli import cli
from medhalbench.examples import illustrative

MODEL = "openai-api/stub/under-test"
JUDGE = "openai-api/stub/judge"


def reply(messages: list[dict[str, Any]]) -> str:
    return "True" if "Statement:" in str(messages[-1].get("content")) else "0"


def run(tmp_path: Path, benchmark: str, dataset: str, *extra: str) -> EvalLog:
    with stub_at(reply) as base_url:
        result = CliRunner(env={"STUB_API_KEY": "sk-local", "STUB_BASE_URL": base_url}).invoke(
            cli,
            ["eval", benchmark, "--dataset", dataset, "--model", MODEL, "--limit", "1",
             "--log-dir", str(tmp_path), "--bootstrap", "0", "--no-cache", "--display", "none",
             *extra],
        )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    [log] = [read_eval_log(str(p)) for p in tmp_path.glob("*.eval")]
    return log


def sent(log: EvalLog) -> dict[str, Any]:
    """The first request the model under test was sent, as the log records it."""
    for sample in log.samples or []:
        for event in resolve_sample_attachments(sample, "full").events:
            if isinstance(event, ModelEvent) and event.model == MODEL and event.call:
                return event.call.request
    raise AssertionError("no call of the model under test")


def ours(log: EvalLog) -> tuple[str, str]:
    """The system prompt and user message of the sample, in our layout (a question alone has
    no system prompt of its own)."""
    [sample, *_] = log.samples or []
    if isinstance(sample.input, str):
        return "", sample.input
    return str(sample.input[0].text), str(sample.input[-1].text)


def test_medhallu_routes_send_one_user_message_with_their_settings(tmp_path: Path) -> None:
    data = illustrative("medhallu_illustrative.jsonl")
    log = run(tmp_path / "open", "medhallu", data, "--paper-call", "open")
    system, user = ours(log)
    request = sent(log)
    assert request["messages"] == [{"role": "user", "content": f"{system} {user}"}]
    assert (request["temperature"], request["top_p"], request["max_tokens"]) == (0.3, 0.95, 512)
    assert "seed" not in request  # theirs sent none; a seed asked for is sent
    assert log.plan.config.seed is None
    asked = run(tmp_path / "seeded", "medhallu", data, "--paper-call", "open", "--reply-seed", "7")
    assert sent(asked)["seed"] == 7
    request = sent(run(tmp_path / "openai", "medhallu", data, "--paper-call", "openai"))
    assert request["messages"] == [{"role": "user", "content": f"{system} {user}"}]
    # With knowledge, their f-string printed the abstract's passages as a Python list.
    knowledge = run(tmp_path / "knowledge", "medhallu", data, "--paper-call", "open", "--knowledge")
    [sample, *_] = knowledge.samples or []
    row = next(
        json.loads(line)
        for line in Path(data).read_text().splitlines()
        if str(sample.id).startswith(str(json.loads(line)["pubid"]) + "-")
    )
    assert str(row["Knowledge"]) in sent(knowledge)["messages"][0]["content"]
    assert (request["temperature"], request["max_tokens"]) == (0.3, 4) and "top_p" not in request
    # Ours: a system message and a user message, at our settings.
    request = sent(run(tmp_path / "ours", "medhallu", data))
    assert [m["role"] for m in request["messages"]] == ["system", "user"]
    assert (request["temperature"], request["max_tokens"], request["seed"]) == (0.3, 128, 0)


def test_medhal_sends_their_one_prompt_at_their_settings(tmp_path: Path) -> None:
    log = run(
        tmp_path, "medhal", illustrative("medhal_illustrative.jsonl"), "--paper-call", "open",
        "--embedder", "none",
    )  # fmt: skip
    system, user = ours(log)
    request = sent(log)
    assert request["messages"] == [{"role": "user", "content": f"{system}\n{user}"}]
    assert (request["temperature"], request["top_p"], request["max_tokens"]) == (0, 1, 4096)


def test_dahl_routes_send_their_answering_call(tmp_path: Path) -> None:
    data = illustrative("dahl_illustrative.csv")
    question = read_eval_question(tmp_path, data)
    instruction = "Answer the biomedical exam question below."
    prompts = tmp_path / "theirs"
    prompts.mkdir()
    (prompts / "answer_instruction.txt").write_text(instruction)
    request = sent(
        run(tmp_path / "openai", "dahl", data, "--judge", JUDGE, "--paper-call", "openai",
            "--paper-prompts", str(prompts))
    )  # fmt: skip
    assert request["messages"] == [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": f"{instruction}\n {question}"},
    ]
    assert request["temperature"] == 0.6 and "max_tokens" not in request
    request = sent(run(tmp_path / "open", "dahl", data, "--judge", JUDGE, "--paper-call", "open"))
    assert request["messages"] == [
        {"role": "user", "content": f"instruction\nQUESTION: {question}\nANSWER: "}
    ]
    assert (request["temperature"], request["top_p"], request["max_tokens"]) == (0.6, 0.9, 256)


def read_eval_question(tmp_path: Path, data: str) -> str:
    """The first question a DAHL run of one question asks (ours, in our layout)."""
    return ours(run(tmp_path / "first", "dahl", data, "--judge", JUDGE))[1]


@pytest.mark.parametrize(
    ("benchmark", "dataset", "args", "culprits"),
    [
        ("medhallu", "medhallu_illustrative.jsonl", ["--paper-call", "open", "--temperature", "0.9"],
         ["--temperature", "--paper-call"]),
        ("medhallu", "medhallu_illustrative.jsonl", ["--paper-call", "openai", "--structured"],
         ["--structured", "--paper-call"]),
        ("medhal", "medhal_illustrative.jsonl", ["--paper-call", "openai"],
         ["--paper-call", "openai", "open"]),
        ("dahl", "dahl_illustrative.csv", ["--paper-call", "open", "--max-tokens", "64"],
         ["--max-tokens", "--paper-call"]),
    ],
)  # fmt: skip
def test_what_the_call_sets_is_refused_beside_it(
    benchmark: str, dataset: str, args: list[str], culprits: list[str]
) -> None:
    result = CliRunner().invoke(
        cli, ["eval", benchmark, "--dataset", illustrative(dataset), "--dry-run", *args]
    )
    assert result.exit_code == 2, result.output
    [line] = [x for x in result.stderr.splitlines() if x.strip()]
    assert all(c in line for c in culprits) and "Traceback" not in result.output, line
