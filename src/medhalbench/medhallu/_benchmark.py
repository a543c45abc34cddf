"""MedHallu's registry entry."""

from __future__ import annotations

from importlib import resources

from medhalbench.examples import illustrative
from medhalbench.medhallu._commands import (
    analyze_group,
    build_medhallu_command,
    eval_medhallu,
    merge_command,
)
from medhalbench.medhallu._metrics import headline_figures
from medhalbench.medhallu._report import medhallu_charts, medhallu_summary, medhallu_tables
from medhalbench.medhallu._task import medhallu
from medhalbench.registry import Benchmark, DemoRun, DemoSettings

EXAMPLE = illustrative("medhallu_illustrative.jsonl")


def medhallu_demo(settings: DemoSettings) -> DemoRun:
    """Detection without and with knowledge on the example rows (or the user's)."""
    data = settings.data or EXAMPLE
    shaped = settings.structured
    return DemoRun(
        "MedHallu: hallucination detection",
        [
            medhallu(dataset=data, limit=settings.limit, structured=shaped, probabilities=shaped),
            medhallu(
                dataset=data,
                limit=settings.limit,
                knowledge=True,
                structured=shaped,
                probabilities=shaped,
            ),
        ],
    )


medhallu_benchmark = Benchmark(
    name="medhallu",
    position=1,
    title="MedHallu",
    paper=(
        "MedHallu: A Comprehensive Benchmark for Detecting Medical Hallucinations in Large "
        "Language Models"
    ),
    task=medhallu,
    scorer="detection_verdict",
    headline=headline_figures,
    paired_correctness=True,
    summary=medhallu_summary,
    tables=medhallu_tables,
    charts=medhallu_charts,
    published_csv=resources.files("medhalbench.medhallu").joinpath("published.csv"),
    example=EXAMPLE,
    demo=medhallu_demo,
    eval_command=eval_medhallu,
    build_command=build_medhallu_command,
    commands=(merge_command, analyze_group),
)
