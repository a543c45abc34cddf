"""GGUF export: llama.cpp (the embedded engine) running the exported weights decodes like
transformers does, on the tiny llama model (SmolLM2's architecture, grouped-query attention
included, and its tokenizer; random weights whose greedy replies differ by prompt)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from medhalbench.medhal._train import load_base
from medhalbench.models import Engine, EngineSettings
from medhalbench.models._gguf_export import export_gguf

pytestmark = pytest.mark.slow

PROMPTS = [
    "What is the capital of France?",
    "Name one symptom of asthma.",
    "Is aspirin an NSAID?",
]


def test_exported_weights_decode_like_transformers(tiny_model: str, tmp_path: Path) -> None:
    model, tokenizer, gguf = load_base(tiny_model, precision="float32")
    assert gguf is not None
    path = export_gguf(model.state_dict(), gguf, tmp_path / "f32.gguf", dtype="f32")
    engine = Engine(EngineSettings(path=str(path), n_ctx=512, parallel=1, n_threads=1))
    replies: list[list[int]] = []
    for prompt in PROMPTS:
        ids = tokenizer.apply_chat_template(
            [{"role": "user", "content": prompt}],
            add_generation_prompt=True,
            return_dict=True,
            return_tensors="pt",
        )["input_ids"]
        with torch.inference_mode():
            expected = model.generate(ids, max_new_tokens=10, do_sample=False)[0][
                ids.shape[1] :
            ].tolist()
        reply = engine.complete(
            {
                "prompt": ids[0].tolist(),
                "max_tokens": 10,
                "temperature": 0.0,
                "top_k": 1,
                "logprobs": 1,
            }
        )
        produced = [t["id"] for t in reply["choices"][0]["logprobs"]["content"]]
        assert produced == expected[: len(produced)], (prompt, produced, expected)
        replies.append(produced)
    assert sum(map(len, replies)) >= 10 and len({tuple(r) for r in replies}) == len(PROMPTS)
