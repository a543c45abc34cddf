"""A reply as the provider sent it: inspect's OpenAI parser moves an inline `<think>` block
out of the completion and strips the text around it; the provider's response keeps the text
as sent, and `keep_text_as_sent` keeps it in the output for the paper columns. Reasoning sent
in a field or part of its own is not part of the text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import ChatCompletionChoice, ModelCall, ModelOutput
from inspect_ai.model._openai import chat_message_assistant_from_openai
from openai.types.chat import ChatCompletionMessage

from medhalbench.outputs import (
    PAPER_READS,
    TEXT_AS_SENT,
    keep_text_as_sent,
    paper_text,
    reply_as_sent,
    text_in_response,
)

LAYOUTS = {
    "before, spaced": "<think>\nIs it non-factual?\n</think>\n\nAnswer: 0",
    "before, compact": "<think>Is it non-factual?</think>\nAnswer: 0",
    "after": "Answer: 0\n<think>\nIs it non-factual? No.\n</think>",
    "block only": "<think>\nIs it non-factual?\n</think>",
    "none": "  Answer: 0\n\n",
}


def provider_result(**message: Any) -> tuple[ModelOutput, ModelCall]:
    """What inspect's OpenAI-compatible provider returns for a chat message: the parsed
    output, and the call's record holding the response."""
    sent = ChatCompletionMessage.model_validate({"role": "assistant", **message})
    choice = ChatCompletionChoice(message=chat_message_assistant_from_openai("m", sent, []))
    response = {"choices": [{"index": 0, "message": sent.model_dump()}]}
    return ModelOutput(model="m", choices=[choice]), ModelCall.create({}, response)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_text_is_kept_exactly_as_sent_in_every_layout(layout: str) -> None:
    output, call = provider_result(content=LAYOUTS[layout])
    assert paper_text([output]) == "completion"  # not kept yet: the completion is read
    keep_text_as_sent((output, call))
    assert reply_as_sent(output) == LAYOUTS[layout] and paper_text([output]) == "as sent"
    # Cached and logged as the output is: its metadata travels with it.
    again = ModelOutput.model_validate_json(output.model_dump_json())
    assert reply_as_sent(again) == LAYOUTS[layout]


def test_reasoning_in_a_field_of_its_own_is_not_part_of_the_text() -> None:
    output, call = provider_result(content="Answer: 0", reasoning_content="Is it non-factual?")
    keep_text_as_sent((output, call))
    assert reply_as_sent(output) == "Answer: 0"


def test_each_provider_layout_gives_its_text() -> None:
    assert text_in_response({"choices": [{"message": {"content": None}}]}) == ""
    parts = {
        "content": [
            {"type": "text", "text": "a "},
            {"type": "image_url"},
            {"type": "text", "text": "b"},
        ]
    }
    assert text_in_response({"choices": [{"message": parts}]}) == "a b"
    responses = {
        "output": [
            {"type": "reasoning", "summary": []},
            {"type": "message", "content": [{"type": "output_text", "text": " 1\n"}]},
        ]
    }
    assert text_in_response(responses) == " 1\n"
    anthropic = {
        "role": "assistant",
        "content": [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "0 "}],
    }
    assert text_in_response(anthropic) == "0 "
    google = {
        "candidates": [{"content": {"parts": [{"text": "x", "thought": True}, {"text": "1"}]}}]
    }
    assert text_in_response(google) == "1"
    assert text_in_response({"something": "else"}) is None


def test_nothing_is_kept_without_a_call_record_or_a_known_layout() -> None:
    output = ModelOutput.from_content("m", "<think>x</think>1")
    keep_text_as_sent(output)
    keep_text_as_sent((output, ModelCall.create({}, {"unknown": 1})))
    assert TEXT_AS_SENT not in (output.metadata or {})
    assert reply_as_sent(output) == output.completion and paper_text([output]) == "completion"
    assert reply_as_sent(None) == "" and reply_as_sent(ModelOutput(model="m")) == ""
    assert paper_text([None]) == "as sent"


def test_a_reply_served_from_the_cache_is_read_as_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The text as sent travels with the cached output: a rerun served from inspect's cache
    reads the same text, block after the answer and all, without calling the server."""
    from click.testing import CliRunner
    from inspect_ai.log import read_eval_log

    from helpers import stub_at
    from medhalbench.cli import cli
    from medhalbench.examples import illustrative

    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    text = "0\n<think>\nIs it non-factual? No.\n</think>"
    calls: list[str] = []

    def reply(messages: list[dict[str, Any]]) -> str:
        calls.append(text)
        return text

    logs = []
    with stub_at(reply) as base_url:
        for run in ("first", "cached"):
            result = CliRunner(env={"STUB_API_KEY": "sk-local", "STUB_BASE_URL": base_url}).invoke(
                cli,
                ["eval", "medhallu", "--dataset", illustrative("medhallu_illustrative.jsonl"),
                 "--model", "openai-api/stub/m", "--limit", "2", "--bootstrap", "0",
                 "--log-dir", str(tmp_path / run), "--display", "none"],
            )  # fmt: skip
            assert result.exit_code == 0, result.stderr
            [log] = [read_eval_log(str(p)) for p in (tmp_path / run).glob("*.eval")]
            logs.append(log)
    assert len(calls) == 4  # two rows' two answers, once: the rerun called nothing
    from medhalbench.judging import reader_version

    for log in logs:
        # Each log names the reader that read it, and what the paper column read.
        metadata = log.eval.metadata or {}
        assert (metadata["reader_version"], metadata["paper_reads"]) == (
            reader_version(),
            PAPER_READS,
        )
        scores = [s.scores["detection_verdict"].metadata for s in log.samples or []]
        # Their substring test finds "non" in the block after the answer: hallucinated.
        assert {(s["paper_text"], s["paper_prediction"]) for s in scores} == {("as sent", 1)}
        assert {s.output.completion for s in log.samples or []} == {"0"}
