"""An NLI model from a command-line spec: an LLM judge or a transformers model."""

from __future__ import annotations

from collections.abc import Callable

from inspect_ai.model import Model

from medhalbench.nli._base import NLIModel
from medhalbench.nli._llm import LLMNLI
from medhalbench.nli._transformers import TransformersNLI
from medhalbench.settings import DEFAULT_MODEL


def is_llm_judge(spec: str) -> bool:
    """Whether an NLI spec names an LLM judge (`llm` or `llm:MODEL`)."""
    return spec == "llm" or spec.startswith("llm:")


def llm_judge(spec: str) -> str | None:
    """The model an `llm:MODEL` spec names; None for `llm` (the command's default judge) and
    for a transformers NLI model."""
    return spec[4:] if spec.startswith("llm:") else None


def load_nli(
    spec: str, *, cache: bool = True, resolve: Callable[[str | None], Model] | None = None
) -> NLIModel:
    """An NLI model from a command-line spec.

    Args:
        spec: `llm` (the command's default model as judge), `llm:MODEL` (any inspect model
            as judge), or a transformers model name or local path (e.g.
            `microsoft/deberta-large-mnli`).
        cache: Cache LLM judge calls.
        resolve: Turns the judge's model name (None: the default judge) into a model, with
            the command's connection options; default: inspect's `get_model`, and the
            embedded model as the default judge.
    """
    if is_llm_judge(spec):
        name = llm_judge(spec)
        if resolve is not None:
            return LLMNLI(resolve(name), cache=cache)
        return LLMNLI(name or DEFAULT_MODEL, cache=cache)
    return TransformersNLI(spec)
