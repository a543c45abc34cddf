"""Command-line options derived from declared arguments (a task's signature, a settings
dataclass): the same names, types, defaults, choices, ranges and help, so that a command line
and a suite entry pass the same checks."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from medhalbench.arguments import Argument, ArgumentError, arguments_of


def absolute(path: str | None) -> str | None:
    """A local file's absolute path (so that a log resumed from another folder finds it);
    anything that is not a local path (a hub id, `github`) unchanged."""
    if path is None or not Path(path).expanduser().exists():
        return path
    return str(Path(path).expanduser().resolve())


class _Parsed(click.ParamType):
    """A value written in a form of its own (`0/4`, `NAME=PATH`), checked by its declaration
    and kept as written: the declaration reads it again when the settings are made."""

    def __init__(self, argument: Argument) -> None:
        assert argument.parse is not None
        self.argument = argument
        self.name = argument.parse.metavar

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            self.argument.check_item(value)
        except ArgumentError as ex:
            self.fail(ex.reason, param, ctx)
        return value

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return self.name


class _Listed(click.ParamType):
    """One or more comma-separated values of a list argument, each read and checked by its
    declaration (`--difficulty easy,medium`)."""

    def __init__(self, argument: Argument) -> None:
        self.argument = argument
        self.name = "list"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value
        try:
            return self.argument.check(value)
        except ArgumentError as ex:
            self.fail(ex.reason, param, ctx)

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        if self.argument.choices:
            return "[" + "|".join(map(str, self.argument.choices)) + "],..."
        return "VALUE,..."


def click_type(argument: Argument) -> click.ParamType:
    """The click type that reads and checks one value of an argument."""
    if argument.parse is not None:
        return _Parsed(argument)
    if argument.many and not argument.spelling.positional:
        return _Listed(argument)
    if argument.choices is not None:
        return click.Choice([str(c) for c in argument.choices])
    if argument.kind is bool:
        return click.BOOL
    bounds = argument.range
    if argument.kind in (int, float):
        if bounds is None:
            return click.INT if argument.kind is int else click.FLOAT
        if argument.kind is int:
            return click.IntRange(
                None if bounds.min is None else int(bounds.min),
                None if bounds.max is None else int(bounds.max),
                min_open=bounds.min_open,
                max_open=bounds.max_open,
            )
        return _FiniteRange(
            bounds.min, bounds.max, min_open=bounds.min_open, max_open=bounds.max_open
        )
    path = argument.path
    if path is not None and (path.must_exist or not path.dir_okay or not path.file_okay):
        return click.Path(exists=path.must_exist, dir_okay=path.dir_okay, file_okay=path.file_okay)
    return click.STRING


class _FiniteRange(click.FloatRange):
    """A float range that refuses nan and infinity (click's comparisons let them through:
    `--batch-delay inf` would wait for ever)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        converted = super().convert(value, param, ctx)
        if isinstance(converted, float) and not math.isfinite(converted):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return converted


def click_param(argument: Argument) -> click.Parameter:
    """The option (or positional argument) of an argument."""
    kind = click_type(argument)
    if argument.spelling.positional:
        return click.Argument(
            [argument.name], type=kind, nargs=-1 if argument.many else 1,
            required=argument.required,
        )  # fmt: skip
    default = None if argument.required else argument.default
    if argument.kind is bool and not argument.many:
        flag = argument.flag
        return click.Option(
            [f"{flag}/--no-{flag.removeprefix('--')}", argument.name],
            # Absent stays None where None is a value: its default is decided elsewhere (a
            # build protocol's), and neither flag given must not stand for one of them.
            default=None if default is None and argument.optional else bool(default),
            show_default=bool(default),
            help=argument.help,
        )
    return click.Option(
        [argument.flag, argument.name],
        type=kind,
        multiple=argument.many,
        required=argument.required,
        default=default if not argument.many else tuple(default or ()),
        show_default=default not in (None, (), []),
        metavar=argument.spelling.metavar,
        help=argument.help,
    )


def click_params(arguments: Iterable[Argument]) -> list[click.Parameter]:
    """The options of arguments, in order."""
    return [click_param(a) for a in arguments]


def options_of(
    owner: Callable[..., Any] | type, *, leave_out: Sequence[str] = ()
) -> list[Argument]:
    """The arguments of a function or settings dataclass that the command line gives."""
    return [a for a in arguments_of(owner) if a.name not in leave_out]


def take_values(arguments: Iterable[Argument], values: dict[str, Any]) -> dict[str, Any]:
    """Remove the arguments' values from a command's values and return them as the
    declaration expects them (repeated options as lists, local paths absolute)."""
    taken = {}
    for argument in arguments:
        value = values.pop(argument.name)
        if argument.many:  # a repeated option: its values, each a list when comma-separated
            value = [v for item in value for v in (item if isinstance(item, list) else [item])]
        if argument.path is not None:
            value = [absolute(v) for v in value] if argument.many else absolute(value)
        taken[argument.name] = value
    return taken


def option_hint(arguments: Iterable[Argument], error: ArgumentError) -> str:
    """The command-line spelling of the argument an error names (the name when none)."""
    by_name: Mapping[str, Argument] = {a.name: a for a in arguments}
    found = by_name.get(error.argument)
    return found.flag if found is not None else error.argument


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
