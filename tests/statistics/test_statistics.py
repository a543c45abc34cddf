"""Figures with intervals, paired differences and McNemar's test, checked against scipy and
scikit-learn on hand-made data."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from medhalbench.statistics import (
    Figure,
    bootstrap_intervals,
    classification_figures,
    cluster_sums,
    estimate,
    mcnemar_exact,
    paired_difference,
    ratio,
)


def mean_statistic(totals: np.ndarray) -> np.ndarray:
    return ratio(totals[..., 0], totals[..., 1])


def test_cluster_sums_keep_first_seen_order() -> None:
    keys, sums = cluster_sums(["b", "a", "b"], np.array([[1.0, 1], [2, 1], [3, 1]]))
    assert keys == ["b", "a"] and sums.tolist() == [[4, 2], [2, 1]]


def test_interval_equals_scipy_bootstrap_of_the_cluster_means() -> None:
    rng = np.random.default_rng(1)
    values = rng.random(40)
    components = np.column_stack([values, np.ones(40)])
    [(low, high)] = bootstrap_intervals(
        [Figure("mean", components, mean_statistic)], resamples=2000, seed=7
    ).values()
    expected = stats.bootstrap(
        (values,), np.mean, n_resamples=2000, method="percentile", rng=np.random.default_rng(7)
    ).confidence_interval
    assert (low, high) == pytest.approx((expected.low, expected.high), abs=1e-12)


def test_undefined_figures_and_intervals_are_nan() -> None:
    # One sample, predicted negative and actually negative: precision/recall/F1 undefined.
    figures = classification_figures("", ["r"], [False], [False])
    values = estimate(figures, resamples=100)
    assert math.isnan(values["precision"]) and math.isnan(values["f1"])
    assert values["accuracy"] == 1.0
    assert math.isnan(values["accuracy_ci_low"])  # one cluster: no interval


def test_paired_difference_matches_scipy_on_hand_made_data() -> None:
    # Per row: run A right or wrong, run B right or wrong (the mean is accuracy).
    a = np.array([1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1], dtype=float)
    b = np.array([1, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1], dtype=float)
    ones = np.ones_like(a)
    fa = Figure("accuracy", np.column_stack([a, ones]), mean_statistic)
    fb = Figure("accuracy", np.column_stack([b, ones]), mean_statistic)
    d = paired_difference(fa, fb, resamples=3000, seed=11)
    assert d.difference == pytest.approx(a.mean() - b.mean())
    expected_ci = stats.bootstrap(
        (a, b), lambda x, y: np.mean(x) - np.mean(y), paired=True, vectorized=False,
        n_resamples=3000, method="percentile", rng=np.random.default_rng(11),
    ).confidence_interval  # fmt: skip
    assert (d.ci_low, d.ci_high) == pytest.approx((expected_ci.low, expected_ci.high), abs=1e-12)
    expected_p = stats.permutation_test(
        (a, b), lambda x, y: np.mean(x) - np.mean(y), permutation_type="samples",
        vectorized=False, n_resamples=3000, rng=np.random.default_rng(11),
    ).pvalue  # fmt: skip
    assert d.p_value == pytest.approx(expected_p)
    assert d.ci_low > 0 and d.p_value < 0.05  # A is right on 7 more rows of 20


def test_a_paired_difference_over_one_cluster_has_no_interval_or_p_value() -> None:
    # One question answered once, judged closed-book and grounded: a difference, no test.
    fa = Figure("score", np.array([[0.8, 1.0]]), mean_statistic)
    fb = Figure("score", np.array([[0.5, 1.0]]), mean_statistic)
    d = paired_difference(fa, fb, resamples=200, seed=1)
    assert d.difference == pytest.approx(0.3) and d.clusters == 1
    assert math.isnan(d.ci_low) and math.isnan(d.ci_high) and math.isnan(d.p_value)


def test_mcnemar_is_scipys_exact_binomial_test() -> None:
    a = [True] * 10 + [False] * 2 + [True] * 5
    b = [False] * 10 + [True] * 2 + [True] * 5
    m = mcnemar_exact(a, b)
    assert (m.a_only, m.b_only) == (10, 2)
    assert m.p_value == pytest.approx(stats.binomtest(10, 12, 0.5).pvalue)
    assert mcnemar_exact([True, False], [True, False]).p_value == 1.0  # no discordant pair
