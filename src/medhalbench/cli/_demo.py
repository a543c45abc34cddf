"""`medhalbench demo`: the main job, offline on the embedded default model."""

from __future__ import annotations

import time
from importlib import resources
from typing import Any

import click

from medhalbench.cli._common import (
    console,
    fail_on_unfinished,
    model_options,
    print_log_locations,
    run_eval,
    split_models,
)
from medhalbench.cli._tables import rich_table
from medhalbench.dahl import dahl, dahl_result
from medhalbench.medhal import medhal
from medhalbench.medhal._results import medhal_result
from medhalbench.medhallu import medhallu
from medhalbench.medhallu._results import detection_result
from medhalbench.models import DEFAULT_MODEL
from medhalbench.report import write_report
from medhalbench.report._tables import (
    dahl_category_table,
    dahl_table,
    detection_table,
    medhal_table,
)


def illustrative(name: str) -> str:
    """Path of a packaged illustrative example (written by us, not real data)."""
    return str(resources.files("medhalbench").joinpath("examples", name))


def illustrative_medhallu() -> str:
    """Path of the packaged illustrative MedHallu sample."""
    return illustrative("medhallu_illustrative.jsonl")


@click.command(name="demo")
@click.option(
    "--medhallu",
    "medhallu_dataset",
    default=None,
    help="MedHallu dataset to use instead of the packaged illustrative sample.",
)
@click.option(
    "--dahl",
    "dahl_dataset",
    default=None,
    help="DAHL questions to use instead of the packaged illustrative ones.",
)
@click.option(
    "--medhal",
    "medhal_dataset",
    default=None,
    help="MedHal data (its test split) to use instead of the packaged illustrative statements.",
)
@click.option("--limit", type=int, default=None, help="Use the first N rows of each dataset.")
@click.option(
    "--report",
    "report_path",
    default="report.html",
    show_default=True,
    help="Where to write the HTML report of this demo's logs.",
)
@model_options
def demo_command(
    medhallu_dataset: str | None,
    dahl_dataset: str | None,
    medhal_dataset: str | None,
    limit: int | None,
    report_path: str,
    models: tuple[str, ...],
    **options: Any,
) -> None:
    """Run every system on small data, offline on the embedded model, and print the tables.

    Without options it uses illustrative examples shipped in the package: they prove the
    pipelines run; SmolLM2-135M's scores on them say nothing about model quality.
    """
    started = time.perf_counter()
    names = split_models(models)
    if None in (medhallu_dataset, dahl_dataset, medhal_dataset):
        console.print("[yellow]Using medhalbench's illustrative examples (not real data).[/yellow]")

    console.rule("MedHallu: hallucination detection")
    dataset = medhallu_dataset or illustrative_medhallu()
    logs = run_eval(
        [
            medhallu(dataset=dataset, limit=limit),
            medhallu(dataset=dataset, limit=limit, knowledge=True),
        ],
        models=names,
        options=options,
    )
    detection = [detection_result(log) for log in logs if log.status == "success"]
    if detection:
        console.print(rich_table(detection_table(detection)))

    console.rule("DAHL: long-form factuality")
    dahl_logs = run_eval(
        dahl(
            dataset=dahl_dataset or illustrative("dahl_illustrative.csv"),
            limit=limit,
            cache=options["cache"],
        ),
        models=names,
        options=options,
        roles={"splitter": DEFAULT_MODEL, "checker": DEFAULT_MODEL},
    )
    factuality = [dahl_result(log) for log in dahl_logs if log.status == "success"]
    if factuality:
        console.print(rich_table(dahl_table(factuality)))
        console.print(rich_table(dahl_category_table(factuality)))

    logs += dahl_logs

    console.rule("MedHal: statement factuality")
    medhal_logs = run_eval(
        medhal(
            dataset=medhal_dataset or illustrative("medhal_illustrative.jsonl"),
            split="train" if medhal_dataset is None else "test",
            limit=limit,
        ),
        models=names,
        options=options,
    )
    statements = [medhal_result(log) for log in medhal_logs if log.status == "success"]
    if statements:
        console.print(rich_table(medhal_table(statements)))
    logs += medhal_logs
    print_log_locations(logs, options["log_dir"])
    finished = [log.location for log in logs if log.status == "success"]
    if finished:
        for path in write_report(finished, report_path):
            console.print(f"Report: {path} (open it in a browser)")
    console.print(f"Demo finished in {time.perf_counter() - started:.0f} s.")
    fail_on_unfinished(logs)
