"""`medhalbench report` and `medhalbench compare` run: the report of finished runs, and two
runs on the same samples paired."""

from __future__ import annotations

import os
from typing import Any

import click

from medhalbench.commands._derive import settings_from
from medhalbench.commands._run import console
from medhalbench.commands._tables import print_table
from medhalbench.data import write_text_atomically
from medhalbench.report import (
    compare_logs,
    comparison_table,
    comparison_text,
    find_run,
    write_report,
)
from medhalbench.reproduce import reproduced_tables
from medhalbench.settings import CompareRequest, ReportRequest
from medhalbench.text import printable


def report_from_command_line(**values: Any) -> None:
    """`medhalbench report` from its options' values."""
    request = settings_from(ReportRequest, values)
    warn = lambda text: click.secho(printable(f"warning: {text}"), fg="yellow", err=True)  # noqa: E731
    written = write_report(
        request.logs,
        request.target,
        request.chosen,
        published=request.published,
        warn=warn,
        reproduced=reproduced_tables(request.logs) if request.published else (),
    )
    for path in written:
        console.print(f"Wrote {path}")


def compare_from_command_line(**values: Any) -> None:
    """`medhalbench compare` from its options' values."""
    request = settings_from(CompareRequest, values)
    a, b = (_run_log(given, request.log_dir) for given in (request.log_a, request.log_b))
    comparison = compare_logs(a, b, resamples=request.bootstrap, seed=request.seed)
    if request.chosen == "text":
        print_table(console, comparison_table(comparison))
        return
    text = comparison_text(comparison, request.chosen)
    out = request.out
    if out is None:
        click.echo(printable(text), nl=False)
        return
    # Whole or not at all: a full disk leaves no empty or cut-off file (one line, exit 2).
    write_text_atomically(out, text)
    console.print(f"Wrote {out}")


def _run_log(given: str, log_dir: str) -> str:
    """A run's log: the file given, else the run of that name in `log_dir` (`find_run`)."""
    return given if os.path.isfile(os.path.expanduser(given)) else find_run(given, log_dir)
