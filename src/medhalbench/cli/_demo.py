"""`medhalbench demo`: the main job, offline on the embedded default model."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import click
from inspect_ai.log import EvalLog

from medhalbench.commands import (
    command_settings,
    console,
    eval_model_params,
    examples_epilog,
    fail_on_unfinished,
    print_runs,
    role_names,
    run_eval,
    split_models,
)
from medhalbench.registry import DemoSettings, Role, benchmarks
from medhalbench.report import write_report
from medhalbench.results import run_result
from medhalbench.settings import DEFAULT_MODEL, RunOptions

F = Callable[..., Any]

EXAMPLE_ROWS = 8
"""Rows of each packaged example the demo uses unless --limit says otherwise: MedHallu's 12
rows make 48 samples (each row's two answers, without and with knowledge), a third of the
demo's time more than 8 rows, which still hold every difficulty. DAHL's (4) and MedHal's (8)
are used whole."""

SAMPLES_IN_FLIGHT = 8
"""Samples the demo's runs work on at once (inspect's default: one per model connection,
two for the embedded model on 2 cores). A DAHL sample makes its calls one after another
(answer, split, checks), so with only as many samples as replicas one replica often waits
for the other's sample; with more, the calls queue for the replicas and keep both busy."""


def _data_options(f: F) -> F:
    """`--<benchmark> DATA` for each benchmark with a demo: the user's data instead of its
    packaged example."""
    for entry in reversed([b for b in benchmarks() if b.demo is not None]):
        f = click.option(
            f"--{entry.name}",
            f"data_{entry.name}",
            default=None,
            help=f"{entry.title} data to use instead of the packaged illustrative example.",
        )(f)
    return f


def _roles() -> list[Role]:
    """The roles of every benchmark with a demo, each once."""
    found: dict[str, Role] = {}
    for entry in benchmarks():
        if entry.demo is not None:
            found.update((r.name, r) for r in entry.roles if not r.optional)
    return list(found.values())


@click.command(
    name="demo",
    params=eval_model_params(_roles()),
    epilog=examples_epilog(
        [
            "medhalbench demo",
            "medhalbench demo --limit 2 --report first.html",
            "medhalbench demo --medhallu pqa_labeled.jsonl --limit 20",
        ]
    ),
)
@_data_options
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help=f"Use the first N rows of each dataset (default: all of the data you give, the first {EXAMPLE_ROWS} of a packaged example).",
)
@click.option(
    "--free-text",
    is_flag=True,
    help="Let the judges answer in free text, as the papers did (default: constrained JSON verdicts with probabilities).",
)
@click.option(
    "--report",
    "report_path",
    default="report.html",
    show_default=True,
    help="Where to write the HTML report of this demo's logs.",
)
def demo_command(
    limit: int | None,
    free_text: bool,
    report_path: str,
    models: tuple[str, ...],
    judge: str | None,
    **options: Any,
) -> None:
    """Run every benchmark on small data, offline on the embedded model, and print one table
    per run. Without options it uses illustrative examples shipped in the package.

    The judges answer with constrained JSON verdicts and log-probabilities (so that a tiny
    model's replies can be read, and AUROC computed); --free-text runs the papers' protocol.
    """
    started = time.perf_counter()
    names = split_models(models)
    entries = [b for b in benchmarks() if b.demo is not None]
    data = {b.name: options.pop(f"data_{b.name}", None) for b in entries}
    named = {r.name: [v] for r in _roles() if (v := options.pop(r.name, None))}
    roles = {b.name: role_names(b.roles, named, under_test=names, shared=judge) for b in entries}
    illustrative_data = None in data.values()
    run_options = command_settings(RunOptions, {**options, "max_samples": SAMPLES_IN_FLIGHT})
    logs: list[EvalLog] = []
    for entry in entries:
        assert entry.demo is not None
        run_started = time.perf_counter()
        rows = limit if limit is not None or data[entry.name] is not None else EXAMPLE_ROWS
        run = entry.demo(
            DemoSettings(
                data=data[entry.name],
                limit=rows,
                structured=not free_text,
                cache=run_options.cache,
            )
        )
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
    if names == [DEFAULT_MODEL]:
        console.print(
            "[yellow]SmolLM2-135M (the embedded model) proves that the pipelines run; its "
            "figures say nothing about model quality"
            + (", and the illustrative data is not real data" if illustrative_data else "")
            + ".[/yellow]"
        )
    console.print(f"Demo finished in {time.perf_counter() - started:.0f} s.")
    fail_on_unfinished(logs)
