"""DAHL's declaration in the registry (light: its implementation is `_implementation`)."""

from __future__ import annotations

from medhalbench import registry
from medhalbench.dahl._settings import (
    AgreementRequest,
    DahlBuild,
    DahlPlanSettings,
    DahlSettings,
    FilterRequest,
)

dahl_benchmark = registry.Benchmark(
    name="dahl",
    position=2,
    # The questions the authors released, at the pinned commit, or a copy of their file as
    # released at that commit or as it stands since (the same questions, other columns).
    paper_data=("github", "b09851b9a5b3", "ca59e63d012e"),
    title="DAHL",
    paper=(
        "Seo et al., DAHL: Domain-specific Automated Hallucination Evaluation of Long-Form "
        "Text through a Benchmark Dataset in Biomedicine"
    ),
    settings=DahlSettings,
    implementation_path="medhalbench.dahl._implementation:dahl_implementation",
    key_figure=registry.KeyFigure("score", "dahl_score", "paper_dahl_score"),
    headline=("dahl_score", "paper_dahl_score"),
    roles=(
        registry.Role("splitter", "Model that splits answers into atomic units."),
        registry.Role(
            "checker",
            "Model that judges each unit true/false (e.g. a search-grounded API such as "
            "perplexity/sonar).",
        ),
        registry.EXTRACTOR,
    ),
    sweep=registry.Sweep("temperature", "--temperatures"),
    plan_settings=DahlPlanSettings,
    builder=registry.Builder(
        settings=DahlBuild,
        roles=(registry.Role("generator", "Model that writes the category and questions."),),
    ),
    tools=(
        registry.Tool(("dahl", "agreement"), AgreementRequest, group_help="DAHL utilities."),
        registry.Tool(("dahl", "filter"), FilterRequest, group_help="DAHL utilities."),
    ),
)
