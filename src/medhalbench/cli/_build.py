"""`medhalbench build ...` (one builder command per registered benchmark that has one) and the
benchmarks' other commands, declared from their settings models; each runs its
implementation in `commands`."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import click

from medhalbench._lazy import by_name
from medhalbench.cli._options import ExamplesGroup, builder_model_params, settings_command
from medhalbench.cli._registry_group import RegistryGroup
from medhalbench.registry import Benchmark, Tool


def build_command(entry: Benchmark) -> click.Command | None:
    """The `build` command of a benchmark's builder (None: it has none)."""
    if entry.builder is None:
        return None
    run = by_name("medhalbench.commands:run_build_command")
    return settings_command(
        entry.name,
        entry.builder.settings,
        functools.partial(run, entry.name),
        builder_model_params(entry.builder.roles),
    )


@click.group(name="build", cls=RegistryGroup, command=build_command)
def build_group() -> None:
    """Build benchmark data with models (resumable: rerun to finish an interrupted build)."""


def tool_command(entry: Benchmark, tool: Tool) -> click.Command:
    """The command of a benchmark's tool (its last word is the command's name)."""
    run = by_name("medhalbench.commands:run_tool_command")
    return settings_command(
        tool.path[-1],
        tool.request,
        functools.partial(run, entry.name, tool.request.__name__),
        builder_model_params(tool.roles, plans=False) if tool.roles else (),
    )


def tool_commands(entry: Benchmark, tools: Sequence[Tool]) -> dict[str, click.Command]:
    """Commands for a benchmark's tools: a one-word tool is a command, the tools of longer
    paths are gathered into groups by their first word (`analyze clusters`)."""
    found: dict[str, click.Command] = {}
    for tool in tools:
        if len(tool.path) == 1:
            found[tool.path[0]] = tool_command(entry, tool)
            continue
        group = found.setdefault(
            tool.path[0], ExamplesGroup(name=tool.path[0], help=tool.group_help)
        )
        assert isinstance(group, click.Group)
        group.add_command(tool_command(entry, tool))
    return found
