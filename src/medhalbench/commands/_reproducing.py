"""`medhalbench reproduce`: a paper's table run as the paper ran it, from its packaged suite
(the paper's models, conditions and settings), planned first where asked."""

from __future__ import annotations

import dataclasses
import shlex
from pathlib import Path
from typing import Any

import click

from medhalbench._errors import DataError
from medhalbench.commands._derive import settings_from
from medhalbench.commands._run import console
from medhalbench.commands._suite import Suite, read_suite
from medhalbench.commands._suite_commands import Budget, plan_suite, run_suite
from medhalbench.commands._tables import print_table
from medhalbench.data import write_text_atomically
from medhalbench.registry import benchmark
from medhalbench.reproduce import (
    PAPER_TABLES,
    PaperTable,
    paper_table,
    reproduction_table,
    reproduction_text,
    table_cells,
    verdict,
)
from medhalbench.results import Column, ResultTable
from medhalbench.settings import ReproduceRequest, anchored, parse_model_args
from medhalbench.text import printable


def _chosen(suite: Suite, models: tuple[str, ...]) -> Suite:
    """The suite on the models asked for (all of them where none is named)."""
    if not models:
        return suite
    known = [m.name for m in suite.models]
    unknown = [m for m in models if m not in known]
    if unknown:
        raise DataError(
            f"{', '.join(unknown)}: not a model of this table (its models: {', '.join(known)})",
            path=str(suite.path),
            field="--model",
        )
    return dataclasses.replace(suite, models=[m for m in suite.models if m.name in models])


def _with_task_args(suite: Suite, values: list[str]) -> Suite:
    """The suite with settings given by `-T` on every run (paths against the working
    folder); a setting the table sets itself, or one its benchmark has not, is refused."""
    given = parse_model_args(values, option="-T")
    if not given:
        return suite
    settings = benchmark(suite.runs[0].benchmark).settings
    unknown = sorted(set(given) - set(settings.model_fields))
    if unknown:
        raise click.BadParameter(
            f"{', '.join(unknown)}: not a setting of this table's benchmark", param_hint="-T"
        )
    own = {k for run in suite.runs for k in run.args} | {
        k for m in suite.models for k in m.run_args
    }
    clash = sorted(set(given) & own)
    if clash:
        raise click.BadParameter(
            f"{', '.join(clash)}: set by the table itself, as its paper ran it", param_hint="-T"
        )
    given = anchored(settings, given, Path.cwd())
    models = [m.model_copy(update={"run_args": {**m.run_args, **given}}) for m in suite.models]
    return dataclasses.replace(suite, models=models)


def tables_listed() -> ResultTable:
    """Every packaged table: its name, what it shows, its models and runs."""
    listed = ResultTable(
        "Packaged tables (medhalbench reproduce NAME)",
        "tables",
        [
            Column("name", digits=0),
            Column("table", digits=0),
            Column("models", digits=0),
            Column("runs per model", digits=0),
            Column("not published (what stands in)", digits=0),
        ],
    )
    for table in PAPER_TABLES:
        suite = read_suite(table.suite)
        shown = f"{benchmark(table.benchmark).title} {table.table}: {table.title}"
        listed.add([table.name, shown, len(suite.models), len(suite.runs), table.unpublished])
    return listed


def reproduce_from_command_line(**values: Any) -> None:
    """`medhalbench reproduce` from its options' values."""
    request = settings_from(ReproduceRequest, values)
    if request.table is None:
        print_table(console, tables_listed())
        return
    table = paper_table(request.table)
    suite = _with_task_args(
        _chosen(read_suite(table.suite), tuple(request.model)), request.task_args
    )
    if request.dry_run:
        plan_suite(suite, request.prices, ())
        return
    if not request.view:
        chosen = f" --model {','.join(request.model)}" if request.model else ""
        chosen += "".join(f" -T {shlex.quote(value)}" for value in request.task_args)
        budget = (
            None
            if request.max_cost is None or request.prices is None
            else Budget(request.max_cost, request.prices)
        )
        run_suite(
            f"medhalbench reproduce {table.name}{chosen}",
            suite,
            request.display,
            request.force,
            budget,
        )
    _show(table, suite, request)


def _show(table: PaperTable, suite: Suite, request: ReproduceRequest) -> None:
    """The view from every finished run of the table in its folder (this command's and
    earlier ones'), on the terminal or in the format asked for."""
    cells = table_cells(table, [suite.log_dir])
    if request.chosen == "text":
        print_table(console, reproduction_table(table, cells))
        return
    text = reproduction_text(table, cells, request.chosen)
    if request.out is None:
        click.echo(printable(text), nl=False)
        return
    write_text_atomically(request.out, printable(text))  # whole or not at all
    console.print(f"Wrote {request.out}: {verdict(cells)}")
