"""The judge rule, one function for the command line and for inspect's own CLI: a judge role
nobody named gets the embedded model only when no real model is involved."""

from __future__ import annotations

import pytest

from medhalbench.models import embedded_may_judge


@pytest.mark.parametrize(
    ("involved", "allowed"),
    [
        (["embedded/smollm2"], True),
        (["embedded//abs/model.gguf", "embedded/smollm2"], True),
        (["none/none"], True),
        ([], True),
        (["openai/gpt-4o"], False),
        (["embedded/smollm2", "openai-api/local/m"], False),
        (["system/gpt-4o-answers"], False),  # a real system's outputs, judged for real
    ],
)
def test_embedded_judges_only_when_no_real_model_is_involved(
    involved: list[str], allowed: bool
) -> None:
    assert embedded_may_judge(involved) is allowed
