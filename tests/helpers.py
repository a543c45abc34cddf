"""Helpers shared by tests: scripted models, log readers, local servers."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from inspect_ai.model import ChatMessage, GenerateConfig, Model, ModelOutput, ModelUsage, get_model

from medhalbench.results import log_metrics as log_metrics


def hallucinated_answers(path: str) -> set[str]:
    """The hallucinated answers of a MedHallu JSONL file."""
    return {json.loads(line)["Hallucinated Answer"] for line in Path(path).read_text().splitlines()}


def scripted_model(reply: Callable[[str], str], calls: list[str] | None = None) -> Model:
    """A mockllm model whose reply is a function of the last message (calls are recorded)."""

    def respond(
        messages: list[ChatMessage], tools: object, tool_choice: object, config: GenerateConfig
    ) -> ModelOutput:
        user = messages[-1].text
        if calls is not None:
            calls.append(user)
        output = ModelOutput.from_content(model="mockllm", content=reply(user))
        # Set usage so mockllm does not count tokens with tiktoken (a download, offline here).
        output.usage = ModelUsage(
            input_tokens=len(user.split()), output_tokens=1, total_tokens=len(user.split()) + 1
        )
        return output

    return get_model("mockllm/model", custom_outputs=respond)


@dataclass(frozen=True)
class LocalServer:
    """An OpenAI-compatible server running on 127.0.0.1 for a test session."""

    base_url: str
    model: str


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
