"""The entry point answers `--help` without importing the heavy libraries (inspect, pandas,
scipy, ...): they take seconds, and only the commands that use them import them."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("inspect_ai", "pandas", "scipy", "numpy", "matplotlib", "torch", "openai", "xllamacpp")

_PROBE = """
import json, sys
from click.testing import CliRunner
from medhalbench.cli import cli
result = CliRunner().invoke(cli, sys.argv[1:])
print(json.dumps({"code": result.exit_code, "output": result.output,
                  "modules": sorted({m.split('.')[0] for m in sys.modules})}))
"""


def _probe(*args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, check=True
    )
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_help_imports_no_heavy_library() -> None:
    probe = _probe("--help")
    assert probe["code"] == 0
    assert "eval" in str(probe["output"]) and "dahl" in str(probe["output"])
    assert not set(HEAVY) & set(probe["modules"])  # type: ignore[arg-type]


def test_version_imports_no_heavy_library() -> None:
    probe = _probe("--version")
    assert probe["code"] == 0
    assert not set(HEAVY) & set(probe["modules"])  # type: ignore[arg-type]


def test_a_benchmark_group_lists_its_tools() -> None:
    probe = _probe("dahl", "--help")
    assert probe["code"] == 0
    assert "agreement" in str(probe["output"])


def test_every_listed_command_loads() -> None:
    from click.testing import CliRunner

    from medhalbench.cli import cli

    runner = CliRunner()
    ctx = cli.make_context("medhalbench", [], resilient_parsing=True)
    for name in cli.list_commands(ctx):
        assert cli.get_command(ctx, name) is not None, name
        assert runner.invoke(cli, [name, "--help"]).exit_code == 0, name
