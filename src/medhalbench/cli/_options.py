"""The command line's options, derived from settings models (the same names, defaults, allowed
values and help) and written once where shared: the models under test, their roles, how they
are reached and run (`settings.RunOptions`), plans, display and formats. An option only spells
a setting: the model validates what it is given. Light: every `--help` is built from here."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import click

from medhalbench.registry import Role
from medhalbench.settings import (
    DEFAULT_MODEL,
    ModelOptions,
    Option,
    PlanSettings,
    RunOptions,
    Settings,
    description,
    model_name_problem,
    named_problem,
    options_of,
    parse_role_values,
    usage_examples,
)


class _Given(click.ParamType):
    """A setting's value as written: a number where it reads as one (so that logs keep it
    typed), any other text as it is, for the settings model to check."""

    def __init__(self, option: Option) -> None:
        self.option = option
        self.name = option.kind.__name__ if option.kind is not object else "text"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str) or self.option.kind not in (int, float):
            return value
        try:
            return self.option.kind(value)
        except ValueError:
            return value

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        option = self.option
        if option.spelling.metavar or option.spelling.positional:
            return option.spelling.metavar or option.name.upper()
        shown = "[" + "|".join(map(str, option.choices)) + "]" if option.choices else None
        shown = shown or {int: "INTEGER", float: "FLOAT"}.get(option.kind, "TEXT")
        return f"{shown},..." if option.comma_separated else shown


class SettingOption(click.Option):
    """An option that spells a setting, its help showing the numbers the setting takes."""

    def __init__(self, *args: Any, bounds: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bounds = bounds

    def get_help_extra(self, ctx: click.Context) -> Any:
        extra = super().get_help_extra(ctx)
        if self.bounds:
            extra["range"] = self.bounds
        return extra


class Name(click.ParamType):
    """A name given as an option (a system's, an annotator's): stripped, one word, nothing a
    terminal would act on (control characters, bidirectional overrides), since it is
    printed and stored."""

    name = "name"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        name = str(value).strip()
        if not name or not name.isprintable() or any(c.isspace() for c in name):
            self.fail(f"{value!r}: expected a name without spaces or control characters")
        return name


NAME = Name()


def click_param(option: Option) -> click.Parameter:
    """The option (or positional argument) that spells a setting."""
    kind = _Given(option)
    if option.spelling.positional:
        return click.Argument(
            [option.name], type=kind, nargs=-1 if option.many else 1, required=option.required
        )
    default = None if option.required else option.default
    if option.kind is bool and not option.many:
        flag = option.flag
        negated = "" if option.spelling.flag else f"/--no-{flag.removeprefix('--')}"
        return SettingOption(
            [flag + negated, option.name],
            is_flag=True,
            # Absent stays None where None is a value: its default is decided elsewhere (a
            # build protocol's), and neither flag given must not stand for one of them.
            default=None if default is None and option.optional else bool(default),
            show_default=bool(default),
            help=option.help,
        )
    return SettingOption(
        [option.flag, option.name],
        type=kind,
        multiple=option.many,
        required=option.required,
        default=default if not option.many else tuple(default or ()),
        show_default=default not in (None, (), []),
        help=option.help,
        bounds=option.bounds,
    )


def click_params(options: Iterable[Option]) -> list[click.Parameter]:
    """The options that spell settings, in order."""
    return [click_param(o) for o in options]


def model_params(model: type[Settings], *, leave_out: Sequence[str] = ()) -> list[click.Parameter]:
    """The options that spell a model's settings (those named in `leave_out` not)."""
    return click_params(o for o in options_of(model) if o.name not in leave_out)


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


def examples_epilog(lines: Sequence[str]) -> str | None:
    """A help page's `Examples:` section: command lines kept as written (click rewraps every
    paragraph not marked `\\b`)."""
    if not lines:
        return None
    return "Examples:\n\n\b\n" + "\n".join(f"  {line}" for line in lines)


def settings_command(
    name: str,
    model: type[Settings],
    callback: Callable[..., Any],
    extra: Sequence[click.Parameter] = (),
    *,
    whole: bool = False,
) -> click.Command:
    """A command whose options spell a settings model (then `extra`), its help and examples
    the model's docstring (`whole`: every paragraph before its sections, not the first)."""
    return click.Command(
        name=name,
        callback=callback,
        params=[*model_params(model), *extra],
        help=description(model, whole=whole),
        epilog=examples_epilog(usage_examples(model)),
    )


def examples_of(command: click.Command) -> list[str]:
    """The command lines of a command's `Examples:` section (its epilog)."""
    lines = (command.epilog or "").partition("\b\n")[2].splitlines()
    return [line.strip() for line in lines if line.strip()]


class ExamplesGroup(click.Group):
    """A group whose help ends with the first example of each of its commands (each example
    is written once, on its own command), unless the group has examples of its own."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if self.epilog is None:
            commands = [self.get_command(ctx, name) for name in self.list_commands(ctx)]
            firsts = [examples_of(c)[0] for c in commands if c is not None and examples_of(c)]
            text = examples_epilog(firsts)
            if text:
                formatter.write_paragraph()
                with formatter.indentation():
                    formatter.write_text(text)
            return
        super().format_epilog(ctx, formatter)
