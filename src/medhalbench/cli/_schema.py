"""`medhalbench schema [NAME]`: the JSON Schema of a suite file (every benchmark's settings as
its runs' arguments), or of one benchmark's, builder's or tool's settings, for editors and
checks. Derived from the settings models, as the command line is."""

from __future__ import annotations

import json
from typing import Any

import click

from medhalbench.cli._options import examples_epilog
from medhalbench.registry import benchmarks, find_benchmark
from medhalbench.settings import Settings, SuiteFile

DRAFT = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect pydantic writes."""


def _settings_schema(model: type[Settings]) -> dict[str, Any]:
    schema = model.model_json_schema()
    if "$defs" in schema:  # a schema set inside another must not refer to its own root
        raise ValueError(f"{model.__name__}'s schema has definitions of its own")
    return schema


def suite_schema() -> dict[str, Any]:
    """The JSON Schema of a suite file (`SuiteFile`), each run's arguments those of its
    benchmark's settings model."""
    schema = SuiteFile.model_json_schema()
    run = schema["$defs"].pop("SuiteRun")
    schema["properties"]["runs"]["items"] = {
        "oneOf": [
            {
                **run,
                "properties": {
                    "benchmark": {"const": entry.name},
                    "args": _settings_schema(entry.settings),
                },
            }
            for entry in benchmarks()
        ]
    }
    return {"$schema": DRAFT, "title": "medhalbench suite", **schema}


def settings_schemas(name: str) -> dict[str, Any] | None:
    """The JSON Schemas of a benchmark's settings models by command (`eval`, `build`, each
    tool's words), or None when no benchmark has that name."""
    entry = find_benchmark(name)
    if entry is None:
        return None
    models: dict[str, type[Settings]] = {"eval": entry.settings}
    if entry.builder is not None:
        models["build"] = entry.builder.settings
    models |= {" ".join(tool.path): tool.request for tool in entry.tools}
    return {command: {"$schema": DRAFT, **_settings_schema(m)} for command, m in models.items()}


@click.command(
    name="schema",
    epilog=examples_epilog(
        ["medhalbench schema > suite.schema.json", "medhalbench schema medhallu"]
    ),
)
@click.argument("benchmark", required=False)
def schema_command(benchmark: str | None) -> None:
    """Print the JSON Schema of a suite file (a YAML editor checks a suite against it, e.g.
    with `# yaml-language-server: $schema=suite.schema.json` on its first line), or, given a
    benchmark's name, of its settings by command (eval, build and its tools)."""
    if benchmark is None:
        click.echo(json.dumps(suite_schema(), indent=2))
        return
    found = settings_schemas(benchmark)
    if found is None:
        known = ", ".join(b.name for b in benchmarks())
        raise click.BadParameter(f"no benchmark named {benchmark!r} (known: {known})")
    click.echo(json.dumps(found, indent=2))
