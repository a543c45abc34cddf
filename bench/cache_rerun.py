"""Wall time of a cached rerun vs the first run, for each task, against the stub server on
127.0.0.1 (bench/stub_server.py); the rerun makes no model calls.

    .venv/bin/python bench/cache_rerun.py [--samples 60] [--delay 0.1]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from inspect_ai import eval

from helpers_port import free_port
from stub_server import StubHandler, serve
from workloads import eval_kwargs, task_for, write_workloads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--delay", type=float, default=0.1)
    args = parser.parse_args()
    port = free_port()
    server = serve(port, args.delay)
    base_url = f"http://127.0.0.1:{port}/v1"
    with tempfile.TemporaryDirectory() as tmp:
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
                before = StubHandler.requests
                start = time.perf_counter()
                [log] = eval(task, log_dir=tmp, cache=True, **eval_kwargs(system, base_url, 10))
                assert log.status == "success", log.error
                runs.append((time.perf_counter() - start, StubHandler.requests - before))
            (first, calls), (rerun, recalls) = runs
            print(
                f"{system:9} {first:8.2f} {calls:6d} {rerun:8.2f} {recalls:6d} {rerun / first:12.2f}"
            )
    server.shutdown()


if __name__ == "__main__":
    main()
