"""`medhalbench report LOGS...`."""

from __future__ import annotations

from typing import get_args

import click

from medhalbench.commands import console, examples_epilog, format_option
from medhalbench.report import SUFFIXES, ReportFormat, write_report


@click.command(
    name="report",
    epilog=examples_epilog(
        [
            "medhalbench report logs/ --out report.html",
            "medhalbench report logs/ --format csv --out tables.csv",
            "medhalbench report logs/ --format json --out report.json",
            "medhalbench report logs/ --format latex --out summary.tex",
        ]
    ),
)
@click.argument("logs", nargs=-1, required=True)
@click.option(
    "--out",
    default="report.html",
    show_default=True,
    help="Output file (for csv: the stem of one file per table). Left out, `report` with "
    "the format's suffix (report.json, report.tex, ...).",
)
@format_option(get_args(ReportFormat), default="html")
@click.option(
    "--published/--no-published",
    default=True,
    show_default=True,
    help="Add the papers' published figures as reference rows.",
)
@click.pass_context
def report_command(
    ctx: click.Context, logs: tuple[str, ...], out: str, fmt: ReportFormat, published: bool
) -> None:
    """A summary of every model on every benchmark, then each benchmark's tables, charts
    and paired comparisons (runs on the same samples that differ in one thing), from inspect
    logs (files or folders) of our tasks, with 95% intervals and the papers' published
    figures beside ours. `--format json` writes every table and figure as one JSON
    document; `--format latex`, the summary's headline figures as LaTeX tables."""
    warn = lambda text: click.secho(f"warning: {text}", fg="yellow", err=True)  # noqa: E731
    left_out = ctx.get_parameter_source("out") is click.core.ParameterSource.DEFAULT
    target = f"report{SUFFIXES[fmt]}" if left_out else out
    for path in write_report(logs, target, fmt, published=published, warn=warn):
        console.print(f"Wrote {path}")
