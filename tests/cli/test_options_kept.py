"""Every option of every command before options were derived from declarations is still
there, with the same default (`data/options_before.json` was read off the command line
before the change), but for the changes made on purpose, listed here."""

from __future__ import annotations

import json
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

# `medhal train`'s knobs now default to the `--protocol`'s values (None on the command line);
# `ours`, the default protocol, resolves each to the default it had.
PROTOCOL_KNOBS = {"--batch-size", "--lora-alpha", "--lora-r", "--max-length", "--steps"}


def _ours_resolves(flag: str) -> Any:
    from medhalbench.medhal._train import TrainSettings, recipe

    knob = flag.removeprefix("--").replace("-", "_")
    return getattr(recipe(TrainSettings(), "ours", examples=1), knob)


def options_now() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}

    def walk(command: click.Command, path: list[str]) -> None:
        ctx = click.Context(command, info_name=" ".join(path))
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None
                walk(sub, [*path, name])
            return
        options: dict[str, Any] = {}
        for param in command.params:
            default = param.default
            default = list(default) if isinstance(default, tuple) else default
            for flag in param.opts if isinstance(param, click.Option) else [param.name or ""]:
                options[flag] = default if not callable(default) else repr(default)
        found[" ".join(path)] = options

    walk(cli, [])
    return found


def _same(before: Any, now: Any) -> bool:
    if before in UNSET or str(before) == "Sentinel.UNSET":
        return now in UNSET or str(now) == "Sentinel.UNSET"
    return bool(before == now)


def test_every_option_of_every_command_is_kept_with_its_default() -> None:
    now = options_now()
    before = {RENAMED.get(command, command): options for command, options in BEFORE.items()}
    roles_without_default = {(RENAMED.get(c, c), flag) for c, flag in ROLES_WITHOUT_DEFAULT}
    assert set(before) <= set(now), set(before) - set(now)
    for command, options in before.items():
        for flag, default in options.items():
            assert flag in now[command], f"{command}: {flag} is gone"
            if (command, flag) in roles_without_default:
                assert now[command][flag] is None, (command, flag)
                continue
            if command == "medhal train" and flag in PROTOCOL_KNOBS:
                assert now[command][flag] is None and _ours_resolves(flag) == default, flag
                continue
            assert _same(default, now[command][flag]), (command, flag, default, now[command][flag])
