"""Top-level `medhalbench` command group.

Commands are imported when they run, not when the group is built: `medhalbench --help`
must answer at once, and inspect, scipy and pandas take seconds to import. Each command is
named here with its one-line help; `tests/cli/test_imports.py` guards that the entry point
imports none of the heavy packages.
"""

from __future__ import annotations

import contextlib
import sys
import warnings
from importlib.metadata import entry_points
from typing import Any, NamedTuple

import click

from medhalbench._lazy import load
from medhalbench._secrets import help_output
from medhalbench._version import VERSION

BENCHMARK_ENTRY_POINTS = "medhalbench.benchmarks"


class _Lazy(NamedTuple):
    """Where a command is defined (`module:attribute`) and its one-line help."""

    target: str
    short_help: str


_COMMANDS: dict[str, _Lazy] = {
    "eval": _Lazy("medhalbench.cli._eval:eval_group", "Evaluate models on a benchmark."),
    "build": _Lazy("medhalbench.cli._build:build_group", "Build benchmark data with models."),
    "retry": _Lazy(
        "medhalbench.cli._eval:retry_command", "Finish interrupted or failed evaluations."
    ),
    "run": _Lazy("medhalbench.cli._suite:run_command", "Run a suite of evaluations."),
    "plan": _Lazy("medhalbench.cli._suite:plan_command", "Print what a suite will call and cost."),
    "demo": _Lazy(
        "medhalbench.cli._demo:demo_command", "Run every benchmark offline on small data."
    ),
    "report": _Lazy("medhalbench.cli._report:report_command", "Write the report of finished runs."),
    "compare": _Lazy("medhalbench.cli._compare:compare_command", "Compare two runs."),
    "reproduce": _Lazy(
        "medhalbench.cli._reproduce:reproduce_command",
        "Run a paper's table as the paper ran it (--dry-run plans it).",
    ),
    "rescore": _Lazy(
        "medhalbench.cli._rescore:rescore_command",
        "Read a run's stored replies again with the current reader (no model call).",
    ),
    "audit": _Lazy("medhalbench.cli._audit:audit_command", "Check a judge's verdicts by hand."),
    "serve": _Lazy("medhalbench.cli._serve:serve_command", "Serve a GGUF model locally."),
    "index": _Lazy(
        "medhalbench.cli._index:index_command", "Index a local corpus as evidence for judges."
    ),
    "schema": _Lazy(
        "medhalbench.cli._schema:schema_command",
        "The JSON Schema of a suite file or of a benchmark's settings.",
    ),
    "recall": _Lazy(
        "medhalbench.cli._recall:recall_command",
        "Measure how well an index finds the answers to your questions.",
    ),
}


def _benchmark_names() -> list[str]:
    """The installed benchmarks' names, read from entry points without importing them."""
    return sorted({point.name for point in entry_points(group=BENCHMARK_ENTRY_POINTS)})


class _Group(click.Group):
    """Loads each command on first use, gives each benchmark a group of its tools
    (`medhalbench dahl agreement`), and reports every error as one line on stderr (see
    `commands.report`), never a traceback."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*_COMMANDS, *_benchmark_names()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in _COMMANDS:
            command: click.Command = load(_COMMANDS[cmd_name].target)
            return command
        found: click.Command | None = load("medhalbench.cli._tools:benchmark_tools")(cmd_name)
        return found or load("medhalbench.cli._tools:legacy_tool")(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Help from the table, so that listing the commands imports none of them.
        rows = [(name, lazy.short_help) for name, lazy in sorted(_COMMANDS.items())]
        tools = [(name, f"Tools of the {name} benchmark.") for name in _benchmark_names()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)
        if tools:
            with formatter.section("Benchmark tools"):
                formatter.write_dl(tools)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        given = kwargs.get("args", args[0] if args else None)
        words = sys.argv[1:] if given is None else list(given)
        # A help page runs nothing and prints our own text: never redacted (its examples).
        shown = help_output() if "--help" in words else contextlib.nullcontext()
        try:
            with shown:
                return super().main(*args, **kwargs)
        except BaseException as ex:  # noqa: BLE001 - every error ends as one clear line
            if isinstance(ex, SystemExit):
                raise
            load("medhalbench.commands:report")(ex)


@click.group(
    cls=_Group,
    epilog="Examples:\n\n\b\n  medhalbench demo\n  medhalbench eval medhallu --dataset "
    "pqa_labeled.jsonl --model openai/gpt-4o-mini\n  medhalbench report logs/ --out report.html\n"
    "  medhalbench eval dahl --help",
)
@click.version_option(VERSION, prog_name="medhalbench")
def cli() -> None:
    """Measure hallucination of large language models in medicine (DAHL, MedHallu, MedHal)."""


def main() -> None:
    """Console entry point."""
    # A server's reply with fields of the wrong type makes pydantic warn while the SDK reads
    # it; the run reports what is wrong with the reply in its own line.
    warnings.filterwarnings("ignore", message="Pydantic serializer warnings")
    cli(prog_name="medhalbench")
