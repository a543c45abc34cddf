"""Command-line options derived from settings models: the same names, defaults, allowed values
and help. An option only spells a setting: the model validates what it is given, so that a
command line, a suite and `inspect eval -T` pass the one check, and every value at fault is
named at once."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from medhalbench.settings import (
    CommandSettings,
    Option,
    Settings,
    SettingsError,
    anchored,
    options_of,
)

C = TypeVar("C", bound=CommandSettings)
S = TypeVar("S", bound=Settings)


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
        if option.spelling.metavar:
            return option.spelling.metavar
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
        return SettingOption(
            [f"{flag}/--no-{flag.removeprefix('--')}", option.name],
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


def command_options(model: type[Settings], *, leave_out: Sequence[str] = ()) -> list[Option]:
    """The settings of a model that a command gives (those named in `leave_out` not)."""
    return [o for o in options_of(model) if o.name not in leave_out]


def click_params(options: Iterable[Option]) -> list[click.Parameter]:
    """The options that spell settings, in order."""
    return [click_param(o) for o in options]


def model_params(model: type[Settings], *, leave_out: Sequence[str] = ()) -> list[click.Parameter]:
    """The options that spell a model's settings."""
    return click_params(command_options(model, leave_out=leave_out))


def take_values(
    options: Iterable[Option], values: dict[str, Any], model: type[Settings]
) -> dict[str, Any]:
    """Remove the options' values from a command's values and return them as the settings
    model takes them: repeated options as lists, each relative local path made absolute (so
    that a log resumed from another folder finds it)."""
    taken = {}
    for option in options:
        value = values.pop(option.name)
        taken[option.name] = list(value) if isinstance(value, tuple) else value
    return anchored(model, taken, Path.cwd())


def refusal(options: Iterable[Option], error: SettingsError) -> click.UsageError:
    """A settings model's refusal, each setting named by the option that spells it."""
    flags: Mapping[str, str] = {o.name: o.flag for o in options}
    return click.UsageError(
        "; ".join(f"{flags.get(p.setting, p.setting)}: {p.reason}" for p in error.problems)
    )


def settings_from(model: type[S], options: Sequence[Option], values: dict[str, Any]) -> S:
    """A command's settings of a model, validated from its options' values.

    Raises:
        click.UsageError: Naming every option whose value the model does not take.
    """
    try:
        return model.of(take_values(options, values, model))
    except SettingsError as ex:
        raise refusal(options, ex) from None


def command_settings(model: type[C], values: Mapping[str, Any]) -> C:
    """A command's settings of a model among its values (`CommandSettings.among`).

    Raises:
        click.UsageError: Naming every option whose value the model does not take.
    """
    try:
        return model.among(values)
    except SettingsError as ex:
        raise refusal(options_of(model), ex) from None


def examples_epilog(lines: Sequence[str]) -> str | None:
    """A help page's `Examples:` section: command lines kept as written (click rewraps every
    paragraph not marked `\\b`)."""
    if not lines:
        return None
    return "Examples:\n\n\b\n" + "\n".join(f"  {line}" for line in lines)


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
