"""A task's plan from its benchmark's planner: one row for the model under test per model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from inspect_ai import Task
from rich.console import Console

from medhalbench.commands._tables import print_table
from medhalbench.models import writes_nothing
from medhalbench.planning import MAIN_ROLE, TOKENIZER_NAME, Plan, plan_table, read_prices, task_plan
from medhalbench.registry import benchmark_of
from medhalbench.results import RunFacts, RunRecord
from medhalbench.settings import Settings

PLAN_NOTE = (
    f"Input tokens are counted with {TOKENIZER_NAME}'s tokenizer (other models' tokenizers "
    "count differently); output tokens at the max-token settings, an upper bound."
)


def task_plan_of(
    task: Task, models: Sequence[str], roles: Mapping[str, str], planning: Settings | None
) -> Plan:
    """The plan of a task on each model, from its benchmark's planner (a task of no
    registered benchmark: one call per sample and epoch)."""
    entry = benchmark_of(task)
    estimates = entry.implementation.plan(task, roles, planning) if entry else [task_plan(task)]
    rows = []
    for estimate in estimates:
        if estimate.role == MAIN_ROLE:
            rows += [replace(estimate, model=m) for m in models if not writes_nothing(m)]
        else:
            rows.append(estimate)
    samples = len(task.dataset) * (task.epochs or 1)
    # Titled with the run's settings, so that two plans of one benchmark are told apart.
    title = task.name
    if entry:
        title = " · ".join([entry.title, *entry.implementation.describe(RunRecord.of_task(task))])
    return Plan(title, samples, rows)


def keep_plan(task: Task, plan: Plan) -> None:
    """Keep a task's plan in its log's metadata, so that the report can set the tokens used
    beside it."""
    kept = RunFacts(token_estimate=plan.kept()).stored()
    task.metadata = {**(task.metadata or {}), **kept}


def print_plans(console: Console, plans: Sequence[Plan], price_file: str | None) -> None:
    """Print plans, with costs where a price file (`--prices`) is named."""
    prices = read_prices(price_file) if price_file else None
    for plan in plans:
        print_table(console, plan_table(plan, prices))
    console.print(f"[dim]{PLAN_NOTE}[/dim]")
