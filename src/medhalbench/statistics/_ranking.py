"""Threshold-free figures of a verdict probability: AUROC, average precision, Brier score
and a reliability (calibration) table (scikit-learn)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

CALIBRATION_BINS = 5


def probability_scores(
    actual: Sequence[bool], probability: Sequence[float | None], *, bins: int = CALIBRATION_BINS
) -> dict[str, float]:
    """Figures of P(positive) against the truth, over samples that have a probability.

    Returns:
        `probability_samples`; `auroc` and `average_precision` (undefined unless both
        classes occur); `brier`; and per equal-width bin `i` of the probability,
        `calibration/i/mean_predicted`, `calibration/i/observed` (share positive) and
        `calibration/i/count` (means undefined in an empty bin).
    """
    from sklearn.metrics import average_precision_score, brier_score_loss, roc_auc_score

    pairs = [(bool(a), float(p)) for a, p in zip(actual, probability, strict=True) if p is not None]
    y = np.array([a for a, _ in pairs], dtype=bool)
    p = np.array([q for _, q in pairs], dtype=float)
    both_classes = len(set(y.tolist())) == 2
    figures = {
        "probability_samples": float(len(pairs)),
        "auroc": float(roc_auc_score(y, p)) if both_classes else math.nan,
        "average_precision": float(average_precision_score(y, p)) if both_classes else math.nan,
        "brier": float(brier_score_loss(y, p)) if len(pairs) else math.nan,
    }
    import pandas as pd

    samples = pd.DataFrame({"p": p, "y": y.astype(float)})
    # Equal-width bins, right-closed, the first one closed at 0 too.
    samples["bin"] = pd.cut(
        samples["p"], np.linspace(0.0, 1.0, bins + 1), labels=False, include_lowest=True
    )
    table = (
        samples.groupby("bin")
        .agg(count=("p", "size"), mean_predicted=("p", "mean"), observed=("y", "mean"))
        .reindex(range(bins))
    )
    for i, row in table.iterrows():
        figures[f"calibration/{i}/count"] = 0.0 if math.isnan(row["count"]) else float(row["count"])
        figures[f"calibration/{i}/mean_predicted"] = float(row["mean_predicted"])
        figures[f"calibration/{i}/observed"] = float(row["observed"])
    return figures
