"""Pipeline throughput of each task against an OpenAI-compatible server on 127.0.0.1 that
answers after a fixed delay (bench/stub_server.py): samples/s with C connections, beside the
limit set by delay and concurrency (N calls x delay / C) and beside one call at a time.

    .venv/bin/python bench/pipelines.py [--samples 200] [--delay 0.1] [--connections 10]
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from inspect_ai import eval
from inspect_ai.util._concurrency import init_concurrency

from helpers_port import measured, options, stub_at
from workloads import CALLS_PER_SAMPLE, eval_kwargs, task_for, write_workloads


def timed(
    system: str, files: dict[str, Path], base_url: str, connections: int, log_dir: str
) -> tuple[float, int]:
    init_concurrency()
    with measured() as measure:
        [log] = eval(
            task_for(system, files),
            log_dir=log_dir,
            cache=False,
            **eval_kwargs(system, base_url, connections),
        )
    assert log.status == "success", log.error
    return measure.seconds, measure.calls


def main() -> None:
    args = options(__doc__, samples=200, delay=0.1, connections=10)
    print(
        f"samples={args.samples} delay={args.delay}s connections={args.connections} cores={os.cpu_count()}"
    )
    print(
        f"{'task':9} {'calls':>6} {'concurrent s':>13} {'samples/s':>10} {'limit s':>8} {'vs limit':>9} {'1-at-a-time s':>14} {'speed-up':>9}"
    )
    with stub_at(args.delay) as base_url, tempfile.TemporaryDirectory() as tmp:
        files = write_workloads(Path(tmp), args.samples)
        # Warm up (imports, HTTP client, first eval) so no task pays the one-off costs.
        timed("medhal", write_workloads(Path(tmp) / "warmup", 4), base_url, args.connections, tmp)
        for system in ("medhallu", "dahl", "medhal"):
            concurrent, calls = timed(system, files, base_url, args.connections, tmp)
            sequential, _ = timed(system, files, base_url, 1, tmp)
            assert calls == args.samples * CALLS_PER_SAMPLE[system]
            limit = calls * args.delay / args.connections
            print(
                f"{system:9} {calls:6d} {concurrent:13.2f} {args.samples / concurrent:10.1f} {limit:8.2f} {limit / concurrent:9.2f} "
                f"{sequential:14.2f} {sequential / concurrent:8.2f}x"
            )


if __name__ == "__main__":
    main()
