"""Value types of the command-line options: every number is checked when it is parsed."""

from __future__ import annotations

import click

COUNT = click.IntRange(min=1)
"""Limits, counts, token budgets, connections, seconds: a whole number of at least 1."""
NON_NEGATIVE = click.IntRange(min=0)
"""Retries, resamples: a whole number of at least 0."""
TEMPERATURE = click.FloatRange(0.0, 2.0)
SHARE = click.FloatRange(0.0, 1.0)
"""Thresholds, tolerances, top-p: between 0 and 1."""
FRACTION = click.FloatRange(0.0, 1.0, min_open=True)
"""A sampled fraction: above 0, at most 1."""
POSITIVE = click.FloatRange(0.0, min_open=True)
"""A rate: above 0."""
