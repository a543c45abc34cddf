"""`medhalbench run` and `medhalbench plan` run: a suite through inspect's eval_set, and what
it will call and cost."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import click
from inspect_ai import eval_set

from medhalbench._errors import DataError
from medhalbench._secrets import redact_files
from medhalbench.commands._errors import fail, interruptible, stop_code
from medhalbench.commands._failures import fail_on_unfinished
from medhalbench.commands._folders import log_folder
from medhalbench.commands._locks import locked
from medhalbench.commands._log_names import named_logs, refresh_manifest
from medhalbench.commands._models import batchless
from medhalbench.commands._plans import keep_plan, print_plans, task_plan_of
from medhalbench.commands._progress import progress_display
from medhalbench.commands._run import (
    BATCH_SAMPLE_RETRIES,
    console,
    realtime_logging,
    settled_logs,
    write_outputs,
)
from medhalbench.commands._suite import (
    Suite,
    SuiteTask,
    check_suite_contexts,
    finished_runs,
    read_suite,
    stale_logs,
    suite_path,
    suite_tasks,
)
from medhalbench.commands._tables import show_results
from medhalbench.planning import Plan, plan_cost, read_prices
from medhalbench.registry import benchmark
from medhalbench.report import write_report
from medhalbench.reproduce import reproduced_tables
from medhalbench.results import log_headers
from medhalbench.settings import SettingsError, parse_model_args


def run_from_command_line(suite: str, display: str | None, force: bool) -> None:
    """`medhalbench run` from its options' values."""
    run_suite(f"medhalbench run {suite}", read_suite(suite_path(suite)), display, force)


@dataclass(frozen=True)
class Budget:
    """The most a suite's runs still to do may cost: `limit` dollars at the `prices` file's
    prices, by their plans' upper bound."""

    limit: float
    prices: str


def run_suite(
    rerun: str, loaded: Suite, display: str | None, force: bool, budget: Budget | None = None
) -> None:
    """Run a suite in its log folder, held by this process alone.

    Args:
        rerun: The command that runs it again (said when it stops before its end).
        loaded: The suite.
        display: inspect's own display (None: our progress bars).
        force: Run again the runs whose inputs changed since their logs were made.
        budget: Refuse, before any call, runs still to do that may cost more.
    """
    with (
        log_folder(loaded.log_dir, "log_dir"),
        locked(loaded.log_dir, what="the suite's log folder"),
    ):
        _run_suite(rerun, loaded, display, force, budget)


def _within(
    budget: Budget,
    loaded: Suite,
    tasks: Sequence[SuiteTask],
    plans: Sequence[Plan],
    again: set[str],
) -> None:
    """Refuse runs still to do whose plans may cost more than the budget (or have a model
    without a price), naming the cost; a finished run costs nothing more, unless its log is
    one of `again` (stale: run again)."""
    done = {id(run) for run in finished_runs(loaded, tasks, again)}
    todo = [plan for run, plan in zip(tasks, plans, strict=True) if id(run) not in done]
    prices = read_prices(budget.prices)
    unpriced = sorted({r.model or "" for p in todo for r in p.roles if r.model not in prices})
    if unpriced:
        raise DataError(
            f"no price for {', '.join(unpriced)}: --max-cost cannot be kept", path=budget.prices
        )
    cost = sum(plan_cost(plan, prices) for plan in todo)
    if cost > budget.limit:
        raise click.BadParameter(
            f"the {len(todo)} of {len(tasks)} runs still to do may cost {_dollars(cost)} at "
            f"{budget.prices} (their plan, output at the max-token settings), more than "
            f"{_dollars(budget.limit)}: nothing was run. Run fewer models (--model) or raise it",
            param_hint="--max-cost",
        )
    console.print(
        f"{len(todo)} of {len(tasks)} runs to do, at most {_dollars(cost)} of --max-cost "
        f"{_dollars(budget.limit)}"
    )


def plan_from_command_line(suite: str, prices: str | None, plan_settings: tuple[str, ...]) -> None:
    """`medhalbench plan` from its options' values."""
    plan_suite(read_suite(suite_path(suite)), prices, plan_settings)


def plan_suite(loaded: Suite, prices: str | None, plan_settings: tuple[str, ...]) -> None:
    """Print what a suite will call and cost, calling no model (`-P` settings assumed)."""
    given = parse_model_args(plan_settings, option="-P")
    planned = {
        entry.name: entry.plan_settings
        for run in loaded.runs
        if (entry := benchmark(run.benchmark)).plan_settings
    }
    takes = sorted({name for model in planned.values() for name in model.model_fields})
    for name in given:
        if name not in takes:
            raise click.BadParameter(
                f"no benchmark of the suite has the planning setting {name!r} "
                f"(settings: {', '.join(takes) or 'none'})",
                param_hint="-P",
            )
    assumed = {}
    for name, model in planned.items():
        try:
            assumed[name] = model.of({k: v for k, v in given.items() if k in model.model_fields})
        except SettingsError as ex:
            raise click.BadParameter(str(ex), param_hint="-P") from None
    plans = [
        task_plan_of(run.task, [run.model.name], run.roles, assumed.get(run.benchmark))
        for run in suite_tasks(loaded, resolve=False)
    ]
    print_plans(console, plans, prices)


def _dollars(amount: float) -> str:
    """Dollars to the cent, or to two significant digits under a cent (never "$0.00" for
    a cost that is not nothing)."""
    return f"${amount:,.2f}" if amount == 0 or amount >= 0.01 else f"${amount:.2g}"


def _run_suite(
    rerun: str,
    loaded: Suite,
    display: str | None,
    force: bool,
    budget: Budget | None,
) -> None:
    tasks = suite_tasks(loaded)
    plans = [task_plan_of(run.task, [run.model.name], run.roles, None) for run in tasks]
    check_suite_contexts(loaded, tasks, plans)
    stale_found = stale_logs(loaded, tasks)
    for stale in stale_found[:1]:
        if not force:
            raise DataError(
                f"{'; '.join(stale.changed[:2])} since this log was made: rerunning the suite "
                "would keep its finished samples beside new ones. Restore the files, or give "
                "--force to run it again on them as they are now",
                path=stale.path,
            )
    if budget is not None:  # a stale log's run is to do again
        _within(budget, loaded, tasks, plans, {stale.path for stale in stale_found})
    for stale in stale_found:
        Path(stale.path).rename(f"{stale.path}.stale")
        console.print(f"{stale.path}: {'; '.join(stale.changed)}: set aside as .stale, run again")
    for run, plan in zip(tasks, plans, strict=True):
        keep_plan(run.task, plan)
    console.print(
        f"[bold]Suite[/bold] {loaded.path}: {len(loaded.runs)} runs x {len(loaded.models)} models -> {loaded.log_dir}"
    )
    settings = loaded.settings
    unbatched = batchless([name for run in tasks for name in (run.model.name, *run.roles.values())])
    if settings.batch and unbatched:
        raise DataError(f"settings: {{batch: true}}: {unbatched}", path=str(loaded.path))
    again = f"stopped by the user; run '{rerun}' again to finish the rest"
    try:
        with interruptible(again), progress_display(console, enabled=display is None):
            _, logs = eval_set(
                [run.task for run in tasks],
                log_dir=loaded.log_dir,
                display=display or "none",  # type: ignore[arg-type]
                score_display=display not in (None, "none"),
                cache=settings.cache,
                log_realtime=realtime_logging([run.task for run in tasks]),
                retry_attempts=0,  # a failed run is finished by running the suite again
                retry_immediate=False,  # (inspect warns that "immediate" means nothing then)
                # As in `eval --batch`: a sample of a failed provider batch is sent again.
                retry_on_error=BATCH_SAMPLE_RETRIES if settings.batch else None,
            )
    except KeyboardInterrupt as ex:
        # The logs, and inspect's manifests (eval-set.json holds every task's model arguments
        # as given; the hook that redacts it at the set's end does not run after a stop).
        folder = Path(loaded.log_dir)
        redact_files([*folder.glob("*.eval"), *folder.glob("*.json")])
        # The stopped runs' logs named by their runs (the folder is this command's alone);
        # a rerun finds them by their headers.
        named_logs(log_headers(folder))
        refresh_manifest(folder)
        fail(again, stop_code(ex))
        raise
    logs = settled_logs(list(logs))
    refresh_manifest(loaded.log_dir)
    show_results(console, logs)
    write_outputs(logs)
    finished = [log.location for log in logs if log.status == "success"]
    if finished:
        [report] = write_report(
            finished,
            str(Path(loaded.log_dir) / "report.html"),
            reproduced=reproduced_tables(finished),
        )
        console.print(f"Report: {report}")
    fail_on_unfinished(logs, rerun=rerun)
