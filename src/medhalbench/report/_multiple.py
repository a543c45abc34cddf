"""Many comparisons at once: Holm's step-down adjustment of their p-values, so that the
chance of any false finding among them stays at the level read off one p-value."""

from __future__ import annotations

import math
from collections.abc import Sequence


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in the order given (NaN stays NaN and is not counted as a
    test).

    The i-th smallest of m p-values is multiplied by m - i + 1 (i from 1), each adjusted
    value is at least the one before it, and none exceeds 1 (Holm 1979). It controls the
    family-wise error rate under any dependence between the tests.
    """
    tested = sorted((p, i) for i, p in enumerate(p_values) if not math.isnan(p))
    adjusted = [math.nan] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (len(tested) - rank) * p))
        adjusted[i] = running
    return adjusted
