"""MedHallu's declaration in the registry (light: its implementation is `_implementation`)."""

from __future__ import annotations

from medhalbench import registry
from medhalbench.medhallu._settings import (
    MEDHALLU_HUB,
    ClusterRequest,
    MedHalluBuild,
    MedHalluSettings,
    Merge,
)

GENERATOR = registry.Role("generator", "Model that writes hallucinated answers.")
DISCRIMINATOR = registry.Role(
    "discriminator",
    "Discriminator model; several make the ensemble whose votes set the difficulty.",
    many=True,
)
REFINER = registry.Role("refiner", "Model that critiques failed candidates.")

medhallu_benchmark = registry.Benchmark(
    name="medhallu",
    position=1,
    title="MedHallu",
    paper=(
        "MedHallu: A Comprehensive Benchmark for Detecting Medical Hallucinations in Large "
        "Language Models"
    ),
    settings=MedHalluSettings,
    implementation_path="medhalbench.medhallu._implementation:medhallu_implementation",
    # Knowledge and not-sure change the prompt, not the rows: runs that differ in them are
    # the paper's contrasts.
    key_figure=registry.KeyFigure("F1", "f1", "paper_f1"),
    headline=(
        "f1",
        "precision",
        "recall",
        "accuracy",
        "easy_f1",
        "medium_f1",
        "hard_f1",
        "paper_f1",
        "response_rate",
        "answered_f1",
    ),
    paired_correctness=True,
    paper_data=(MEDHALLU_HUB,),
    roles=(registry.EXTRACTOR,),
    builder=registry.Builder(
        settings=MedHalluBuild, roles=(GENERATOR, DISCRIMINATOR, REFINER, registry.NLI_JUDGE)
    ),
    tools=(
        registry.Tool(("merge",), Merge),
        registry.Tool(
            ("analyze", "clusters"),
            ClusterRequest,
            roles=(GENERATOR, DISCRIMINATOR, registry.NLI_JUDGE),
            group_help="Analyses behind the papers' tables.",
        ),
    ),
)
