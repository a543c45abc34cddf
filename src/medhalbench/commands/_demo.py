"""`medhalbench demo` run: every benchmark on small data, offline on the embedded model, one
table per run and a report."""

from __future__ import annotations

import time
from typing import Any

from inspect_ai.log import EvalLog

from medhalbench.commands._derive import command_settings
from medhalbench.commands._failures import fail_on_unfinished
from medhalbench.commands._roles import role_names
from medhalbench.commands._run import console, run_eval, split_models
from medhalbench.commands._tables import print_runs
from medhalbench.models import SYSTEM_PROVIDER
from medhalbench.outputs import system_model
from medhalbench.registry import DemoSettings, benchmarks, demo_roles
from medhalbench.report import write_report
from medhalbench.results import run_result
from medhalbench.settings import DEFAULT_MODEL, DEMO_ROWS, RunOptions

SAMPLES_IN_FLIGHT = 8
"""Samples the demo's runs work on at once (inspect's default: one per model connection,
two for the embedded model on 2 cores). A DAHL sample makes its calls one after another
(answer, split, checks), so with only as many samples as replicas one replica often waits
for the other's sample; with more, the calls queue for the replicas and keep both busy."""


def demo_from_command_line(
    limit: int | None,
    free_text: bool,
    report_path: str,
    models: tuple[str, ...],
    judge: str | None,
    **options: Any,
) -> None:
    """`medhalbench demo` from its options' values."""
    started = time.perf_counter()
    names = split_models(models)
    entries = [b for b in benchmarks() if b.demo]
    data = {b.name: options.pop(f"data_{b.name}", None) for b in entries}
    named = {r.name: [v] for r in demo_roles() if (v := options.pop(r.name, None))}
    roles = {b.name: role_names(b.roles, named, under_test=names, shared=judge) for b in entries}
    illustrative_data = None in data.values()
    run_options = command_settings(RunOptions, {**options, "max_samples": SAMPLES_IN_FLIGHT})
    logs: list[EvalLog] = []
    demos = []
    for entry in entries:
        demo = entry.implementation.demo
        assert demo is not None
        run_started = time.perf_counter()
        rows = limit if limit is not None or data[entry.name] is not None else DEMO_ROWS
        run = demo(
            DemoSettings(
                data=data[entry.name],
                limit=rows,
                structured=not free_text,
                cache=run_options.cache,
            )
        )
        demos.append(run)
        console.rule(run.title)
        # Our progress bars (one per run, with counts), or the display --display names.
        done = run_eval(
            run.tasks,
            models=names,
            # A benchmark's runs (MedHallu with and without knowledge) side by side: the
            # engine's replicas stay busy from one run's last calls to the next one's first.
            options=run_options.model_copy(update={"max_tasks": len(run.tasks)}),
            roles={role: listed[0] for role, listed in roles[entry.name].items()},
            announce=False,
        )
        for system, task in run.outputs.items():
            done += run_eval(
                [task],
                models=[system_model("", system)],
                options=run_options,
                roles={role: listed[0] for role, listed in roles[entry.name].items()},
                announce=False,
            )
        print_runs(console, [run_result(log) for log in done if log.status == "success"])
        if done:  # not under --dry-run, which prints plans
            console.print(f"{entry.title}: {time.perf_counter() - run_started:.0f} s")
        logs += done
    if not logs:  # --dry-run: the plans are all there is
        return
    finished = [log.location for log in logs if log.status == "success"]
    report = write_report(finished, report_path) if finished else []
    where = f"Logs: {run_options.log_dir}/ (inspect view --log-dir {run_options.log_dir})"
    console.print(where + (f"; report: {report[0]}" if report else ""))
    if any(run.outputs for run in demos):
        console.print(
            f"[yellow]The runs of {SYSTEM_PROVIDER}/illustrative-... score outputs we wrote to "
            "show the comparisons at work (their figures differ by design); they are no "
            "model's.[/yellow]"
        )
    if names == [DEFAULT_MODEL]:
        console.print(
            "[yellow]SmolLM2-135M (the embedded model) proves that the pipelines run; its "
            "figures say nothing about model quality"
            + (", and the illustrative data is not real data" if illustrative_data else "")
            + ".[/yellow]"
        )
    console.print(f"Demo finished in {time.perf_counter() - started:.0f} s.")
    fail_on_unfinished(logs)
