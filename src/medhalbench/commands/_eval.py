"""`medhalbench eval NAME`, derived from a benchmark's declaration: one option per argument of
its task (type, default, choices, range and help from the signature and docstring), one per
role, its sweep and planning settings, and the shared model options."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import click

from medhalbench.commands._derive import (
    click_params,
    command_options,
    command_settings,
    examples_epilog,
    refusal,
    settings_from,
    take_values,
)
from medhalbench.commands._failures import fail_on_unfinished
from medhalbench.commands._models import batchless, parse_model_args
from medhalbench.commands._options import eval_model_params, flag
from medhalbench.commands._roles import role_names
from medhalbench.commands._run import (
    console,
    print_log_locations,
    run_eval,
    split_models,
)
from medhalbench.commands._tables import print_table, show_results
from medhalbench.outputs import system_model
from medhalbench.registry import Benchmark
from medhalbench.settings import (
    EXAMPLE_DATASET,
    RunOptions,
    SettingsError,
    Spelling,
    description,
    options_of,
    usage_examples,
)

CONNECTED = ("cache",)
"""Task arguments that take the value of the model option of the same name (`--cache`)."""
RESPONSES = "responses"
"""The task argument naming outputs written elsewhere: given, no model under test runs."""


def parse_sweep(value: str | None, flag: str) -> list[str] | None:
    """The comma-separated values of a sweep (each checked when its run's task is made)."""
    if not value:
        return None
    values = [v.strip() for v in value.split(",") if v.strip()]
    if not values:
        raise click.BadParameter("expected comma-separated values", param_hint=flag)
    return values


def _system_option() -> click.Option:
    return click.Option(
        ["--system"],
        default=None,
        metavar="NAME",
        type=click.STRING,
        callback=_system_name,
        help="With --responses: the name of the system that wrote them, the run's model in "
        "the log, tables and report (system/NAME; default: the file's name).",
    )


def _system_name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and (not value.strip() or any(c.isspace() for c in value.strip())):
        raise click.BadParameter(
            f"{value!r}: expected a name without spaces (e.g. scribe-v2)", param_hint="--system"
        )
    return value.strip() if value is not None else None


def eval_command(entry: Benchmark) -> click.Command:
    """The `eval` command of a benchmark."""
    model = entry.settings
    arguments = [
        replace(o, help=f"{o.help} '{EXAMPLE_DATASET}': the packaged example.")
        if o.name == "dataset" and entry.example
        else o
        for o in command_options(model, leave_out=CONNECTED)
    ]
    plan_arguments = command_options(entry.plan_settings) if entry.plan_settings else []
    sweep = entry.sweep
    declared = {o.name for o in options_of(model)}

    def run(**values: Any) -> None:
        ctx = click.get_current_context()
        task_values = take_values(arguments, values, model)
        given_by_t = parse_model_args(values.pop("task_args"), option="-T")
        for name in given_by_t:
            source = ctx.get_parameter_source(name)
            if source is not None and source is not click.core.ParameterSource.DEFAULT:
                option = f"--{name.replace('_', '-')}"
                raise click.BadParameter(
                    f"-T {name}=... and {option} both set {name}: give one", param_hint="-T"
                )
        task_values.update(given_by_t)
        task_values.update({name: values[name] for name in CONNECTED if name in declared})
        swept = parse_sweep(values.pop("sweep"), sweep.flag) if sweep else None
        if (
            swept
            and sweep
            and ctx.get_parameter_source(sweep.argument) is not (click.core.ParameterSource.DEFAULT)
        ):
            raise click.BadParameter(
                f"give --{sweep.argument.replace('_', '-')} or {sweep.flag}, not both",
                param_hint=sweep.flag,
            )
        plan_settings = (
            settings_from(entry.plan_settings, plan_arguments, values)
            if entry.plan_settings
            else None
        )
        wide, published = values.pop("wide"), values.pop("published")
        given = task_values.get(RESPONSES)
        requested, system = values.pop("models"), values.pop("system", None)
        if system is not None and not given:
            raise click.BadParameter(
                "names the system that wrote outputs given with --responses; give --responses "
                "FILE too (or --model MODEL to generate)",
                param_hint="--system",
            )
        if given and ctx.get_parameter_source("models") is not click.core.ParameterSource.DEFAULT:
            raise click.BadParameter(
                "nothing is generated for outputs given with --responses: name what wrote "
                "them with --system NAME instead",
                param_hint="--model",
            )
        models = [system_model(given, system)] if given else split_models(requested)
        roles = role_names(
            entry.roles,
            {r.name: list(v) if r.many else [v] for r in entry.roles if (v := values.pop(r.name))},
            under_test=[f"the outputs in {given}"] if given else models,
            shared=values.pop("judge", None),
        )
        options = command_settings(RunOptions, values)
        unbatched = batchless([*models, *(n for names in roles.values() for n in names)])
        if options.batch and unbatched:
            raise click.BadParameter(unbatched, param_hint="--batch")
        overrides = [{sweep.argument: v} for v in swept] if swept and sweep else [{}]
        spelt = [
            replace(o, spelling=Spelling(flag=sweep.flag))
            if swept and sweep and o.name == sweep.argument
            else o
            for o in arguments
        ]
        try:
            tasks = [entry.make_task({**task_values, **o}) for o in overrides]
        except SettingsError as ex:
            raise refusal(spelt, ex) from None
        logs = run_eval(
            tasks,
            models=models,
            options=options,
            roles={role: names[0] for role, names in roles.items()},
            plan_settings=plan_settings,
        )
        results = show_results(console, logs, wide=wide, published=published)
        for log in logs:
            if log.status == "success":
                for path in entry.outputs(log):
                    console.print(f"Written: {path}")
        if swept and sweep and sweep.table and results and not wide:
            print_table(console, sweep.table(results))
        print_log_locations(logs, options.log_dir)
        fail_on_unfinished(logs)

    params: list[click.Parameter] = [
        *click_params(arguments),
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
        *click_params(plan_arguments),
        click.Option(
            ["-T", "task_args"],
            multiple=True,
            help="Task argument NAME=VALUE, as `inspect eval -T` takes it (repeat for several).",
        ),
        flag("--wide", "One wide table of every figure (default: one narrow table per run)."),
        flag("--published", "With --wide: add the paper's published figures as reference rows."),
        *eval_model_params(entry.roles),
        *([_system_option()] if RESPONSES in declared else []),
    ]
    return click.Command(
        name=entry.name,
        callback=run,
        params=params,
        help=f"{description(model)} ({entry.title}: {entry.paper}.)",
        epilog=examples_epilog(usage_examples(model)),
    )
