"""MedHal's registry entry."""

from __future__ import annotations

from importlib import resources

from medhalbench.examples import illustrative
from medhalbench.medhal._commands import build_medhal_command, eval_medhal, train_group
from medhalbench.medhal._metrics import headline_figures
from medhalbench.medhal._report import medhal_summary, medhal_tables
from medhalbench.medhal._task import medhal
from medhalbench.registry import Benchmark, DemoRun, DemoSettings

EXAMPLE = illustrative("medhal_illustrative.jsonl")


def medhal_demo(settings: DemoSettings) -> DemoRun:
    """Judging the example statements (all in one `train` file) or the user's test split."""
    task = medhal(
        dataset=settings.data or EXAMPLE,
        split="train" if settings.data is None else "test",
        limit=settings.limit,
        structured=settings.structured,
        probabilities=settings.structured,
    )
    return DemoRun("MedHal: statement factuality", [task])


medhal_benchmark = Benchmark(
    name="medhal",
    position=3,
    title="MedHal",
    paper=("Mehenni & Zouaq, MedHal: An Evaluation Dataset for Medical Hallucination Detection"),
    task=medhal,
    scorer="factuality_verdict",
    headline=headline_figures,
    paired_correctness=True,
    summary=medhal_summary,
    tables=medhal_tables,
    published_csv=resources.files("medhalbench.medhal").joinpath("published.csv"),
    example=EXAMPLE,
    demo=medhal_demo,
    eval_command=eval_medhal,
    build_command=build_medhal_command,
    commands=(train_group,),
)
