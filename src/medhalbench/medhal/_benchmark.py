"""MedHal's registry entry."""

from __future__ import annotations

from importlib import resources

from medhalbench import registry
from medhalbench.medhal._audit import JUDGE_AUDIT
from medhalbench.medhal._metrics import headline_figures
from medhalbench.medhal._plan import plan_medhal_build
from medhalbench.medhal._report import (
    medhal_settings,
    medhal_summary,
    medhal_tables,
    write_predictions,
)
from medhalbench.medhal._scorer import factuality_verdict
from medhalbench.medhal._settings import MedHalBuild, MedHalSettings, TrainRequest
from medhalbench.medhal._task import medhal
from medhalbench.medhal._train import run_training
from medhalbench.medhal.builder._build import run_medhal_build

EXAMPLE = MedHalSettings.example


def medhal_demo(settings: registry.DemoSettings) -> registry.DemoRun:
    """Judging the example statements (all in one `train` file) or the user's test split."""
    task = settings.task(medhal, EXAMPLE, split="train" if settings.data is None else "test")
    return registry.DemoRun("MedHal: statement factuality", [task])


medhal_benchmark = registry.Benchmark(
    position=3,
    title="MedHal",
    paper="Mehenni & Zouaq, MedHal: An Evaluation Dataset for Medical Hallucination Detection",
    task=medhal,
    scorer=factuality_verdict,
    headline=headline_figures,
    paired_correctness=True,
    summary=medhal_summary,
    tables=medhal_tables,
    key_figure=registry.KeyFigure("F1", "f1", "format_matching_f1"),
    describe=medhal_settings,
    audit=JUDGE_AUDIT,
    outputs=write_predictions,
    roles=(registry.EXTRACTOR,),
    published_csv=resources.files(__package__).joinpath("published.csv"),
    example=EXAMPLE,
    demo=medhal_demo,
    builder=registry.Builder(
        settings=MedHalBuild,
        roles=(
            registry.Role("converter", "Model that writes statements."),
            registry.Role("nli", "The LLM NLI judge (named by --nli llm:MODEL).", option=False),
        ),
        run=run_medhal_build,
        plan=plan_medhal_build,
    ),
    tools=(
        registry.Tool(
            ("medhal", "train"),
            TrainRequest,
            run_training,
        ),
    ),
)
