"""Natural language inference: P(premise entails hypothesis) and bidirectional entailment."""

from collections.abc import Callable

from inspect_ai.model import Model

from medhalbench.nli._base import NLIModel, bidirectional_entailment, entailment
from medhalbench.nli._llm import LLM_NLI_MAX_TOKENS, LLMNLI, nli_prompt
from medhalbench.nli._transformers import DEFAULT_NLI_MODEL, TransformersNLI, entailment_index


def llm_judge(spec: str) -> str | None:
    """The model an NLI spec names as LLM judge (`llm`: the embedded model, `llm:MODEL`), or
    None for a transformers NLI model."""
    from medhalbench.models import DEFAULT_MODEL

    if spec == "llm":
        return DEFAULT_MODEL
    return spec[4:] if spec.startswith("llm:") else None


def load_nli(
    spec: str, *, cache: bool = True, resolve: Callable[[str], Model] | None = None
) -> NLIModel:
    """An NLI model from a command-line spec.

    Args:
        spec: `llm` (the embedded model as judge), `llm:MODEL` (any inspect model as
            judge), or a transformers model name or local path (e.g.
            `microsoft/deberta-large-mnli`).
        cache: Cache LLM judge calls.
        resolve: Turns a model name into a model (default: inspect's `get_model`), so that
            a judge gets the same connection options as the other roles.
    """
    name = llm_judge(spec)
    if name is not None:
        return LLMNLI(resolve(name) if resolve else name, cache=cache)
    return TransformersNLI(spec)


__all__ = [
    "DEFAULT_NLI_MODEL",
    "LLM_NLI_MAX_TOKENS",
    "LLMNLI",
    "NLIModel",
    "TransformersNLI",
    "bidirectional_entailment",
    "entailment",
    "entailment_index",
    "llm_judge",
    "load_nli",
    "nli_prompt",
]
