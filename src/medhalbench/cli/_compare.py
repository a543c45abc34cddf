"""`medhalbench compare LOG_A LOG_B`: two runs on the same samples, paired."""

from __future__ import annotations

from typing import Any, get_args

import click

from medhalbench._lazy import by_name
from medhalbench.cli._options import bootstrap_option, examples_epilog, format_option
from medhalbench.settings import BOOTSTRAP_SEED, ComparisonFormat


@click.command(
    name="compare",
    epilog=examples_epilog(
        [
            "medhalbench compare logs/a.eval logs/b.eval",
            "medhalbench compare logs/a.eval logs/b.eval --format csv --out a_vs_b.csv",
        ]
    ),
)
@click.argument("log_a", type=click.Path(dir_okay=False))
@click.argument("log_b", type=click.Path(dir_okay=False))
@bootstrap_option(least=1, help="Resamples of the paired bootstrap and of the permutation test.")
@click.option(
    "--seed", type=int, default=BOOTSTRAP_SEED, show_default=True, help="Seed of the resampling."
)
@format_option(
    get_args(ComparisonFormat),
    default="text",
    help="text: a table for the terminal; csv, markdown, json: for analysis and papers.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write to this file instead of the terminal (csv, markdown, json).",
)
def compare_command(**values: Any) -> None:
    """Compare two runs of one benchmark on the same samples (matched by sample id): each
    headline figure's difference A - B with its paired-bootstrap 95% interval, a paired
    permutation p-value and its Holm adjustment over the comparison's tests, and McNemar's
    exact test on per-sample correctness (MedHallu, MedHal). Unmatched samples are counted
    and left out."""
    by_name("medhalbench.commands:compare_from_command_line")(**values)
