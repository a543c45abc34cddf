"""`medhalbench report LOGS...`."""

from __future__ import annotations

import click

from medhalbench.commands import console
from medhalbench.report import write_report


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
    type=click.Choice(["html", "csv", "markdown"]),
    default="html",
    show_default=True,
)
@click.option(
    "--published/--no-published",
    default=True,
    show_default=True,
    help="Add the papers' published figures as reference rows.",
)
def report_command(logs: tuple[str, ...], out: str, fmt: str, published: bool) -> None:
    """Tables and figures of the papers from inspect logs (files or folders) of our tasks,
    with 95% intervals, the papers' published figures as reference rows, and paired
    comparisons of runs on the same samples."""
    warn = lambda text: click.secho(f"warning: {text}", fg="yellow", err=True)  # noqa: E731
    for path in write_report(logs, out, fmt, published=published, warn=warn):  # type: ignore[arg-type]
        console.print(f"Wrote {path}")
