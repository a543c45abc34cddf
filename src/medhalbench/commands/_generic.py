"""`medhalbench eval NAME` for a benchmark that brings no command of its own: task arguments
as `-T name=value` (as `inspect eval` takes them), our model options, our tables."""

from __future__ import annotations

from typing import Any

import click

from medhalbench.commands._models import parse_model_args
from medhalbench.commands._run import (
    console,
    fail_on_unfinished,
    model_options,
    print_log_locations,
    run_eval,
    split_models,
)
from medhalbench.commands._tables import show_results
from medhalbench.registry import Benchmark


def task_eval_command(entry: Benchmark) -> click.Command:
    """An eval command that runs `entry.task(**task_args)` on each model."""

    @click.command(name=entry.name, help=f"{entry.title} ({entry.paper}).")
    @click.option(
        "-T", "task_args", multiple=True, help="Task argument NAME=VALUE (repeat for several)."
    )
    @click.option("--wide", is_flag=True, help="The benchmark's full tables.")
    @click.option("--published", is_flag=True, help="With --wide: the paper's published rows.")
    @model_options()
    def command(
        task_args: tuple[str, ...],
        wide: bool,
        published: bool,
        models: tuple[str, ...],
        **options: Any,
    ) -> None:
        task = entry.make_task(parse_model_args(task_args, option="-T"))
        logs = run_eval(task, models=split_models(models), options=options)
        show_results(console, logs, wide=wide, published=published)
        print_log_locations(logs, options["log_dir"])
        fail_on_unfinished(logs)

    return command
