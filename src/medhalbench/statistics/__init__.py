"""Figures with 95% cluster-bootstrap intervals, paired comparisons and McNemar's test.

Statistical procedures come from scipy (bootstrap, permutation test, binomial test) and
scikit-learn (ranking and calibration figures); figures that are undefined are NaN.
"""

from medhalbench import _lazy
from medhalbench.settings import BOOTSTRAP_SEED, DEFAULT_RESAMPLES, MAX_RESAMPLES, Resamples
from medhalbench.statistics._agreement import binary_f1, kappa_figure
from medhalbench.statistics._bootstrap import (
    FIGURE_FLAGS,
    NO_INTERVAL,
    NO_INTERVAL_REASONS,
    SCRIPT_FAILS,
    ZERO_FOR_UNDEFINED,
    Figure,
    McNemar,
    PairedDifference,
    bootstrap_intervals,
    cluster_sums,
    estimate,
    mcnemar_exact,
    paired_difference,
    ratio,
)
from medhalbench.statistics._classification import (
    classification_figures,
    mean_figure,
    share_figure,
    zero_division,
)
from medhalbench.statistics._ranking import probability_scores

__getattr__, __all__ = _lazy.exports(__name__, __file__)
