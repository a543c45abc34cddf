"""The benchmark registry: each benchmark declares itself once (name, settings, roles,
builder, tools: `Benchmark`, light) and names its implementation (task, tables, published
rows, demo: `Implementation`, loaded when used); the command line, the report and the demo
loop over it. The implementation's names are imported on first use: `--help` loads none."""

from typing import TYPE_CHECKING

from medhalbench import _lazy
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

__getattr__, __all__ = _lazy.exports(__name__, __file__)
