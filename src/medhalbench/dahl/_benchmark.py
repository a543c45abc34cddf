"""DAHL's registry entry."""

from __future__ import annotations

from importlib import resources

from medhalbench.dahl._commands import build_dahl_command, dahl_group, eval_dahl
from medhalbench.dahl._metrics import headline_figures
from medhalbench.dahl._plan import dahl_plan
from medhalbench.dahl._report import dahl_charts, dahl_summary, dahl_tables
from medhalbench.dahl._task import dahl
from medhalbench.examples import illustrative
from medhalbench.models import DEFAULT_MODEL
from medhalbench.registry import Benchmark, DemoRun, DemoSettings

EXAMPLE = illustrative("dahl_illustrative.csv")


def dahl_demo(settings: DemoSettings) -> DemoRun:
    """Answers to the example questions (or the user's), split and checked by the same model."""
    task = dahl(
        dataset=settings.data or EXAMPLE,
        limit=settings.limit,
        cache=settings.cache,
        structured=settings.structured,
        probabilities=settings.structured,
    )
    return DemoRun(
        "DAHL: long-form factuality",
        [task],
        {"splitter": DEFAULT_MODEL, "checker": DEFAULT_MODEL},
    )


dahl_benchmark = Benchmark(
    name="dahl",
    position=2,
    title="DAHL",
    paper=(
        "Seo et al., DAHL: Domain-specific Automated Hallucination Evaluation of Long-Form "
        "Text through a Benchmark Dataset in Biomedicine"
    ),
    task=dahl,
    scorer="dahl_factuality",
    headline=headline_figures,
    summary=dahl_summary,
    tables=dahl_tables,
    charts=dahl_charts,
    published_csv=resources.files("medhalbench.dahl").joinpath("published.csv"),
    example=EXAMPLE,
    demo=dahl_demo,
    eval_command=eval_dahl,
    build_command=build_dahl_command,
    commands=(dahl_group,),
    plan=dahl_plan,
)
