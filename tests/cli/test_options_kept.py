"""Every option of every command before options were derived from declarations is still
there, with the same default (`data/options_before.json` was read off the command line
before the change), but for the changes made on purpose, listed here."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from medhalbench.cli import cli

BEFORE = json.loads((Path(__file__).parent / "data" / "options_before.json").read_text())
UNSET = (None, False, [], "Sentinel.UNSET")

# Role models have no default any more: a role left unnamed is the embedded model only when
# the models under test (or, for builders, every named role) are embedded too.
ROLES_WITHOUT_DEFAULT = {
    ("analyze clusters", "--generator"),
    ("build dahl", "--generator"),
    ("build medhal", "--converter"),
    ("build medhallu", "--generator"),
    ("build medhallu", "--refiner"),
    ("eval dahl", "--splitter"),
    ("eval dahl", "--checker"),
}


# Benchmark tools moved under their benchmark's group (`medhalbench medhallu merge`, ...).
RENAMED = {
    "merge": "medhallu merge",
    "analyze clusters": "medhallu analyze clusters",
    "train medhal": "medhal train",
}

# Knobs whose default is now their build protocol's (None on the command line, the help
# saying each protocol's): `ours`, the default protocol, gives the default each had.
OURS = re.compile(r"Default: ours (\S+?);")


def commands() -> Iterator[tuple[str, click.Command]]:
    """Every command that runs (no group), by its words."""

    def walk(command: click.Command, path: list[str]) -> Iterator[tuple[str, click.Command]]:
        ctx = click.Context(command, info_name=" ".join(path))
        if not isinstance(command, click.Group):
            yield " ".join(path), command
            return
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None
            yield from walk(sub, [*path, name])

    yield from walk(cli, [])


def protocol_defaults() -> dict[tuple[str, str], str]:
    """(command, flag): the `ours` value its help gives, for every knob set by protocol."""
    return {
        (name, flag): match.group(1)
        for name, command in commands()
        for param in command.params
        if isinstance(param, click.Option)
        and (match := OURS.search(" ".join((param.help or "").split())))
        for flag in param.opts
    }


def options_now() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for name, command in commands():
        options: dict[str, Any] = {}
        for param in command.params:
            default = param.default
            default = list(default) if isinstance(default, tuple) else default
            for flag in param.opts if isinstance(param, click.Option) else [param.name or ""]:
                options[flag] = default if not callable(default) else repr(default)
        found[name] = options
    return found


def _same(before: Any, now: Any) -> bool:
    if before in UNSET or str(before) == "Sentinel.UNSET":
        return now in UNSET or str(now) == "Sentinel.UNSET"
    return bool(before == now)


def test_every_option_of_every_command_is_kept_with_its_default() -> None:
    now = options_now()
    before = {RENAMED.get(command, command): options for command, options in BEFORE.items()}
    roles_without_default = {(RENAMED.get(c, c), flag) for c, flag in ROLES_WITHOUT_DEFAULT}
    by_protocol = protocol_defaults()
    assert ("medhal train", "--lora-r") in by_protocol and (
        "build medhallu",
        "--tau",
    ) in by_protocol
    assert set(before) <= set(now), set(before) - set(now)
    for command, options in before.items():
        for flag, default in options.items():
            assert flag in now[command], f"{command}: {flag} is gone"
            if (command, flag) in roles_without_default:
                assert now[command][flag] is None, (command, flag)
                continue
            if (command, flag) in by_protocol:
                assert now[command][flag] is None, (command, flag)
                assert by_protocol[command, flag] == str(default).lower(), (command, flag)
                continue
            assert _same(default, now[command][flag]), (command, flag, default, now[command][flag])
