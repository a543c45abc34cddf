"""`medhalbench report` and `medhalbench compare` run: the report of finished runs, and two
runs on the same samples paired."""

from __future__ import annotations

import click

from medhalbench.commands._run import console
from medhalbench.commands._tables import print_table
from medhalbench.data import write_text_atomically
from medhalbench.report import compare_logs, comparison_table, comparison_text, write_report
from medhalbench.settings import SUFFIXES, ComparisonFormat, ReportFormat


def report_from_command_line(
    logs: tuple[str, ...], out: str, fmt: ReportFormat, published: bool
) -> None:
    """`medhalbench report` from its options' values."""
    ctx = click.get_current_context()
    warn = lambda text: click.secho(f"warning: {text}", fg="yellow", err=True)  # noqa: E731
    left_out = ctx.get_parameter_source("out") is click.core.ParameterSource.DEFAULT
    target = f"report{SUFFIXES[fmt]}" if left_out else out
    for path in write_report(logs, target, fmt, published=published, warn=warn):
        console.print(f"Wrote {path}")


def compare_from_command_line(
    log_a: str, log_b: str, bootstrap: int, seed: int, fmt: ComparisonFormat, out: str | None
) -> None:
    """`medhalbench compare` from its options' values."""
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
