"""The benchmarks' own commands: `medhalbench BENCHMARK TOOL` for each tool a benchmark
declares (`medhalbench dahl agreement`, `medhalbench medhallu merge`), loaded only when
that benchmark's group is used."""

from __future__ import annotations

import dataclasses

import click

from medhalbench.cli._build import tool_commands
from medhalbench.cli._options import ExamplesGroup
from medhalbench.registry import benchmarks, find_benchmark


def benchmark_tools(name: str) -> click.Group | None:
    """The group of a benchmark's tools (None: no benchmark has that name). A tool's path
    may start with the benchmark's name (`("dahl", "agreement")`); it is dropped here."""
    found = find_benchmark(name)
    if found is None:
        return None
    tools = [
        dataclasses.replace(tool, path=tool.path[1:]) if tool.path[0] == name else tool
        for tool in found.tools
        if tool.path != (name,)
    ]
    group = ExamplesGroup(name=name, help=f"Tools of the {found.title} benchmark.")
    for command in tool_commands(found, tools).values():
        group.add_command(command)
    return group


def legacy_tool(name: str) -> click.Command | None:
    """A tool under its earlier top-level spelling (`medhalbench merge`), kept so that
    scripts written for it still run; not listed in the help."""
    for entry in benchmarks():
        found = tool_commands(entry, entry.tools).get(name)
        if found is not None:
            return found
    return None
