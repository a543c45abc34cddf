"""`medhalbench run SUITE` and `medhalbench plan SUITE`: a grid of models and benchmark runs."""

from __future__ import annotations

from typing import Any

import click

from medhalbench._lazy import by_name
from medhalbench.cli._options import display_param, examples_epilog, model_params
from medhalbench.settings import PlanSettings


@click.command(
    name="run",
    params=[display_param()],
    epilog=examples_epilog(["medhalbench run demo", "medhalbench run my_suite.yaml"]),
)
@click.argument("suite")
@click.option(
    "--force",
    is_flag=True,
    help="Run again, on the files as they are now, the runs whose data, prompts or templates "
    "changed since their logs were made (their logs are set aside as .stale). Default: refused.",
)
def run_command(**values: Any) -> None:
    """Run a suite (a YAML file, or `demo` for the packaged one) through inspect's eval_set:
    every run on every model, logs in one folder, one report with the papers' rows. Run it
    again after a failure or an interruption to finish only what is missing."""
    by_name("medhalbench.commands:run_from_command_line")(**values)


@click.command(
    name="plan",
    params=model_params(PlanSettings, leave_out=("dry_run",)),
    epilog=examples_epilog(
        ["medhalbench plan demo", "medhalbench plan my_suite.yaml --prices prices.yaml"]
    ),
)
@click.argument("suite")
@click.option(
    "-P",
    "plan_settings",
    multiple=True,
    help="Planning setting NAME=VALUE of the benchmarks (e.g. units_per_answer=11 for DAHL).",
)
def plan_command(**values: Any) -> None:
    """Print what a suite will call, per run and model: calls and tokens per role, and the
    cost at the given prices. Loads and checks every dataset; calls no model."""
    by_name("medhalbench.commands:plan_from_command_line")(**values)
