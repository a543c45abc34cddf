"""Counting prompt tokens offline, with the embedded model's tokenizer.

Every provider tokenises differently (GPT-4o's o200k, Llama's, ...); SmolLM2's BPE tokenizer is
the one available offline, so counts are estimates of the right order, not invoices.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from tokenizers import Tokenizer

from medhalbench.models import smollm2_gguf_path

TOKENIZER_NAME = "SmolLM2"
# Chat formatting adds a few tokens per message around its text.
MESSAGE_OVERHEAD = 4


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "medhalbench"


@cache
def tokenizer() -> Tokenizer:
    """SmolLM2's tokenizer, converted from the GGUF file once and then read from the cache
    (`~/.cache/medhalbench/smollm2-tokenizer.json`)."""
    path = _cache_dir() / "smollm2-tokenizer.json"
    if not path.is_file():
        from transformers import AutoTokenizer

        gguf = smollm2_gguf_path()
        converted = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        converted.backend_tokenizer.save(str(partial))
        partial.replace(path)  # a reader never sees half a file
    return Tokenizer.from_file(str(path))


def count_tokens(texts: Sequence[str]) -> list[int]:
    """The token count of each text."""
    if not texts:
        return []
    encoded = tokenizer().encode_batch(list(texts), add_special_tokens=False)
    return [len(e.ids) for e in encoded]
