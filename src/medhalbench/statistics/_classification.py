"""Precision, recall, F1 and accuracy as figures over clusters of samples."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

import numpy as np

from medhalbench.statistics._bootstrap import Figure, Statistic, cluster_sums, ratio

# Per-sample components: true positive, false positive, false negative, correct, counted.
_TP, _FP, _FN, _CORRECT, _N = range(5)


def precision(totals: np.ndarray) -> np.ndarray:
    """tp / (tp + fp); undefined when nothing was predicted positive."""
    return ratio(totals[..., _TP], totals[..., _TP] + totals[..., _FP])


def recall(totals: np.ndarray) -> np.ndarray:
    """tp / (tp + fn); undefined when no sample is positive."""
    return ratio(totals[..., _TP], totals[..., _TP] + totals[..., _FN])


def f1(totals: np.ndarray) -> np.ndarray:
    """2tp / (2tp + fp + fn); undefined when no sample is positive or predicted positive."""
    return ratio(2 * totals[..., _TP], 2 * totals[..., _TP] + totals[..., _FP] + totals[..., _FN])


def accuracy(totals: np.ndarray) -> np.ndarray:
    """Correct / counted; undefined with no sample."""
    return ratio(totals[..., _CORRECT], totals[..., _N])


CLASSIFICATION_FIGURES = {"precision": precision, "recall": recall, "f1": f1, "accuracy": accuracy}


def confusion_components(
    actual: Sequence[bool],
    predicted: Sequence[bool | None],
    include: Sequence[bool] | None = None,
) -> np.ndarray:
    """Per-sample components of the classification figures.

    Args:
        actual: Whether each sample is positive.
        predicted: The prediction: True (positive), False (negative) or None (no readable
            answer: not a positive, and wrong in accuracy either way).
        include: Which samples count (default: all).

    Returns:
        Shape (samples, 5).
    """
    actual_arr = np.asarray(actual, dtype=bool)
    positive = np.asarray([p is True for p in predicted], dtype=bool)
    readable = np.asarray([p is not None for p in predicted], dtype=bool)
    counted = (
        np.ones(len(actual_arr), dtype=bool) if include is None else np.asarray(include, dtype=bool)
    )
    values = np.zeros((len(actual_arr), 5))
    values[:, _TP] = positive & actual_arr
    values[:, _FP] = positive & ~actual_arr
    values[:, _FN] = ~positive & actual_arr
    values[:, _CORRECT] = readable & (positive == actual_arr)
    values[:, _N] = 1
    return values * counted[:, None]


def zero_division(statistic: Statistic, *, empty: float = math.nan) -> Statistic:
    """A figure as scikit-learn computes it with `zero_division=0`: 0 where it is undefined
    on the samples counted, and `empty` where no sample is counted at all."""

    def computed(totals: np.ndarray) -> np.ndarray:
        value = statistic(totals)
        return np.where(totals[..., _N] > 0, np.nan_to_num(value, nan=0.0), empty)

    return computed


def classification_figures(
    prefix: str,
    clusters: Sequence[Hashable],
    actual: Sequence[bool],
    predicted: Sequence[bool | None],
    include: Sequence[bool] | None = None,
    *,
    names: Sequence[str] = ("precision", "recall", "f1", "accuracy"),
    zero_for_undefined: bool = False,
    empty: float = math.nan,
) -> list[Figure]:
    """Precision, recall, F1 and accuracy (named `<prefix><name>`) over the included samples.

    Args:
        prefix: The figures' name prefix.
        clusters: Each sample's cluster.
        actual: Whether each sample is positive.
        predicted: Each prediction (None: no readable answer).
        include: Which samples count (default: all).
        names: Which figures.
        zero_for_undefined: As a paper's code computes them with scikit-learn's
            `zero_division=0`: 0 where undefined (flagged), `empty` with no sample counted.
        empty: The value with no sample counted, with `zero_for_undefined`.
    """
    _, components = cluster_sums(clusters, confusion_components(actual, predicted, include))
    figures = []
    for name in names:
        statistic = CLASSIFICATION_FIGURES[name]
        if not zero_for_undefined:
            figures.append(Figure(f"{prefix}{name}", components, statistic))
            continue
        theirs = zero_division(statistic, empty=empty)
        total = components.sum(axis=0)
        substituted = bool(np.isnan(statistic(total))) and not bool(np.isnan(theirs(total)))
        figures.append(
            Figure(f"{prefix}{name}", components, theirs, zero_for_undefined=substituted)
        )
    return figures


def share_figure(
    name: str,
    clusters: Sequence[Hashable],
    selected: Sequence[bool],
    include: Sequence[bool] | None = None,
) -> Figure:
    """The share of included samples that are selected (e.g. a response rate)."""
    counted = (
        np.ones(len(selected), dtype=bool) if include is None else np.asarray(include, dtype=bool)
    )
    values = np.column_stack([np.asarray(selected, dtype=bool) & counted, counted]).astype(float)
    _, components = cluster_sums(clusters, values)
    return Figure(name, components, lambda t: ratio(t[..., 0], t[..., 1]))


def mean_figure(
    name: str, clusters: Sequence[Hashable], values: Sequence[float], include: Sequence[bool]
) -> Figure:
    """The mean of `values` over the included samples (undefined when none is included)."""
    counted = np.asarray(include, dtype=bool)
    table = np.column_stack(
        [np.where(counted, np.asarray(values, dtype=float), 0.0), counted]
    ).astype(float)
    _, components = cluster_sums(clusters, table)
    return Figure(name, components, lambda t: ratio(t[..., 0], t[..., 1]))
