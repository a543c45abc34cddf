"""Binary classification figures shared by the systems' metrics."""

from __future__ import annotations

from collections.abc import Iterable


def ratio(numerator: float, denominator: float) -> float:
    """numerator / denominator, reporting an undefined ratio as 0 (sklearn's zero_division=0)."""
    return numerator / denominator if denominator else 0.0


def binary_scores(outcomes: Iterable[tuple[bool, bool | None]]) -> dict[str, float]:
    """Precision, recall, F1 and accuracy of (actual positive, predicted positive) pairs.

    A prediction of None (no readable answer) is not a positive: a false negative on a
    positive sample, and wrong in accuracy either way.
    """
    tp = fp = fn = correct = n = 0
    for actual, predicted in outcomes:
        n += 1
        tp += bool(predicted) and actual
        fp += bool(predicted) and not actual
        fn += actual and not predicted
        correct += predicted is not None and predicted == actual
    return {
        "precision": ratio(tp, tp + fp),
        "recall": ratio(tp, tp + fn),
        "f1": ratio(2 * tp, 2 * tp + fp + fn),
        "accuracy": ratio(correct, n),
    }
