"""MedHallu's implementation: its task, tables, demo and the functions its commands run
(`medhallu_benchmark` names it)."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.scorer import SampleScore, Scorer

from medhalbench import registry
from medhalbench.examples import illustrative
from medhalbench.medhallu._audit import JUDGE_AUDIT
from medhalbench.medhallu._benchmark import medhallu_benchmark
from medhalbench.medhallu._clusters import run_cluster_analysis
from medhalbench.medhallu._metrics import headline_figures
from medhalbench.medhallu._plan import plan_medhallu_build
from medhalbench.medhallu._report import (
    medhallu_charts,
    medhallu_settings,
    medhallu_summary,
    medhallu_tables,
)
from medhalbench.medhallu._scorer import detection_verdict
from medhalbench.medhallu._settings import ClusterRequest, MedHalluBuild, MedHalluSettings, Merge
from medhalbench.medhallu._task import medhallu
from medhalbench.medhallu.builder._build import run_medhallu_build, run_merge
from medhalbench.results import RunRecord
from medhalbench.statistics import Figure


def medhallu_demo(settings: registry.DemoSettings) -> registry.DemoRun:
    """Detection without and with knowledge on the example rows (or the user's); on the
    example, two detectors' verdicts written to illustrate the comparisons too."""
    example = MedHalluSettings.example
    outputs = {
        f"illustrative-detector-{name}": settings.outputs_task(
            medhallu, example, illustrative(f"medhallu_outputs_{name}.jsonl")
        )
        for name in ("a", "b")
    }
    return registry.DemoRun(
        "MedHallu: hallucination detection",
        [settings.task(medhallu, example), settings.task(medhallu, example, knowledge=True)],
        outputs={} if settings.data else outputs,
    )


def medhallu_headline(scores: Sequence[SampleScore], record: RunRecord) -> list[Figure]:
    """The figures `compare` pairs, as the run's not-sure setting defines them."""
    return headline_figures(scores, not_sure=record.settings_as(MedHalluSettings).not_sure)


def medhallu_rescorer(record: RunRecord, old: object) -> Scorer:
    """The detection scorer of the run's settings, without the extractor (no model call)."""
    settings = record.settings_as(MedHalluSettings)
    return detection_verdict(settings.not_sure, score_threshold=settings.score_threshold)


medhallu_implementation = registry.Implementation(
    benchmark=medhallu_benchmark,
    task=medhallu,
    scorer=detection_verdict,
    headline=medhallu_headline,
    summary=medhallu_summary,
    tables=medhallu_tables,
    charts=medhallu_charts,
    describe=medhallu_settings,
    audit=JUDGE_AUDIT,
    demo=medhallu_demo,
    commands={
        MedHalluBuild: run_medhallu_build,
        Merge: run_merge,
        ClusterRequest: run_cluster_analysis,
    },
    plans={MedHalluBuild: plan_medhallu_build},
    rescorer=medhallu_rescorer,
)
