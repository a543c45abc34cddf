"""A reply as the provider sent it: inspect's OpenAI parser moves an inline `<think>` block
out of the completion; `reply_as_sent` puts it back, and leaves out reasoning sent in a
field of its own."""

from __future__ import annotations

from inspect_ai.model import ChatCompletionChoice, ModelOutput
from inspect_ai.model._openai import chat_message_assistant_from_openai
from openai.types.chat import ChatCompletionMessage

from medhalbench.outputs import reply_as_sent


def parsed(**message: object) -> ModelOutput:
    """The output inspect's OpenAI-compatible providers make of a chat message."""
    sent = ChatCompletionMessage.model_validate({"role": "assistant", **message})
    choice = ChatCompletionChoice(message=chat_message_assistant_from_openai("m", sent, []))
    return ModelOutput(model="m", choices=[choice])


def test_an_inline_block_is_put_back_and_a_separate_one_left_out() -> None:
    inline = parsed(content="<think>\nIs it non-factual?\n</think>\n\nAnswer: 0")
    assert inline.completion == "Answer: 0"
    assert reply_as_sent(inline) == "<think>\nIs it non-factual?\n</think>\n\nAnswer: 0"
    separate = parsed(content="Answer: 0", reasoning_content="Is it non-factual?")
    assert separate.completion == "Answer: 0" and reply_as_sent(separate) == "Answer: 0"
    assert reply_as_sent(parsed(content="1")) == "1"
    assert reply_as_sent(ModelOutput.from_content("m", "<think>x</think>1")) == "<think>x</think>1"
    assert reply_as_sent(None) == "" and reply_as_sent(ModelOutput(model="m")) == ""
