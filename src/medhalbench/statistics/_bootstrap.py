"""Figures with cluster-bootstrap intervals, and paired comparisons of two runs.

A figure is a function of sums over the sampled units (clusters: a MedHallu row, a DAHL
question, a MedHal source item). Each cluster contributes a vector of components (e.g. its
true positives, false positives, false negatives); the figure is a statistic of their
totals. Resampling clusters with replacement keeps the samples of one cluster together
(both answers of a MedHallu row, every epoch of a DAHL question).
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from medhalbench.settings import BOOTSTRAP_SEED, DEFAULT_RESAMPLES, MAX_RESAMPLES

Statistic = Callable[[np.ndarray], np.ndarray]
"""Totals of the components, shape (..., k), to the figure, shape (...); NaN where undefined."""

BATCH_BYTES = 64 * 1024**2
"""Memory one batch of resamples may take: resamples are drawn in batches of this size, so
the memory of an interval does not grow with the number of resamples."""
CONFIDENCE = 0.95
DEFINED_SHARE = 0.95
"""An interval needs the figure defined in at least this share of resamples."""
SCRIPT_FAILS = "_script_fails"
"""Suffix of the flag set for a figure a paper's code does not print: it stops with an error
on these replies (the figure is NaN)."""
ZERO_FOR_UNDEFINED = "_zero_for_undefined"
"""Suffix of the flag `estimate` sets for a figure whose value is a 0 standing where the
figure is undefined (a paper's code printing scikit-learn's `zero_division=0`)."""
NO_INTERVAL = "_no_interval"
"""Suffix of the code `estimate` sets for a defined figure whose interval is undefined: a key
of `NO_INTERVAL_REASONS`."""
NO_INTERVAL_REASONS = {
    1.0: "fewer than two sampled units to resample",
    2.0: f"undefined in more than {1 - DEFINED_SHARE:.0%} of resamples (too few samples of a class)",
}
"""Why a defined figure has no interval, by the code `estimate` records."""
FIGURE_FLAGS = (ZERO_FOR_UNDEFINED, SCRIPT_FAILS, NO_INTERVAL)
"""Suffixes of the metrics that qualify a figure rather than being one."""


def cluster_sums(
    clusters: Sequence[Hashable], values: np.ndarray
) -> tuple[list[Hashable], np.ndarray]:
    """Sum per-sample component rows by cluster.

    Args:
        clusters: Each sample's cluster key.
        values: Per-sample components, shape (samples, k).

    Returns:
        The cluster keys in first-seen order and their sums, shape (clusters, k).
    """
    order: dict[Hashable, int] = {}
    index = np.fromiter(
        (order.setdefault(c, len(order)) for c in clusters), dtype=np.int64, count=len(clusters)
    )
    sums = np.zeros((len(order), values.shape[1]), dtype=float)
    np.add.at(sums, index, values)
    return list(order), sums


def ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, NaN where the denominator is 0 (the figure is undefined)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(
            denominator > 0, numerator / np.where(denominator > 0, denominator, 1), np.nan
        )


@dataclass(frozen=True)
class Figure:
    """A figure over clusters.

    Attributes:
        name: The figure's metric name.
        components: Per-cluster components, shape (clusters, k).
        statistic: Totals (..., k) to the figure (...).
        vectorized: Whether `statistic` takes a batch of totals at once; when False it is
            called once per resample (e.g. BLEU through sacrebleu).
        zero_for_undefined: The value is a 0 standing where the figure is undefined, as a
            paper's code prints it (scikit-learn's `zero_division=0`); `estimate` says so.
    """

    name: str
    components: np.ndarray
    statistic: Statistic
    vectorized: bool = True
    zero_for_undefined: bool = False

    def value(self) -> float:
        """The figure on all clusters (NaN when undefined)."""
        return float(self.statistic(self.components.sum(axis=0)))


def _totals(components: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Totals of the components over resampled clusters: index (..., n) -> (..., k).

    Counting how often each cluster was drawn and multiplying is much faster than
    gathering and summing the drawn rows.
    """
    index = index.astype(np.int64)
    clusters = len(components)
    flat = index.reshape(-1, index.shape[-1])
    batch = flat.shape[0]
    offsets = flat + clusters * np.arange(batch)[:, None]
    counts = np.bincount(offsets.ravel(), minlength=batch * clusters).reshape(batch, clusters)
    return (counts @ components).reshape(*index.shape[:-1], components.shape[1])


def _batch(clusters: int) -> int:
    """Resamples per batch: a batch holds three (resamples x clusters) arrays of 8 bytes."""
    return max(1, BATCH_BYTES // (24 * max(1, clusters)))


def _check_resamples(resamples: int) -> None:
    if resamples > MAX_RESAMPLES:
        raise ValueError(f"{resamples:,} bootstrap resamples: at most {MAX_RESAMPLES:,}")


@contextlib.contextmanager
def _undefined_quietly() -> Iterator[None]:
    """numpy's and scipy's warnings silenced: a resample where a figure is undefined (0/0)
    is expected, and the interval leaves it out."""
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _distribution(
    statistic: Callable[..., Any], clusters: int, *, resamples: int, seed: int, vectorized: bool
) -> np.ndarray:
    """scipy's bootstrap distribution of `statistic` over the indices of `clusters` drawn
    with replacement (every figure with the same seed draws the same sets of clusters)."""
    with _undefined_quietly():
        result = stats.bootstrap(
            (np.arange(clusters),), statistic, n_resamples=resamples, vectorized=vectorized,
            method="percentile", confidence_level=CONFIDENCE, rng=np.random.default_rng(seed),
            batch=_batch(clusters),
        )  # fmt: skip
    return np.asarray(result.bootstrap_distribution)


def _percentile_interval(distribution: np.ndarray) -> tuple[float, float]:
    """The percentile interval over the resamples where the figure is defined (scipy's own
    interval is NaN as soon as one resample is undefined, e.g. a small category with no
    scored response drawn); undefined when fewer than `DEFINED_SHARE` of them are."""
    defined = distribution[np.isfinite(distribution)]
    if len(defined) < DEFINED_SHARE * len(distribution):
        return float("nan"), float("nan")
    tail = (1 - CONFIDENCE) / 2 * 100
    low, high = np.percentile(defined, [tail, 100 - tail])
    return float(low), float(high)


def bootstrap_intervals(
    figures: Sequence[Figure], *, resamples: int = DEFAULT_RESAMPLES, seed: int = BOOTSTRAP_SEED
) -> dict[str, tuple[float, float]]:
    """95% percentile intervals of figures, resampling clusters with replacement
    (scipy.stats.bootstrap; the figures must share their clusters, row for row).

    Vectorized figures are resampled together in one call; each other figure with the
    same seed, so that every interval comes from the same resampled sets of clusters.

    Returns:
        (low, high) by figure name; NaN when there are fewer than two clusters, when
        resampling is off, or when the figure is undefined in more than 5% of resamples
        (otherwise the interval is over the resamples where it is defined).
    """
    undefined = (float("nan"), float("nan"))
    _check_resamples(resamples)
    if not figures:
        return {}
    clusters = len(figures[0].components)
    if any(len(f.components) != clusters for f in figures):
        raise ValueError("figures resampled together must share their clusters")
    if resamples < 1 or clusters < 2:
        return {f.name: undefined for f in figures}
    intervals: dict[str, tuple[float, float]] = {}
    joint = [f for f in figures if f.vectorized]
    if joint:
        components = np.hstack([f.components for f in joint])
        bounds = np.cumsum([0] + [f.components.shape[1] for f in joint])

        def all_figures(index: np.ndarray, axis: int = -1) -> np.ndarray:
            totals = _totals(components, index)
            return np.stack(
                [
                    f.statistic(totals[..., lo:hi])
                    for f, lo, hi in zip(joint, bounds, bounds[1:], strict=False)
                ]
            )

        distributions = np.atleast_2d(
            _distribution(all_figures, clusters, resamples=resamples, seed=seed, vectorized=True)
        )
        for f, distribution in zip(joint, distributions, strict=True):
            intervals[f.name] = _percentile_interval(distribution)
    for f in (f for f in figures if not f.vectorized):

        def one(index: np.ndarray, figure: Figure = f) -> float:
            return float(figure.statistic(_totals(figure.components, index)))

        distribution = _distribution(
            one, clusters, resamples=resamples, seed=seed, vectorized=False
        )
        intervals[f.name] = _percentile_interval(distribution)
    return intervals


def estimate(
    figures: Sequence[Figure], *, resamples: int = DEFAULT_RESAMPLES, seed: int = BOOTSTRAP_SEED
) -> dict[str, float]:
    """Each figure's value and, as `<name>_ci_low` / `<name>_ci_high`, its 95% interval
    (none when `resamples` is 0); `<name>_zero_for_undefined` = 1 where the value is a 0
    standing for an undefined figure; `<name>_no_interval` = the `NO_INTERVAL_REASONS` code
    where a defined figure's interval is undefined."""
    values = {f.name: f.value() for f in figures}
    values.update({f"{f.name}{ZERO_FOR_UNDEFINED}": 1.0 for f in figures if f.zero_for_undefined})
    if resamples > 0 and figures:
        few = len(figures[0].components) < 2
        for name, (low, high) in bootstrap_intervals(
            figures, resamples=resamples, seed=seed
        ).items():
            values[f"{name}_ci_low"] = low
            values[f"{name}_ci_high"] = high
            if np.isfinite(values[name]) and not (np.isfinite(low) and np.isfinite(high)):
                values[f"{name}{NO_INTERVAL}"] = 1.0 if few else 2.0
    return values


@dataclass(frozen=True)
class PairedDifference:
    """Figure A minus figure B on the same clusters.

    Attributes:
        name: The figure.
        a: Figure of run A.
        b: Figure of run B.
        difference: a - b.
        ci_low: Lower end of the paired-bootstrap 95% interval of the difference.
        ci_high: Upper end.
        p_value: Two-sided p-value of a paired permutation test (A and B swapped within
            clusters; scipy.stats.permutation_test).
        clusters: The clusters both were resampled over.
    """

    name: str
    a: float
    b: float
    difference: float
    ci_low: float
    ci_high: float
    p_value: float
    clusters: int = 0

    @property
    def disagree(self) -> bool:
        """Whether the interval and the p-value tell different stories at the 5% level (one
        excludes no difference, the other does not)."""
        if not (np.isfinite(self.ci_low) and np.isfinite(self.ci_high)) or np.isnan(self.p_value):
            return False
        excludes_zero = self.ci_low > 0 or self.ci_high < 0
        return excludes_zero != (self.p_value < 0.05)


def paired_difference(
    a: Figure, b: Figure, *, resamples: int = DEFAULT_RESAMPLES, seed: int = BOOTSTRAP_SEED
) -> PairedDifference:
    """Compare one figure between two runs whose components are aligned cluster by cluster.

    Raises:
        ValueError: The runs have different numbers of clusters.
    """
    clusters = len(a.components)
    if len(b.components) != clusters:
        raise ValueError("paired figures need the same clusters in both runs")
    _check_resamples(resamples)
    k = a.components.shape[1]
    value_a, value_b = a.value(), b.value()

    def difference(totals: np.ndarray) -> np.ndarray:
        return np.asarray(a.statistic(totals[..., :k])) - np.asarray(b.statistic(totals[..., k:]))

    joint = Figure(
        a.name, np.hstack([a.components, b.components]), difference, a.vectorized and b.vectorized
    )
    low, high = bootstrap_intervals([joint], resamples=resamples, seed=seed)[a.name]
    p_value = float("nan")
    # One cluster has no permutation to test against (scipy needs two): p is undefined.
    if resamples > 0 and clusters > 1 and np.isfinite(value_a - value_b):
        # Under the null hypothesis, A's and B's components of a cluster are exchangeable.
        stacked = np.vstack([a.components, b.components])

        def swapped(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
            return np.asarray(a.statistic(_totals(stacked, x))) - np.asarray(
                a.statistic(_totals(stacked, y))
            )

        with _undefined_quietly():
            test = stats.permutation_test(
                (np.arange(clusters), np.arange(clusters) + clusters), swapped,
                permutation_type="samples", vectorized=joint.vectorized, n_resamples=resamples,
                rng=np.random.default_rng(seed), batch=_batch(2 * clusters),
            )  # fmt: skip
        p_value = float(test.pvalue)
    return PairedDifference(
        a.name, value_a, value_b, value_a - value_b, low, high, p_value, clusters
    )


@dataclass(frozen=True)
class McNemar:
    """McNemar's exact test on paired per-sample correctness.

    Attributes:
        a_only: Samples A got right and B got wrong.
        b_only: Samples B got right and A got wrong.
        p_value: Two-sided exact p-value (binomial test of a_only in a_only + b_only at
            1/2, scipy.stats.binomtest); 1.0 when no sample differs.
    """

    a_only: int
    b_only: int
    p_value: float


def mcnemar_exact(a_correct: Sequence[bool], b_correct: Sequence[bool]) -> McNemar:
    """McNemar's exact test of two runs' correctness on the same samples."""
    a_arr, b_arr = np.asarray(a_correct, dtype=bool), np.asarray(b_correct, dtype=bool)
    a_only, b_only = int(np.sum(a_arr & ~b_arr)), int(np.sum(~a_arr & b_arr))
    discordant = a_only + b_only
    p_value = 1.0 if discordant == 0 else float(stats.binomtest(a_only, discordant, 0.5).pvalue)
    return McNemar(a_only, b_only, p_value)
