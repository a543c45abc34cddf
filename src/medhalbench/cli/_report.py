"""`medhalbench report LOGS...`."""

from __future__ import annotations

from typing import Any, get_args

import click

from medhalbench._lazy import by_name
from medhalbench.cli._options import examples_epilog, format_option
from medhalbench.settings import ReportFormat


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
def report_command(**values: Any) -> None:
    """A summary of every model on every benchmark, then each benchmark's tables, charts
    and paired comparisons (runs on the same samples that differ in one thing), from inspect
    logs (files or folders) of our tasks, with 95% intervals and the papers' published
    figures beside ours. `--format json` writes every table and figure as one JSON
    document; `--format latex`, the summary's headline figures as LaTeX tables."""
    by_name("medhalbench.commands:report_from_command_line")(**values)
