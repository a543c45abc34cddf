"""Reciprocal-rank fusion: several rankings of the same items made one (Cormack, Clarke and
Büttcher, SIGIR 2009), as MedRAG fuses BM25 with a dense retriever."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

from medhalbench.settings import RRF_K

T = TypeVar("T", bound=Hashable)


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[T]],
    *,
    k: int = RRF_K,
    weights: Sequence[float] | None = None,
) -> list[tuple[T, float]]:
    """Several rankings (each best first, items distinct within one) fused into one: each
    item scores the sum of weight / (k + rank) over the rankings that hold it (rank from 1;
    every weight 1 unless given: weighted RRF).

    Ties are broken by the best rank the item has in any ranking, then by the rankings'
    order (the first ranking's order first), so the result is the same whatever the order
    of equal scores in memory.

    Args:
        rankings: The rankings, best first.
        k: The fusion constant (larger: the top ranks weigh less against the rest).
        weights: Each ranking's weight (None: 1 each).

    Returns:
        Every item of any ranking with its fused score, best first.

    Raises:
        ValueError: k below 0, a weight below 0 or not one per ranking, or an item twice in
            one ranking.
    """
    if k < 0:
        raise ValueError(f"the fusion constant is {k}; it cannot be below 0")
    weights = [1.0] * len(rankings) if weights is None else list(weights)
    if len(weights) != len(rankings) or any(w < 0 for w in weights):
        raise ValueError(f"expected one weight of at least 0 per ranking, got {weights}")
    scores: dict[T, float] = {}
    best: dict[T, tuple[int, int]] = {}
    for which, ranking in enumerate(rankings):
        if len(set(ranking)) != len(ranking):
            raise ValueError(f"ranking {which + 1} holds an item twice")
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + weights[which] / (k + rank)
            best[item] = min(best.get(item, (rank, which)), (rank, which))
    order = sorted(scores, key=lambda item: (-scores[item], best[item]))
    return [(item, scores[item]) for item in order]
