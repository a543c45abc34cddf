"""MedHal's implementation: its task, tables, demo and the functions its commands run
(`medhal_benchmark` names it)."""

from __future__ import annotations

from inspect_ai.scorer import Scorer

from medhalbench import registry
from medhalbench.examples import illustrative
from medhalbench.medhal._audit import JUDGE_AUDIT
from medhalbench.medhal._benchmark import medhal_benchmark
from medhalbench.medhal._metrics import headline_figures
from medhalbench.medhal._plan import plan_medhal_build
from medhalbench.medhal._report import (
    medhal_settings,
    medhal_summary,
    medhal_tables,
    write_predictions,
)
from medhalbench.medhal._scorer import factuality_prediction, factuality_verdict
from medhalbench.medhal._settings import MedHalBuild, MedHalSettings, TrainRequest
from medhalbench.medhal._task import medhal
from medhalbench.medhal._train import run_training
from medhalbench.medhal.builder._build import run_medhal_build
from medhalbench.results import RunRecord


def medhal_demo(settings: registry.DemoSettings) -> registry.DemoRun:
    """Judging the example statements (one file) or the user's test split; on the example, a
    judge's replies written to illustrate the comparisons too."""
    example = MedHalSettings.example
    outputs = {
        "illustrative-judge": settings.outputs_task(
            medhal, example, illustrative("medhal_outputs.jsonl")
        )
    }
    return registry.DemoRun(
        "MedHal: statement factuality",
        [settings.task(medhal, example)],
        outputs={} if settings.data else outputs,
    )


def medhal_rescorer(record: RunRecord, old: object) -> Scorer:
    """The judge's scorer of the run's settings, without the extractor (no model call)."""
    settings = record.settings_as(MedHalSettings)
    if settings.predict:
        return factuality_prediction(score_threshold=settings.score_threshold)
    return factuality_verdict(settings.similarity, score_threshold=settings.score_threshold)


medhal_implementation = registry.Implementation(
    benchmark=medhal_benchmark,
    task=medhal,
    scorer=factuality_verdict,
    headline=headline_figures,
    summary=medhal_summary,
    tables=medhal_tables,
    describe=medhal_settings,
    audit=JUDGE_AUDIT,
    outputs=write_predictions,
    demo=medhal_demo,
    commands={MedHalBuild: run_medhal_build, TrainRequest: run_training},
    plans={MedHalBuild: plan_medhal_build},
    rescorer=medhal_rescorer,
)
