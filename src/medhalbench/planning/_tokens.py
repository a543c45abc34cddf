"""Counting prompt tokens offline, with the embedded model's tokenizer.

Every provider tokenises differently (GPT-4o's o200k, Llama's, ...); SmolLM2's BPE tokenizer is
the one available offline, so counts are estimates of the right order, not invoices.
"""

from __future__ import annotations

import gzip
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from inspect_ai.model import ChatMessage
from tokenizers import Tokenizer

from medhalbench.models import smollm2_gguf_path

TOKENIZER_NAME = "SmolLM2"
# Chat formatting adds a few tokens per message around its text.
MESSAGE_OVERHEAD = 4


PACKAGED = Path(__file__).with_name("smollm2-tokenizer.json.gz")
"""SmolLM2's tokenizer as `convert_tokenizer` writes it, shipped: converting it from the GGUF
file takes transformers and 6 s of CPU, a tenth of a first run
(tests/planning/test_tokens.py checks the two are the same)."""


@cache
def tokenizer() -> Tokenizer:
    """SmolLM2's tokenizer (the packaged copy)."""
    return Tokenizer.from_str(gzip.decompress(PACKAGED.read_bytes()).decode("utf-8"))


def convert_tokenizer() -> Tokenizer:
    """SmolLM2's tokenizer converted from the embedded model's GGUF file, as transformers
    reads it (what `PACKAGED` holds; to rewrite it: `gzip.compress(
    convert_tokenizer().to_str().encode(), mtime=0)`)."""
    from transformers import AutoTokenizer

    gguf = smollm2_gguf_path()
    converted = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    return converted.backend_tokenizer


def count_tokens(texts: Sequence[str | Sequence[ChatMessage]]) -> list[int]:
    """The token count of each text (of a chat: its messages' texts, one a line)."""
    if not texts:
        return []
    joined = [t if isinstance(t, str) else "\n".join(m.text for m in t) for t in texts]
    encoded = tokenizer().encode_batch(joined, add_special_tokens=False)
    return [len(e.ids) for e in encoded]
