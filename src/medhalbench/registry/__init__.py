"""The benchmark registry: each benchmark describes itself once (task, roles, builder, tools,
tables, published rows, demo), and the command line, the report and the demo loop over it."""

from medhalbench.registry._audit import AuditItem, JudgeAudit
from medhalbench.registry._benchmark import (
    EXAMPLE_DATASET,
    EXTRACTOR,
    Benchmark,
    Builder,
    DemoRun,
    DemoSettings,
    KeyFigure,
    Outcome,
    Printable,
    Role,
    RoleModels,
    Sweep,
    Tool,
    Unit,
    registered_name,
)
from medhalbench.registry._registry import (
    ENTRY_POINT_GROUP,
    benchmark,
    benchmark_of,
    benchmarks,
    find_benchmark,
    register_benchmark,
    unregister_benchmark,
)
from medhalbench.registry._task import benchmark_task

__all__ = [
    "AuditItem",
    "JudgeAudit",
    "ENTRY_POINT_GROUP",
    "EXAMPLE_DATASET",
    "EXTRACTOR",
    "Benchmark",
    "Builder",
    "DemoRun",
    "DemoSettings",
    "KeyFigure",
    "Outcome",
    "Printable",
    "Role",
    "RoleModels",
    "Sweep",
    "Tool",
    "Unit",
    "benchmark",
    "benchmark_of",
    "benchmark_task",
    "benchmarks",
    "find_benchmark",
    "register_benchmark",
    "registered_name",
    "unregister_benchmark",
]
