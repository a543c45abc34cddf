"""Agreement between two raters (a judge and a person, or two people): Cohen's kappa as a
figure over items, for bootstrap intervals; and a plain binary F1."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

import numpy as np

from medhalbench.statistics._bootstrap import Figure, cluster_sums


def kappa_figure(
    name: str, clusters: Sequence[Hashable], first: Sequence[str], second: Sequence[str]
) -> Figure:
    """Cohen's kappa of two raters' verdicts on the same items (undefined when chance
    agreement is 1, e.g. both gave one class only); each item contributes its cell of the
    confusion matrix, so that the bootstrap resamples items (or their clusters)."""
    classes = sorted({*first, *second})
    k = len(classes)
    index = {c: i for i, c in enumerate(classes)}
    cells = np.zeros((len(first), k * k))
    for row, (a, b) in enumerate(zip(first, second, strict=True)):
        cells[row, index[a] * k + index[b]] = 1.0
    _, components = cluster_sums(clusters, cells)

    def kappa(totals: np.ndarray) -> np.ndarray:
        matrix = totals.reshape(*totals.shape[:-1], k, k)
        n = matrix.sum(axis=(-2, -1))
        with np.errstate(divide="ignore", invalid="ignore"):
            observed = np.trace(matrix, axis1=-2, axis2=-1) / n
            expected = (matrix.sum(axis=-1) * matrix.sum(axis=-2)).sum(axis=-1) / n**2
            value = (observed - expected) / (1 - expected)
        return np.where((n > 0) & (expected < 1), value, np.nan)

    return Figure(name, components, kappa)


def binary_f1(gold: Sequence[bool], predicted: Sequence[bool]) -> float:
    """2tp / (2tp + fp + fn); NaN when no item is positive or predicted positive."""
    tp = sum(g and p for g, p in zip(gold, predicted, strict=True))
    wrong = sum(g != p for g, p in zip(gold, predicted, strict=True))
    return 2 * tp / (2 * tp + wrong) if tp or wrong else math.nan
