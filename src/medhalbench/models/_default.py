"""The default model used wherever a command needs one and none is named."""

from __future__ import annotations

DEFAULT_MODEL = "embedded/smollm2"
"""SmolLM2-135M-Instruct, in-process. Weak: it proves pipelines run, not model quality."""
