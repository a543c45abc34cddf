"""The benchmark registry: each benchmark declares itself once (name, settings, roles,
builder, tools: `Benchmark`, light) and names its implementation (task, tables, published
rows, demo: `Implementation`, loaded when used); the command line, the report and the demo
loop over it. The implementation's names are imported on first use: `--help` loads none."""

from typing import TYPE_CHECKING

from medhalbench._lazy import exports
from medhalbench.registry._declaration import (
    DATASET,
    EXTRACTOR,
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

__getattr__ = exports(
    __name__,
    {
        **dict.fromkeys(
            (
                "AUDIT_EXTRACTOR", "AUDIT_READER", "CANNOT_TELL", "UNREADABLE", "AuditFigure",
                "AuditItem", "AuditQuestion", "AuditRole", "JudgeAudit", "f1_figure",
                "reading_item", "reading_roles",
            ),
            "._audit",
        ),
        **dict.fromkeys(
            (
                "DemoRun", "DemoSettings", "Implementation", "Outcome", "Printable",
                "RoleModels", "Unit", "registered_name",
            ),
            "._implementation",
        ),
        "benchmark_task": "._task",
    },
)  # fmt: skip

__all__ = [
    "AUDIT_EXTRACTOR",
    "AUDIT_READER",
    "CANNOT_TELL",
    "DATASET",
    "ENTRY_POINT_GROUP",
    "EXAMPLE_DATASET",
    "EXTRACTOR",
    "UNREADABLE",
    "AuditFigure",
    "AuditItem",
    "AuditQuestion",
    "AuditRole",
    "Benchmark",
    "Builder",
    "DemoRun",
    "DemoSettings",
    "Implementation",
    "JudgeAudit",
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
    "demo_roles",
    "f1_figure",
    "find_benchmark",
    "reading_item",
    "reading_roles",
    "register_benchmark",
    "registered_name",
    "unregister_benchmark",
]
