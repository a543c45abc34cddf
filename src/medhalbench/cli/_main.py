"""Top-level `medhalbench` command group."""

from __future__ import annotations

import warnings
from typing import Any

import click

from medhalbench._version import VERSION
from medhalbench.cli._audit import audit_command
from medhalbench.cli._build import build_group
from medhalbench.cli._compare import compare_command
from medhalbench.cli._demo import demo_command
from medhalbench.cli._eval import eval_group, retry_command
from medhalbench.cli._report import report_command
from medhalbench.cli._serve import serve_command
from medhalbench.cli._suite import plan_command, run_command
from medhalbench.commands import report, tool_commands
from medhalbench.registry import benchmarks


class _Group(click.Group):
    """Adds the tools each registered benchmark brings, and reports every error as one line
    on stderr (see `commands.report`), never a traceback."""

    def _contributed(self) -> dict[str, click.Command]:
        return tool_commands([tool for b in benchmarks() for tool in b.tools])

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self._contributed()])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, cmd_name) or self._contributed().get(cmd_name)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except BaseException as ex:  # noqa: BLE001 - every error ends as one clear line
            if isinstance(ex, SystemExit):
                raise
            report(ex)


@click.group(cls=_Group)
@click.version_option(VERSION, prog_name="medhalbench")
def cli() -> None:
    """Measure hallucination of large language models in medicine (DAHL, MedHallu, MedHal)."""


cli.add_command(eval_group)
cli.add_command(build_group)
cli.add_command(report_command)
cli.add_command(compare_command)
cli.add_command(audit_command)
cli.add_command(retry_command)
cli.add_command(demo_command)
cli.add_command(serve_command)
cli.add_command(run_command)
cli.add_command(plan_command)


def main() -> None:
    """Console entry point."""
    # A server's reply with fields of the wrong type makes pydantic warn while the SDK reads
    # it; the run reports what is wrong with the reply in its own line.
    warnings.filterwarnings("ignore", message="Pydantic serializer warnings")
    cli(prog_name="medhalbench")
