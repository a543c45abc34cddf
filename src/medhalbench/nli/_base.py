"""The NLI interface and bidirectional entailment."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class NLIModel(Protocol):
    """Anything that gives P(premise entails hypothesis), batched.

    `None` means the model gave no readable judgement for that pair (LLM judges only).
    """

    name: str

    async def entailment_batch(self, pairs: Sequence[tuple[str, str]]) -> list[float | None]:
        """Entailment probabilities for (premise, hypothesis) pairs, in order."""
        ...


async def entailment(nli: NLIModel, premise: str, hypothesis: str) -> float | None:
    """P(premise entails hypothesis)."""
    [probability] = await nli.entailment_batch([(premise, hypothesis)])
    return probability


async def bidirectional_entailment(nli: NLIModel, a: str, b: str) -> float | None:
    """min(P(a entails b), P(b entails a)): high when the two texts say the same thing.

    Returns None when either direction got no readable judgement.
    """
    forward, backward = await nli.entailment_batch([(a, b), (b, a)])
    if forward is None or backward is None:
        return None
    return min(forward, backward)
