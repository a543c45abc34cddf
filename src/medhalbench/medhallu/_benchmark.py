"""MedHallu's registry entry."""

from __future__ import annotations

from importlib import resources

from medhalbench import registry
from medhalbench.medhallu._audit import JUDGE_AUDIT
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

EXAMPLE = MedHalluSettings.example

GENERATOR = registry.Role("generator", "Model that writes hallucinated answers.")
DISCRIMINATOR = registry.Role(
    "discriminator",
    "Discriminator model; several make the ensemble whose votes set the difficulty.",
    many=True,
)
REFINER = registry.Role("refiner", "Model that critiques failed candidates.")
NLI_JUDGE = registry.Role("nli", "The LLM NLI judge (named by --nli llm:MODEL).", option=False)


def medhallu_demo(settings: registry.DemoSettings) -> registry.DemoRun:
    """Detection without and with knowledge on the example rows (or the user's)."""
    return registry.DemoRun(
        "MedHallu: hallucination detection",
        [settings.task(medhallu, EXAMPLE), settings.task(medhallu, EXAMPLE, knowledge=True)],
    )


medhallu_benchmark = registry.Benchmark(
    position=1,
    title="MedHallu",
    paper=(
        "MedHallu: A Comprehensive Benchmark for Detecting Medical Hallucinations in Large "
        "Language Models"
    ),
    task=medhallu,
    scorer=detection_verdict,
    headline=lambda scores, record: headline_figures(
        scores, not_sure=record.settings_as(MedHalluSettings).not_sure
    ),
    paired_correctness=True,
    roles=(registry.EXTRACTOR,),
    summary=medhallu_summary,
    tables=medhallu_tables,
    charts=medhallu_charts,
    # Knowledge and not-sure change the prompt, not the rows: runs that differ in them are
    # the paper's contrasts.
    key_figure=registry.KeyFigure("F1", "f1", "paper_f1"),
    describe=medhallu_settings,
    audit=JUDGE_AUDIT,
    published_csv=resources.files(__package__).joinpath("published.csv"),
    example=EXAMPLE,
    demo=medhallu_demo,
    builder=registry.Builder(
        settings=MedHalluBuild,
        roles=(GENERATOR, DISCRIMINATOR, REFINER, NLI_JUDGE),
        run=run_medhallu_build,
        plan=plan_medhallu_build,
    ),
    tools=(
        registry.Tool(("merge",), Merge, run_merge),
        registry.Tool(
            ("analyze", "clusters"),
            ClusterRequest,
            run_cluster_analysis,
            roles=(GENERATOR, DISCRIMINATOR, NLI_JUDGE),
            group_help="Analyses behind the papers' tables.",
        ),
    ),
)
