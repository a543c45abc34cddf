"""The tiny random model that pipeline tests run on: SmolLM2's tokenizer and chat template
through the real engine, short replies that end by themselves and differ from prompt to
prompt, the same on every run."""

from __future__ import annotations

from pathlib import Path

import pytest
from gguf import GGUFReader
from inspect_ai import eval

from medhalbench.medhallu import medhallu
from medhalbench.models import smollm2_gguf_path
from medhalbench.registry import benchmark
from tiny_model import TINY_MODEL

MAX_TOKENS = 24


def _replies(
    model: str, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], list[int], list[int]]:
    # A cache of its own: every reply is decoded, none read back from an earlier run.
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(folder / "cache"))
    task = medhallu(dataset=benchmark("medhallu").example, limit=6, max_tokens=MAX_TOKENS)
    [log] = eval(task, model=model, log_dir=str(folder / "logs"), display="none")
    assert log.status == "success", log.error
    samples = log.samples or []
    assert len(samples) == 12  # each row's ground truth and hallucinated answer
    usage = [s.output.usage for s in samples if s.output.usage]
    return (
        [s.output.completion for s in samples],
        [u.input_tokens for u in usage],
        [u.output_tokens for u in usage],
    )


def test_the_tiny_model_carries_smollm2s_tokenizer_and_a_shape_of_its_own(tiny_model: str) -> None:
    tiny = GGUFReader(tiny_model.removeprefix("embedded/"))
    smollm2 = GGUFReader(str(smollm2_gguf_path()))
    for key in ("tokenizer.ggml.tokens", "tokenizer.ggml.merges", "tokenizer.chat_template"):
        assert tiny.fields[key].contents() == smollm2.fields[key].contents(), key
    assert tiny.fields["general.name"].contents() == TINY_MODEL
    assert tiny.fields["llama.block_count"].contents() == 2
    assert Path(tiny_model.removeprefix("embedded/")).stat().st_size < 16_000_000


def test_a_task_runs_on_the_tiny_model_as_on_smollm2_and_repeats(
    tiny_model: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replies, prompt_tokens, reply_tokens = _replies(tiny_model, tmp_path / "first", monkeypatch)
    again, _, _ = _replies(tiny_model, tmp_path / "again", monkeypatch)
    assert replies == again  # the engine's single-sequence guarantee holds for it too
    assert len(set(replies)) > len(replies) // 2  # the prompt moves the reply
    # Replies end by themselves, most well before their max tokens.
    assert sum(n < MAX_TOKENS // 2 for n in reply_tokens) > len(reply_tokens) // 2
    # The same prompts, tokenised and templated as the default model's.
    _, smollm2_tokens, _ = _replies("embedded/smollm2", tmp_path / "smollm2", monkeypatch)
    assert prompt_tokens == smollm2_tokens
