"""The options every command that calls models shares, written once: the models, their
roles, and how they are reached and run (derived from `settings.RunOptions`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from medhalbench._errors import DataError
from medhalbench.commands._derive import click_param, model_params
from medhalbench.commands._models import model_name_problem, named_problem, parse_role_values
from medhalbench.data import MAX_TEXT_FILE_BYTES, check_input_file
from medhalbench.registry import Role
from medhalbench.settings import (
    DEFAULT_MODEL,
    DEFAULT_RESAMPLES,
    MAX_RESAMPLES,
    ConnectionSettings,
    ModelOptions,
    PlanSettings,
    RunOptions,
    options_of,
)

FC = TypeVar("FC", bound=Callable[..., Any] | click.Command)
"""What a click option decorates (as click's own decorators type it)."""


class InputFile(click.ParamType):
    """A file the command reads, checked before any work: a regular, readable UTF-8 text
    file of a sane size (a named pipe given as a file would block the command forever)."""

    name = "file"

    def __init__(self, what: str = "file", max_bytes: int = MAX_TEXT_FILE_BYTES) -> None:
        self.what = what
        self.max_bytes = max_bytes

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            check_input_file(value, what=self.what, max_bytes=self.max_bytes)
        except DataError as ex:
            self.fail(str(ex), param, ctx)
        return value


def checked_model_names(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A model option's values, each checked as a model name before any work: an empty
    name (`--model ''`) is refused, not taken for the default."""
    values = value if isinstance(value, list | tuple) else [] if value is None else [value]
    for given in values:
        names = [n.strip() for n in str(given).split(",")] if param.multiple else [str(given)]
        for name in names:
            problem = model_name_problem(name)
            if problem:
                raise click.BadParameter(named_problem(name, problem))
    return value


def flag(name: str, help: str) -> click.Option:
    """An on/off option, off unless given (`--dry-run`)."""
    return click.Option([name], is_flag=True, help=help)


def format_option(
    formats: Sequence[str], *, default: str, help: str | None = None
) -> Callable[[FC], FC]:
    """`--format` (the parameter `fmt`): one of `formats`, `default` when not given."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(formats),
        default=default,
        show_default=True,
        help=help,
    )


def bootstrap_option(*, least: int, help: str) -> Callable[[FC], FC]:
    """`--bootstrap`: how many resamples make an interval (at least `least`, at most
    `MAX_RESAMPLES`, as the bootstrap takes)."""
    return click.option(
        "--bootstrap",
        type=click.IntRange(min=least, max=MAX_RESAMPLES),
        default=DEFAULT_RESAMPLES,
        show_default=True,
        help=help,
    )


def connection_params(*, leave_out: Sequence[str] = ()) -> list[click.Parameter]:
    """`--max-connections`, `--max-retries`, `--timeout`, ... from `ConnectionSettings`."""
    return model_params(ConnectionSettings, leave_out=leave_out)


def display_param() -> click.Parameter:
    """`--display`: inspect's own display instead of our progress bars."""
    return click_param(next(o for o in options_of(RunOptions) if o.name == "display"))


def role_params(roles: Sequence[Role], *, shared: str | None) -> list[click.Parameter]:
    """One option per role (`--splitter MODEL`), the option naming every role at once
    (`shared`: `--judge` for an eval's judges, `--model` for a builder's roles), and each
    role's own base URL and model arguments."""
    if not roles:
        return []
    names = [r.name for r in roles]
    listed = ", ".join(names)

    def by_role(option: str) -> Any:
        return lambda ctx, param, values: parse_role_values(values, names, option)

    params: list[click.Parameter] = [
        click.Option(
            [f"--{r.name}", r.name],
            multiple=r.many,
            default=() if r.many else None,
            callback=checked_model_names,
            help=r.help + (" Repeat for several." if r.many else ""),
        )
        for r in roles
        if r.option
    ]
    judges = [r.name for r in roles if r.judge and not r.optional]
    if shared == "--judge" and judges:
        params.append(
            click.Option(
                ["--judge"],
                default=None,
                callback=checked_model_names,
                help=f"Model of every judge role not named ({', '.join(judges)}). Required "
                f"(or each role named) when a model under test is not embedded: "
                f"{DEFAULT_MODEL} judges only embedded models unless named.",
            )
        )
    elif shared == "--model":
        params.append(
            click.Option(
                ["--model", "shared_model"],
                default=None,
                callback=checked_model_names,
                help=f"Model of every role not named ({listed}). Without it and without "
                f"each role named, the roles are {DEFAULT_MODEL} (only when no role names "
                "a real model).",
            )
        )
    return params + [
        click.Option(
            ["--role-base-url", "role_base_urls"],
            multiple=True,
            callback=by_role("--role-base-url"),
            help=f"ROLE=URL: base URL of one role's model ({listed}); default: --model-base-url when the role names the same provider.",
        ),
        click.Option(
            ["--role-arg", "role_args"],
            multiple=True,
            callback=by_role("--role-arg"),
            help=f"ROLE:NAME=VALUE: model argument of one role ({listed}); default: -M when the role names the same provider.",
        ),
    ]


def eval_model_params(roles: Sequence[Role]) -> list[click.Parameter]:
    """The model under test, its roles, and how inspect calls them and logs the run
    (`RunOptions`)."""
    return [
        click.Option(
            ["--model", "models"],
            multiple=True,
            callback=checked_model_names,
            help=f"Model(s) under test, inspect names (e.g. openai/gpt-4o, openai-api/NAME, embedded/smollm2, embedded:/abs/model.gguf). Repeat or comma-separate for several. Default: {DEFAULT_MODEL}.",
        ),
        *role_params(roles, shared="--judge"),
        *model_params(RunOptions),
    ]


def builder_model_params(roles: Sequence[Role], *, plans: bool = True) -> list[click.Parameter]:
    """The models of a builder's (or tool's) roles and how they are called (`plans`: with
    `--dry-run` and `--prices`)."""
    return [
        *role_params(roles, shared="--model"),
        *model_params(ModelOptions),
        *(model_params(PlanSettings) if plans else []),
    ]
