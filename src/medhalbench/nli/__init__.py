"""Natural language inference: P(premise entails hypothesis) and bidirectional entailment."""

from medhalbench.nli._base import NLIModel, bidirectional_entailment, entailment
from medhalbench.nli._llm import LLMNLI
from medhalbench.nli._transformers import DEFAULT_NLI_MODEL, TransformersNLI, entailment_index


def load_nli(spec: str, *, cache: bool = True) -> NLIModel:
    """An NLI model from a command-line spec.

    Args:
        spec: `llm` (the embedded model as judge), `llm:MODEL` (any inspect model as
            judge), or a transformers model name or local path (e.g.
            `microsoft/deberta-large-mnli`).
        cache: Cache LLM judge calls.
    """
    from medhalbench.models import DEFAULT_MODEL

    if spec == "llm":
        return LLMNLI(DEFAULT_MODEL, cache=cache)
    if spec.startswith("llm:"):
        return LLMNLI(spec[4:], cache=cache)
    return TransformersNLI(spec)


__all__ = [
    "DEFAULT_NLI_MODEL",
    "LLMNLI",
    "NLIModel",
    "TransformersNLI",
    "bidirectional_entailment",
    "entailment",
    "entailment_index",
    "load_nli",
]
