"""The packaged tokenizer is the one transformers converts from the embedded model's GGUF."""

from __future__ import annotations

import json

import pytest

from medhalbench.planning import count_tokens
from medhalbench.planning._tokens import convert_tokenizer, tokenizer


@pytest.mark.slow
def test_packaged_tokenizer_is_the_converted_one() -> None:
    converted = convert_tokenizer()
    assert json.loads(tokenizer().to_str()) == json.loads(converted.to_str())
    texts = ["Is aspirin an antibiotic?", "  naïve\tβ-blockers, 5 mg/kg — q.d.\n\n", "🙂" * 3]
    assert count_tokens(texts) == [
        len(e.ids) for e in converted.encode_batch(texts, add_special_tokens=False)
    ]
