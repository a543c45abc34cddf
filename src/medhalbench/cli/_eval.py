"""`medhalbench eval ...` (one command per registered benchmark) and `medhalbench retry`,
declared from the benchmarks' settings models; each runs its implementation in `commands`."""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

import click

from medhalbench._lazy import by_name
from medhalbench.cli._options import (
    NAME,
    click_params,
    display_param,
    eval_model_params,
    examples_epilog,
    flag,
    model_params,
)
from medhalbench.cli._registry_group import RegistryGroup
from medhalbench.registry import Benchmark
from medhalbench.settings import (
    EXAMPLE_DATASET,
    ConnectionSettings,
    TableOptions,
    description,
    options_of,
    task_options,
    usage_examples,
)

SYSTEM = click.Option(
    ["--system"],
    default=None,
    metavar="NAME",
    type=NAME,
    help="With --responses: the name of the system that wrote them, the run's model in the "
    "log, tables and report (system/NAME; default: the file's name).",
)


def eval_command(entry: Benchmark) -> click.Command:
    """The `eval` command of a benchmark: an option per setting of its task (its packaged
    example named in the dataset's help), its sweep, its plans' settings and the shared
    model options."""
    model, sweep = entry.settings, entry.sweep
    settings = [
        replace(o, help=f"{o.help} '{EXAMPLE_DATASET}': the packaged example.")
        if o.name == "dataset" and entry.example
        else o
        for o in task_options(model)
    ]
    params: list[click.Parameter] = [
        *click_params(settings),
        *(
            [
                click.Option(
                    [sweep.flag, "sweep"],
                    default=None,
                    help=f"Sweep: comma-separated values of --{sweep.argument.replace('_', '-')}, one run (and log) each.",
                )
            ]
            if sweep
            else []
        ),
        *click_params(options_of(entry.plan_settings) if entry.plan_settings else ()),
        click.Option(
            ["-T", "task_args"],
            multiple=True,
            help="Task argument NAME=VALUE, as `inspect eval -T` takes it (repeat for several).",
        ),
        *model_params(TableOptions),
        *eval_model_params(entry.roles),
        # With outputs written elsewhere (`Means("outputs")`), the system that wrote them.
        *([SYSTEM] if any(o.means == "outputs" for o in settings) else []),
    ]
    return click.Command(
        name=entry.name,
        callback=functools.partial(by_name("medhalbench.commands:run_eval_command"), entry.name),
        params=params,
        help=f"{description(model)} ({entry.title}: {entry.paper}.)",
        epilog=examples_epilog(usage_examples(model)),
    )


@click.group(name="eval", cls=RegistryGroup, command=eval_command)
def eval_group() -> None:
    """Evaluate models on a benchmark (logs are inspect logs)."""


@click.command(
    name="retry",
    epilog=examples_epilog(
        [
            "medhalbench retry logs/2026-11-27T05-12-50_medhallu_abc.eval",
            "medhalbench retry logs/run.eval -M api_key=$MY_KEY",
        ]
    ),
    params=[
        click.Argument(["logs"], nargs=-1, required=True),
        click.Option(
            ["--log-dir"],
            default=None,
            help="Where to write the resumed logs (default: beside each old one).",
        ),
        flag(
            "--force",
            "Run again a log that already finished, or one whose data, prompts or templates "
            "changed since (every sample then runs again on the files as they are now). "
            "Default: refused.",
        ),
        click.Option(
            ["-M", "model_args"],
            multiple=True,
            help="Model argument NAME=VALUE of the model under test, given again: a run made "
            "with -M api_key=... needs it (logs keep no key), unless the provider's key "
            "variable is set.",
        ),
        click.Option(
            ["--role-arg", "role_args"],
            multiple=True,
            help="ROLE:NAME=VALUE: a role's model argument given again (e.g. checker:api_key=...).",
        ),
        # A resumed run keeps its batch mode: the log holds it.
        *model_params(ConnectionSettings, leave_out=("batch", "batch_delay")),
        display_param(),
    ],
)
def retry_command(**values: Any) -> None:
    """Finish interrupted or failed evaluations: the samples already done are kept, only the
    rest run (inspect's eval-retry), and the resumed log is written beside the old one. A
    log that was already resumed is finished through its latest resumption; a retry on data,
    prompts or templates that changed since the run is refused (naming what changed)."""
    by_name("medhalbench.commands:retry_from_command_line")(**values)
