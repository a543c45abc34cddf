"""Helpers shared by tests: scripted models, log readers, local servers."""

from __future__ import annotations

import contextlib
import json
import socket
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig, Model, ModelOutput, ModelUsage, get_model

from medhalbench.arguments import SETTINGS_KEY
from medhalbench.results import RunFacts, RunRecord
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


def reply_corpus(path: Path) -> list[dict[str, Any]]:
    """A benchmark's reply corpus: replies in many models' styles, each with the reading a
    careful reader gives it (`expected`), its `style` and, where written, its `kind`."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def corpus_disagreements(
    cases: list[dict[str, Any]], reading: Callable[[dict[str, Any]], tuple[Any, Any]]
) -> list[tuple[Any, ...]]:
    """The cases a parser reads otherwise than the careful reader (verdict, and the
    explanation where the case states one); prints the agreement by kind."""
    wrong = []
    for case in cases:
        label, explanation = reading(case)
        if label != case["expected"] or explanation != case.get("explanation", explanation):
            wrong.append((case.get("kind", case["style"]), case["reply"], case["expected"], label))
    kinds = Counter(c.get("kind", c["style"]) for c in cases)
    missed = Counter(w[0] for w in wrong)
    print(f"\nagreement {1 - len(wrong) / len(cases):.3f} on {len(cases)} replies")
    for kind, n in sorted(kinds.items()):
        print(f"  {kind}: {n - missed[kind]}/{n}")
    return wrong


def reply_texts() -> Any:
    """A hypothesis strategy of model replies: any text, and verdict-like words inside text."""
    from hypothesis import strategies as st

    return st.one_of(
        st.text(max_size=80),
        st.sampled_from(
            [
                "0",
                "1",
                "2",
                "Not sure",
                "not 1",
                "1 or 0",
                "Factual: YES",
                "Factual: no",
                "True",
                "false",
                "yes",
                "Answer 2",
            ]
        ).flatmap(
            lambda s: st.tuples(st.text(max_size=15), st.text(max_size=15)).map(
                lambda t: t[0] + s + t[1]
            )
        ),
    )


@contextlib.contextmanager
def stub_at(reply: Callable[[list[dict[str, Any]]], str]) -> Iterator[str]:
    """An OpenAI-compatible server on 127.0.0.1 answering with `reply` (chat completions and
    the Responses API, as `openai-api/` and `openai/` call them); yields its base URL."""
    from stub_server import serve

    port = free_port()
    server = serve(port, 0.0, reply=reply)
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.shutdown()
        server.server_close()


def record_of(settings: Mapping[str, Any]) -> RunRecord:
    """A run's record as its log would hold it, from a test's settings by name: the facts a
    task computes (`RunFacts`: fingerprints, rows, ...) taken as such, the rest as the
    task's settings, and its temperature and max tokens as sent (unless the replies were
    written elsewhere)."""
    sent = ("temperature", "max_tokens")
    given = {
        k: v
        for k, v in settings.items()
        if k not in RunFacts.model_fields and not (k in sent and v is None)
    }
    config = GenerateConfig(
        temperature=given.get("temperature"), max_tokens=given.get("max_tokens")
    )
    return RunRecord.of({**settings, SETTINGS_KEY: given}, config)
