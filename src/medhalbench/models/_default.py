"""The default model used wherever a command needs one and none is named."""

from __future__ import annotations

import os

DEFAULT_MODEL = "embedded/smollm2"
"""SmolLM2-135M-Instruct, in-process. Weak: it proves pipelines run, not model quality."""


def model_or_default(model: str | None) -> str:
    """The model to use: the one named, else `INSPECT_EVAL_MODEL`, else the embedded default."""
    return model or os.environ.get("INSPECT_EVAL_MODEL") or DEFAULT_MODEL
