"""`medhalbench compare LOG_A LOG_B`: two runs on the same samples, paired."""

from __future__ import annotations

import click

from medhalbench.commands import console, print_table
from medhalbench.report import compare_logs, comparison_table
from medhalbench.statistics import DEFAULT_RESAMPLES


@click.command(name="compare")
@click.argument("log_a", type=click.Path(dir_okay=False))
@click.argument("log_b", type=click.Path(dir_okay=False))
@click.option(
    "--bootstrap",
    type=click.IntRange(min=1),
    default=DEFAULT_RESAMPLES,
    show_default=True,
    help="Resamples of the paired bootstrap and of the permutation test.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the resampling.")
def compare_command(log_a: str, log_b: str, bootstrap: int, seed: int) -> None:
    """Compare two runs of one benchmark on the same samples (matched by sample id): each
    headline figure's difference A - B with its paired-bootstrap 95% interval and a paired
    permutation p-value, and McNemar's exact test on per-sample correctness (MedHallu,
    MedHal). Unmatched samples are counted and left out."""
    comparison = compare_logs(log_a, log_b, resamples=bootstrap, seed=seed)
    print_table(console, comparison_table(comparison))
