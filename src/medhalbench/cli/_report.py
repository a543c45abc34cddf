"""`medhalbench report LOGS...`."""

from __future__ import annotations

from typing import get_args

import click

from medhalbench.commands import console
from medhalbench.report import ReportFormat, write_report


@click.command(name="report")
@click.argument("logs", nargs=-1, required=True)
@click.option(
    "--out",
    default="report.html",
    show_default=True,
    help="Output file (for csv: the stem of one file per table).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(get_args(ReportFormat)),
    default="html",
    show_default=True,
)
@click.option(
    "--published/--no-published",
    default=True,
    show_default=True,
    help="Add the papers' published figures as reference rows.",
)
def report_command(logs: tuple[str, ...], out: str, fmt: ReportFormat, published: bool) -> None:
    """A summary of every model on every benchmark, then each benchmark's tables, charts
    and paired comparisons (runs on the same samples that differ in one thing), from inspect
    logs (files or folders) of our tasks, with 95% intervals and the papers' published
    figures beside ours."""
    warn = lambda text: click.secho(f"warning: {text}", fg="yellow", err=True)  # noqa: E731
    for path in write_report(logs, out, fmt, published=published, warn=warn):
        console.print(f"Wrote {path}")
