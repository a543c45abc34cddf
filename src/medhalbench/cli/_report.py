"""`medhalbench report LOGS...`."""

from __future__ import annotations

import click

from medhalbench.cli._common import console
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
def report_command(logs: tuple[str, ...], out: str, fmt: str) -> None:
    """Tables and figures of the papers from inspect logs (files or folders) of our tasks."""
    for path in write_report(logs, out, fmt):  # type: ignore[arg-type]
        console.print(f"Wrote {path}")
