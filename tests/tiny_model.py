"""A tiny llama-architecture GGUF with random weights, written at test time, for tests whose
point is the pipeline (engine, provider, inspect, scorer, log), not the replies: it carries
SmolLM2's tokenizer and chat template, so prompts are tokenised and templated exactly as the
embedded default's, and it decodes in a fraction of the 135M model's time.

Its replies are short runs of random tokens that differ from prompt to prompt and end by
themselves: a share of the vocabulary (`ENDING_SHARE`) carries a direction of the embedding
that only the end-of-turn token's output row reads, so the turn ends soon after one of them
is written (without it every reply would run to its max tokens, and cost more than
SmolLM2's). A test that needs readable replies uses the realistic server (`realistic_model`)
or SmolLM2.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from gguf import GGUFReader, GGUFValueType, GGUFWriter

from medhalbench.models import smollm2_gguf_path

TINY_MODEL = "tiny-random-llama"
"""The model's `general.name`."""
ENDING_SHARE = 0.15
"""The share of the vocabulary after which the turn ends (replies of about 1/0.15 tokens)."""

# What sets the model's shape, and what the writer sets itself: not copied from SmolLM2.
_OWN_KEYS = ("GGUF.", "general.", "llama.")
_WRITERS: dict[GGUFValueType, Callable[[GGUFWriter, str, Any], None]] = {
    GGUFValueType.STRING: GGUFWriter.add_string,
    GGUFValueType.BOOL: GGUFWriter.add_bool,
    GGUFValueType.UINT32: GGUFWriter.add_uint32,
    GGUFValueType.INT32: GGUFWriter.add_int32,
    GGUFValueType.FLOAT32: GGUFWriter.add_float32,
    GGUFValueType.ARRAY: GGUFWriter.add_array,
}
# Layer weights large enough that the prompt moves the reply (small ones leave every reply
# the same), and how strongly an ending token calls for the end of turn.
_LAYER_SCALE = 2.0
_ENDING_WEIGHT = 3.0
_END_WEIGHT = 4.0


def write_tiny_model(
    path: Path, *, dim: int = 64, layers: int = 2, heads: int = 4, kv_heads: int = 2, seed: int = 0
) -> Path:
    """Write the tiny model (about 13 MB: the vocabulary's embeddings are most of it).

    Args:
        path: The GGUF file to write.
        dim: Embedding width.
        layers: Transformer blocks.
        heads: Attention heads.
        kv_heads: Key/value heads (grouped-query attention, as SmolLM2 has).
        seed: Seed of the random weights (the same seed writes the same file).

    Returns:
        The path written.
    """
    source = GGUFReader(str(smollm2_gguf_path()))
    writer = GGUFWriter(str(path), "llama")
    for key, field in source.fields.items():
        if not key.startswith(_OWN_KEYS):  # the tokenizer and the chat template
            _WRITERS[field.types[0]](writer, key, field.contents())
    vocab = len(source.fields["tokenizer.ggml.tokens"].data)
    end_of_turn = int(source.fields["tokenizer.ggml.eos_token_id"].contents())
    ffn = 2 * dim
    writer.add_name(TINY_MODEL)
    writer.add_context_length(8192)
    writer.add_embedding_length(dim)
    writer.add_block_count(layers)
    writer.add_feed_forward_length(ffn)
    writer.add_head_count(heads)
    writer.add_head_count_kv(kv_heads)
    writer.add_rope_freq_base(100000.0)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_vocab_size(vocab)
    writer.add_rope_dimension_count(dim // heads)
    writer.add_file_type(1)  # mostly float16
    rng = np.random.default_rng(seed)
    # Dimension 0 is the "end soon" direction: only ending tokens write it, only the end of
    # turn's output row reads it.
    embeddings = rng.standard_normal((vocab, dim))
    embeddings[:, 0] = np.where(rng.random(vocab) < ENDING_SHARE, _ENDING_WEIGHT, 0.0)
    outputs = rng.standard_normal((vocab, dim))
    outputs[:, 0] = 0.0
    outputs[end_of_turn] = 0.0
    outputs[end_of_turn, 0] = _END_WEIGHT * np.sqrt(dim)
    writer.add_tensor("token_embd.weight", embeddings.astype(np.float16))
    writer.add_tensor("output.weight", outputs.astype(np.float16))
    writer.add_tensor("output_norm.weight", np.ones(dim, dtype=np.float32))
    kv = kv_heads * (dim // heads)
    shapes = {
        "attn_q": (dim, dim), "attn_k": (kv, dim), "attn_v": (kv, dim),
        "attn_output": (dim, dim), "ffn_gate": (ffn, dim), "ffn_up": (ffn, dim),
        "ffn_down": (dim, ffn),
    }  # fmt: skip
    for block in range(layers):
        for norm in ("attn_norm", "ffn_norm"):
            writer.add_tensor(f"blk.{block}.{norm}.weight", np.ones(dim, dtype=np.float32))
        for name, (rows, columns) in shapes.items():
            scaled = rng.standard_normal((rows, columns)) * _LAYER_SCALE / np.sqrt(columns)
            writer.add_tensor(f"blk.{block}.{name}.weight", scaled.astype(np.float16))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path
