"""The benchmark registry: each benchmark describes itself once (task, tables, published rows,
commands, demo), and the command line, the report and the demo loop over the registry."""

from medhalbench.registry._benchmark import Benchmark, DemoRun, DemoSettings
from medhalbench.registry._registry import (
    ENTRY_POINT_GROUP,
    benchmark,
    benchmarks,
    find_benchmark,
    register_benchmark,
    unregister_benchmark,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "Benchmark",
    "DemoRun",
    "DemoSettings",
    "benchmark",
    "benchmarks",
    "find_benchmark",
    "register_benchmark",
    "unregister_benchmark",
]
