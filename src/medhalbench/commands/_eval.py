"""`medhalbench eval NAME` run: the command's values made into the benchmark's tasks (whose
settings the task validates), its models and roles, run and tabled."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import click
from click.core import ParameterSource

from medhalbench.commands._derive import command_settings, refusal, settings_from, take_values
from medhalbench.commands._failures import fail_on_unfinished
from medhalbench.commands._models import batchless
from medhalbench.commands._roles import role_names
from medhalbench.commands._run import (
    console,
    print_log_locations,
    run_eval,
    split_models,
    write_outputs,
)
from medhalbench.commands._tables import print_table, show_results
from medhalbench.outputs import system_model
from medhalbench.registry import benchmark
from medhalbench.settings import (
    RunOptions,
    SettingsError,
    Spelling,
    TableOptions,
    as_commanded,
    parse_model_args,
    task_options,
)


def parse_sweep(value: str | None, flag: str) -> list[str] | None:
    """The comma-separated values of a sweep (each checked when its run's task is made)."""
    if not value:
        return None
    values = [v.strip() for v in value.split(",") if v.strip()]
    if not values:
        raise click.BadParameter("expected comma-separated values", param_hint=flag)
    return values


def _given_on_the_command_line(ctx: click.Context) -> set[str]:
    """The options the command line gave, at their default or not."""
    return {
        name
        for name in ctx.params
        if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)
    }


def run_eval_command(entry_name: str, **values: Any) -> None:
    """`medhalbench eval NAME`: its runs from the command's values (the settings validated by
    the benchmark's task, a refusal naming each option at fault)."""
    entry = benchmark(entry_name)
    model = entry.settings
    arguments = task_options(model)
    sweep = entry.sweep
    given_here = _given_on_the_command_line(click.get_current_context())
    task_values = take_values(arguments, values, model)
    given_by_t = parse_model_args(values.pop("task_args"), option="-T")
    for name in given_by_t:
        if name in given_here:
            option = f"--{name.replace('_', '-')}"
            raise click.BadParameter(
                f"-T {name}=... and {option} both set {name}: give one", param_hint="-T"
            )
    task_values.update(given_by_t)
    task_values.update({o: values[o] for o in model.model_fields if o in RunOptions.model_fields})
    swept = parse_sweep(values.pop("sweep"), sweep.flag) if sweep else None
    if swept and sweep and sweep.argument in given_here:
        raise click.BadParameter(
            f"give --{sweep.argument.replace('_', '-')} or {sweep.flag}, not both",
            param_hint=sweep.flag,
        )
    plan_settings = settings_from(entry.plan_settings, values) if entry.plan_settings else None
    tables = settings_from(TableOptions, values)
    # Outputs written elsewhere (`Means("outputs")`): given, no model under test runs.
    given = next((task_values[o.name] for o in arguments if o.means == "outputs"), None)
    requested, system = values.pop("models"), values.pop("system", None)
    if system is not None and not given:
        raise click.BadParameter(
            "names the system that wrote outputs given with --responses; give --responses "
            "FILE too (or --model MODEL to generate)",
            param_hint="--system",
        )
    if given and "models" in given_here:
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
    if given and not roles and options.reply_seed is not None:
        raise click.BadParameter(
            "has no effect on outputs written elsewhere (responses) when no judge is named: "
            "no model is called",
            param_hint="--reply-seed",
        )
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
        with as_commanded(roles, given=given_here):
            tasks = [entry.implementation.make_task({**task_values, **o}) for o in overrides]
    except SettingsError as ex:
        raise refusal(spelt, ex) from None
    logs = run_eval(
        tasks,
        models=models,
        options=options,
        roles={role: names[0] for role, names in roles.items()},
        plan_settings=plan_settings,
    )
    results = show_results(console, logs, wide=tables.wide, published=tables.published)
    write_outputs(logs)
    table = entry.implementation.sweep_table
    if swept and table and results and not tables.wide:
        print_table(console, table(results))
    print_log_locations(logs, options.log_dir)
    fail_on_unfinished(logs)
