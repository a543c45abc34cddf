"""`medhalbench eval ...` (one command per registered benchmark) and `medhalbench retry`."""

from __future__ import annotations

import click

from medhalbench.cli._registry_group import RegistryGroup
from medhalbench.commands import (
    command_settings,
    connection_params,
    display_param,
    eval_command,
    examples_epilog,
    flag,
    retry_runs,
)
from medhalbench.settings import ConnectionSettings, Display


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
        *connection_params(leave_out=("batch", "batch_delay")),
        display_param(),
    ],
)
def retry_command(
    logs: tuple[str, ...],
    log_dir: str | None,
    force: bool,
    model_args: tuple[str, ...],
    role_args: tuple[str, ...],
    display: Display | None,
    **connection: int | None,
) -> None:
    """Finish interrupted or failed evaluations: the samples already done are kept, only the
    rest run (inspect's eval-retry), and the resumed log is written beside the old one. A
    log that was already resumed is finished through its latest resumption; a retry on data,
    prompts or templates that changed since the run is refused (naming what changed)."""
    retry_runs(
        logs,
        log_dir=log_dir,
        force=force,
        model_args=model_args,
        role_args=role_args,
        connection=command_settings(ConnectionSettings, connection),
        display=display,
    )
