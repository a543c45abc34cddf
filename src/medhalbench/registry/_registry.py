"""The benchmarks medhalbench knows: its own and any installed package's, through the
`medhalbench.benchmarks` entry point group, plus those registered at run time."""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from medhalbench._errors import MedhalbenchError
from medhalbench.registry._declaration import Benchmark, Role

if TYPE_CHECKING:
    from inspect_ai import Task
    from inspect_ai.log import EvalLog

ENTRY_POINT_GROUP = "medhalbench.benchmarks"

_registered: dict[str, Benchmark] = {}
_loaded = False


def register_benchmark(benchmark: Benchmark) -> Benchmark:
    """Add a benchmark (replacing one of the same name) and return it."""
    _registered[benchmark.name] = benchmark
    return benchmark


def unregister_benchmark(name: str) -> None:
    """Remove a benchmark registered at run time (no error when absent)."""
    _registered.pop(name, None)


def _load_entry_points() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for point in entry_points(group=ENTRY_POINT_GROUP):
        found = point.load()
        if not isinstance(found, Benchmark):
            raise MedhalbenchError(
                f"entry point {point.name} = {point.value} in group {ENTRY_POINT_GROUP} "
                "is not a medhalbench Benchmark (a benchmark declares itself with "
                "registry.Benchmark and names its Implementation: see the README's 'A fourth "
                "benchmark')"
            )
        _registered.setdefault(found.name, found)


def benchmarks() -> list[Benchmark]:
    """Every known benchmark, by position, then name."""
    _load_entry_points()
    return sorted(_registered.values(), key=lambda b: (b.position, b.name))


def find_benchmark(name: str) -> Benchmark | None:
    """A benchmark by name, or None when none has that name."""
    _load_entry_points()
    return _registered.get(name)


def benchmark(name: str) -> Benchmark:
    """A benchmark by name.

    Raises:
        MedhalbenchError: No benchmark has that name.
    """
    found = find_benchmark(name)
    if found is None:
        known = ", ".join(sorted(b.name for b in benchmarks())) or "none"
        raise MedhalbenchError(f"unknown benchmark '{name}' (known: {known})")
    return found


def benchmark_of(source: EvalLog | Task) -> Benchmark | None:
    """The benchmark a log (or a log's header) or a task is of, by the task's registered name
    (`medhalbench/medhallu`: the name without its package); None when it is no benchmark's."""
    log = getattr(source, "eval", None)
    task = str(log.task if log is not None else getattr(source, "name", ""))
    return find_benchmark(task.split("/")[-1])


def demo_roles() -> list[Role]:
    """The roles of every benchmark the demo runs, each once (the demo's options)."""
    found: dict[str, Role] = {}
    for entry in benchmarks():
        if entry.demo:
            found.update((r.name, r) for r in entry.roles if not r.optional)
    return list(found.values())
