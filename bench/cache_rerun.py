"""Wall time of a cached rerun vs the first run, for each task, against the stub server on
127.0.0.1 (bench/stub_server.py); the rerun makes no model calls.

    .venv/bin/python bench/cache_rerun.py [--samples 60] [--delay 0.1]
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from inspect_ai import eval

from helpers_port import measured, options, stub_at
from workloads import eval_kwargs, task_for, write_workloads


def main() -> None:
    args = options(__doc__, samples=60, delay=0.1)
    with stub_at(args.delay) as base_url, tempfile.TemporaryDirectory() as tmp:
        os.environ["INSPECT_CACHE_DIR"] = str(Path(tmp) / "cache")
        files = write_workloads(Path(tmp), args.samples)
        print(f"samples={args.samples} delay={args.delay}s cores={os.cpu_count()}")
        print(
            f"{'task':9} {'first s':>8} {'calls':>6} {'rerun s':>8} {'calls':>6} {'rerun/first':>12}"
        )
        for system in ("medhallu", "dahl", "medhal"):
            runs = []
            for _ in range(2):
                task = task_for(system, files, cache=True)
                with measured() as measure:
                    [log] = eval(task, log_dir=tmp, cache=True, **eval_kwargs(system, base_url, 10))
                assert log.status == "success", log.error
                runs.append((measure.seconds, measure.calls))
            (first, calls), (rerun, recalls) = runs
            print(
                f"{system:9} {first:8.2f} {calls:6d} {rerun:8.2f} {recalls:6d} {rerun / first:12.2f}"
            )


if __name__ == "__main__":
    main()
