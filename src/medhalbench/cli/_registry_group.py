"""A command group whose subcommands come from the benchmark registry, read when the group
is used (so that a benchmark registered at run time appears too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from medhalbench.cli._options import ExamplesGroup
from medhalbench.registry import Benchmark, benchmarks


class RegistryGroup(ExamplesGroup):
    """A group with one subcommand per benchmark, made by `command` (None: none), named
    after the benchmark; commands added to the group itself come first. Each benchmark's
    command is made once."""

    def __init__(
        self, *args: Any, command: Callable[[Benchmark], click.Command | None], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self._command_of = command
        self._made: dict[int, click.Command | None] = {}

    def _registered(self) -> dict[str, click.Command]:
        found = {}
        for entry in benchmarks():
            if id(entry) not in self._made:
                self._made[id(entry)] = self._command_of(entry)
            command = self._made[id(entry)]
            if command is not None:
                found[entry.name] = command
        return found

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*super().list_commands(ctx), *self._registered()]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, cmd_name) or self._registered().get(cmd_name)
