"""Wall time of every command's and subcommand's `--help`, through the installed entry point,
beside `medhalbench --help` in the same run (the median of --repeats runs each), and the
modules each imports; a help page above the bound (0.5 s on a quiet 2-core machine) is
marked.

    .venv/bin/python bench/help_speed.py [--repeats 5]
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from helpers_port import options

BOUND = 0.5
"""Seconds a help page may take (issue 55's bound)."""
ENTRY_POINT = Path(sys.executable).parent / "medhalbench"

_LISTER = """
import json, click
from medhalbench.cli import cli

def walk(command, path):
    yield path
    if isinstance(command, click.Group):
        ctx = click.Context(command, info_name=" ".join(path))
        for name in command.list_commands(ctx):
            yield from walk(command.get_command(ctx, name), [*path, name])

print(json.dumps(list(walk(cli, []))))
"""
_COUNT = """
import sys
from click.testing import CliRunner
from medhalbench.cli import cli
CliRunner().invoke(cli, sys.argv[1:])
print(len(sys.modules))
"""


def command_paths() -> list[list[str]]:
    """The words of every command and group of the command line (`[]`: the top), listed in
    a process of their own (so that the lister's imports are not the caller's)."""
    done = subprocess.run(
        [sys.executable, "-c", _LISTER], capture_output=True, text=True, check=True
    )
    paths: list[list[str]] = json.loads(done.stdout)
    return paths


def seconds(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run([str(ENTRY_POINT), *args], capture_output=True, check=True)
    return time.perf_counter() - started


def main() -> None:
    args = options(__doc__, repeats=5)
    paths = command_paths()
    print(f"{len(paths)} help pages, median of {args.repeats} runs each, bound {BOUND} s")
    print(f"{'command':36} {'wall s':>7} {'modules':>8} {'/ top':>6}")
    top = statistics.median(seconds(["--help"]) for _ in range(args.repeats))
    worst = 0.0
    for path in paths:
        wall = statistics.median(seconds([*path, "--help"]) for _ in range(args.repeats))
        modules = subprocess.run(
            [sys.executable, "-c", _COUNT, *path, "--help"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        worst = max(worst, wall)
        mark = "  ABOVE THE BOUND" if wall > BOUND else ""
        name = " ".join(["medhalbench", *path])
        print(f"{name:36} {wall:7.3f} {modules:>8} {wall / top:6.2f}{mark}")
    print(f"slowest {worst:.3f} s; `medhalbench --help` {top:.3f} s")


if __name__ == "__main__":
    main()
