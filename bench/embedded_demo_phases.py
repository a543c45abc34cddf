"""Where `medhalbench demo`'s time goes: wall and CPU seconds of each phase (imports, the
tokenizer for the runs' plans, each engine replica's load, each benchmark's run, its tables,
the report), with the engine's own prompt and generation seconds per run.

The demo runs in this process, in a fresh temporary folder with an empty inspect cache, as
a first run would; its steps are timed by wrapping the functions that do them. CPU seconds
are the whole process's (the engine's threads included); the CPU other processes used
meanwhile is printed last, since it slows every figure.

    .venv/bin/python bench/embedded_demo_phases.py [demo options]
"""

from __future__ import annotations

import functools
import os
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

STARTED = time.perf_counter()


def cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def main_thread_cpu_seconds() -> float:
    """CPU time of the main thread alone (inspect's event loop: the Python side of a run;
    the engine computes in threads of its own)."""
    with open(f"/proc/self/task/{os.getpid()}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_cpu_seconds() -> float:
    """CPU time of every process on the machine, from /proc/stat."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:8]]
    return (sum(values) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")


MACHINE, OWN = machine_cpu_seconds(), cpu_seconds()
phases: list[tuple[str, float, float, float]] = []


def timed(label: Callable[..., str] | str, function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        wall, cpu, main = time.perf_counter(), cpu_seconds(), main_thread_cpu_seconds()
        try:
            return function(*args, **kwargs)
        finally:
            name = label(*args, **kwargs) if callable(label) else label
            phases.append(
                (
                    name,
                    time.perf_counter() - wall,
                    cpu_seconds() - cpu,
                    main_thread_cpu_seconds() - main,
                )
            )

    return wrapper


def main() -> None:
    from inspect_ai.event import ModelEvent

    import medhalbench.cli._demo as demo
    import medhalbench.models._engine as engine
    import medhalbench.planning._tokens as tokens
    from medhalbench.cli import cli

    phases.append(("imports", time.perf_counter() - STARTED, cpu_seconds(), cpu_seconds()))
    engine.Engine.__init__ = timed("engine replica load", engine.Engine.__init__)  # type: ignore[method-assign]
    tokens.tokenizer = functools.cache(timed("tokenizer", tokens.tokenizer.__wrapped__))
    demo.run_eval = timed(lambda tasks, **_: f"run {tasks[0].name}", demo.run_eval)
    demo.print_runs = timed("tables", demo.print_runs)
    demo.write_report = timed("report", demo.write_report)
    engine_seconds: list[str] = []
    run_eval = demo.run_eval

    def run_and_count(*args: Any, **kwargs: Any) -> Any:
        logs = run_eval(*args, **kwargs)
        for log in logs:
            prompt = generation = 0.0
            for sample in log.samples or []:
                for event in sample.events:
                    if isinstance(event, ModelEvent) and event.call and event.call.response:
                        timings: dict[str, Any] = event.call.response.get("timings") or {}  # type: ignore[assignment]
                        prompt += timings.get("prompt_ms", 0) / 1000
                        generation += timings.get("predicted_ms", 0) / 1000
            engine_seconds.append(
                f"{log.eval.task:22s} engine: prompts {prompt:5.1f} s, generation "
                f"{generation:5.1f} s (replica seconds, summed over calls)"
            )
        return logs

    demo.run_eval = run_and_count
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        os.environ["INSPECT_CACHE_DIR"] = os.path.join(folder, "cache")
        whole = timed("demo command", cli.main)
        whole(["demo", *sys.argv[1:]], standalone_mode=False)
    phases.append(
        ("whole process", time.perf_counter() - STARTED, cpu_seconds(), main_thread_cpu_seconds())
    )
    print("\nphase                                   wall s   CPU s   of which the main thread")
    for name, wall, cpu, main in phases:
        print(f"  {name:36s} {wall:7.1f} {cpu:7.1f} {main:7.1f}")
    for line in engine_seconds:
        print(f"  {line}")
    others = machine_cpu_seconds() - MACHINE - (cpu_seconds() - OWN)
    print(f"CPU used by other processes meanwhile: {others:.1f} s (load {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
