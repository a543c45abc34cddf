"""Every help page, of every command and subcommand, is built from light modules: it imports
none of the heavy libraries (inspect, pandas, scipy, torch, the SDKs, ...), which take
seconds, and only a command that runs loads what it needs. Counted in modules, not seconds
(`bench/help_speed.py` times them)."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from help_speed import command_paths  # bench/help_speed.py
from helpers import HEAVY_MODULES
from medhalbench.cli import cli

_PROBE = """
import json, sys
from click.testing import CliRunner
from medhalbench.cli import cli
result = CliRunner().invoke(cli, sys.argv[1:])
print(json.dumps({"code": result.exit_code, "output": result.output,
                  "modules": sorted({m.split('.')[0] for m in sys.modules}),
                  "count": len(sys.modules)}))
"""


def _probe(*args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, check=True
    )
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_every_help_page_imports_no_heavy_library() -> None:
    paths = command_paths()
    assert ["eval", "dahl"] in paths and ["medhallu", "analyze", "clusters"] in paths
    assert len(paths) >= 25  # every command and subcommand
    for path in paths:
        probe = _probe(*path, "--help")
        assert probe["code"] == 0, path
        assert not set(HEAVY_MODULES) & set(probe["modules"]), (path, probe["modules"])  # type: ignore[arg-type]


def test_version_imports_no_heavy_library() -> None:
    probe = _probe("--version")
    assert probe["code"] == 0
    assert not set(HEAVY_MODULES) & set(probe["modules"])  # type: ignore[arg-type]


def test_a_benchmark_group_lists_its_tools() -> None:
    probe = _probe("dahl", "--help")
    assert probe["code"] == 0
    assert "agreement" in str(probe["output"])


def test_every_listed_command_loads() -> None:
    runner = CliRunner()
    ctx = cli.make_context("medhalbench", [], resilient_parsing=True)
    for name in cli.list_commands(ctx):
        assert cli.get_command(ctx, name) is not None, name
        assert runner.invoke(cli, [name, "--help"]).exit_code == 0, name


def test_every_command_names_an_implementation_that_exists() -> None:
    from medhalbench.registry import benchmarks

    for entry in benchmarks():
        parts = entry.implementation
        assert parts.benchmark is entry and parts.task_name.endswith(f"/{entry.name}")
        builds = [entry.builder.settings] if entry.builder else []
        assert {*builds, *(t.request for t in entry.tools)} == set(parts.commands)
        assert set(builds) == set(parts.plans)
        assert entry.demo == (parts.demo is not None)
        assert (entry.sweep is None) == (parts.sweep_table is None)
