"""The benchmark registry: each benchmark declares itself once (name, settings, roles,
builder, tools: `Benchmark`, light) and names its implementation (task, tables, published
rows, demo: `Implementation`, loaded when used); the command line, the report and the demo
loop over it. The implementation's names are imported on first use: `--help` loads none."""

from typing import TYPE_CHECKING

from medhalbench._lazy import exported, exports
from medhalbench.registry._declaration import (
    DATASET,
    EXTRACTOR,
    NLI_JUDGE,
    Benchmark,
    Builder,
    KeyFigure,
    Role,
    Sweep,
    Tool,
)
from medhalbench.registry._registry import (
    ENTRY_POINT_GROUP,
    benchmark,
    benchmark_of,
    benchmarks,
    demo_roles,
    find_benchmark,
    register_benchmark,
    unregister_benchmark,
)
from medhalbench.settings import EXAMPLE_DATASET

if TYPE_CHECKING:
    from medhalbench.registry._audit import (
        AUDIT_EXTRACTOR,
        AUDIT_READER,
        CANNOT_TELL,
        UNREADABLE,
        AuditFigure,
        AuditItem,
        AuditQuestion,
        AuditRole,
        JudgeAudit,
        f1_figure,
        reading_item,
        reading_roles,
    )
    from medhalbench.registry._implementation import (
        DemoRun,
        DemoSettings,
        Implementation,
        Outcome,
        Printable,
        RoleModels,
        Unit,
        registered_name,
    )
    from medhalbench.registry._task import benchmark_task

_HEAVY = {
    "._audit": (
        "AUDIT_EXTRACTOR AUDIT_READER CANNOT_TELL UNREADABLE AuditFigure AuditItem "
        "AuditQuestion AuditRole JudgeAudit f1_figure reading_item reading_roles"
    ),
    "._implementation": (
        "DemoRun DemoSettings Implementation Outcome Printable RoleModels Unit registered_name"
    ),
    "._task": "benchmark_task",
}
"""What is imported on first use: each module's names."""
__getattr__ = exports(__name__, _HEAVY)

__all__ = [
    "DATASET",
    "EXTRACTOR",
    "NLI_JUDGE",
    "Benchmark",
    "Builder",
    "KeyFigure",
    "Role",
    "Sweep",
    "Tool",
    "ENTRY_POINT_GROUP",
    "benchmark",
    "benchmark_of",
    "benchmarks",
    "demo_roles",
    "find_benchmark",
    "register_benchmark",
    "unregister_benchmark",
    "EXAMPLE_DATASET",
    *exported(_HEAVY),
]
