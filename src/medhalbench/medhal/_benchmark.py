"""MedHal's declaration in the registry (light: its implementation is `_implementation`)."""

from __future__ import annotations

from medhalbench import registry
from medhalbench.medhal._settings import MedHalBuild, MedHalSettings, TrainRequest

medhal_benchmark = registry.Benchmark(
    name="medhal",
    position=3,
    paper_data=("GM07/medhal-lf-bal",),  # the split the authors evaluated on (its test)
    title="MedHal",
    paper="Mehenni & Zouaq, MedHal: An Evaluation Dataset for Medical Hallucination Detection",
    settings=MedHalSettings,
    implementation_path="medhalbench.medhal._implementation:medhal_implementation",
    key_figure=registry.KeyFigure("F1", "f1", "format_matching_f1"),
    headline=(
        "f1",
        "precision",
        "recall",
        "accuracy",
        "format_matching_f1",
        "format_matching_accuracy",
        "bleu",
        "rouge1",
        "rouge2",
    ),
    paired_correctness=True,
    roles=(registry.EXTRACTOR,),
    builder=registry.Builder(
        settings=MedHalBuild,
        roles=(registry.Role("converter", "Model that writes statements."), registry.NLI_JUDGE),
    ),
    tools=(registry.Tool(("medhal", "train"), TrainRequest),),
)
