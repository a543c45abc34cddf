"""`medhalbench compare LOG_A LOG_B`: two runs on the same samples, paired."""

from __future__ import annotations

from typing import get_args

import click

from medhalbench.commands import (
    bootstrap_option,
    console,
    examples_epilog,
    format_option,
    print_table,
)
from medhalbench.data import write_text_atomically
from medhalbench.report import ComparisonFormat, compare_logs, comparison_table, comparison_text
from medhalbench.statistics import BOOTSTRAP_SEED


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
def compare_command(
    log_a: str, log_b: str, bootstrap: int, seed: int, fmt: ComparisonFormat, out: str | None
) -> None:
    """Compare two runs of one benchmark on the same samples (matched by sample id): each
    headline figure's difference A - B with its paired-bootstrap 95% interval, a paired
    permutation p-value and its Holm adjustment over the comparison's tests, and McNemar's
    exact test on per-sample correctness (MedHallu, MedHal). Unmatched samples are counted
    and left out."""
    if fmt == "text" and out is not None:
        raise click.BadParameter("--out needs --format csv, markdown or json", param_hint="--out")
    comparison = compare_logs(log_a, log_b, resamples=bootstrap, seed=seed)
    if fmt == "text":
        print_table(console, comparison_table(comparison))
        return
    text = comparison_text(comparison, fmt)
    if out is None:
        click.echo(text, nl=False)
        return
    # Whole or not at all: a full disk leaves no empty or cut-off file (one line, exit 2).
    write_text_atomically(out, text)
    console.print(f"Wrote {out}")
