"""MedHal: statement factuality across QA, NLI, information extraction and summarization.

The settings models and the declaration load lightly (the command line reads them for
`--help`); the rest is imported on first use."""

from typing import TYPE_CHECKING

from medhalbench._lazy import exports
from medhalbench.medhal._benchmark import medhal_benchmark
from medhalbench.medhal._settings import MedHalBuild, MedHalSettings

if TYPE_CHECKING:
    from medhalbench.medhal._dataset import MedHalRecord, load_medhal
    from medhalbench.medhal._implementation import medhal_implementation
    from medhalbench.medhal._metrics import StatementOutcome, medhal_metrics, statement_scores
    from medhalbench.medhal._scorer import factuality_verdict
    from medhalbench.medhal._task import medhal
    from medhalbench.medhal._verdicts import (
        FactualVerdict,
        paper_explanation,
        paper_factual_reading,
        parse_factual_verdict,
    )
    from medhalbench.medhal.builder._build import MedHalBuildSummary, assign_splits, build_medhal
    from medhalbench.medhal.builder._convert import clean_explanation, read_statement

__getattr__ = exports(
    __name__,
    {
        "MedHalRecord": "._dataset",
        "load_medhal": "._dataset",
        "medhal_implementation": "._implementation",
        "StatementOutcome": "._metrics",
        "medhal_metrics": "._metrics",
        "statement_scores": "._metrics",
        "factuality_verdict": "._scorer",
        "medhal": "._task",
        "FactualVerdict": "._verdicts",
        "paper_explanation": "._verdicts",
        "paper_factual_reading": "._verdicts",
        "parse_factual_verdict": "._verdicts",
        "MedHalBuildSummary": ".builder._build",
        "assign_splits": ".builder._build",
        "build_medhal": ".builder._build",
        "clean_explanation": ".builder._convert",
        "read_statement": ".builder._convert",
    },
)

__all__ = [
    "FactualVerdict",
    "MedHalBuild",
    "MedHalBuildSummary",
    "MedHalRecord",
    "MedHalSettings",
    "StatementOutcome",
    "assign_splits",
    "build_medhal",
    "clean_explanation",
    "factuality_verdict",
    "load_medhal",
    "medhal",
    "medhal_benchmark",
    "medhal_implementation",
    "medhal_metrics",
    "paper_explanation",
    "paper_factual_reading",
    "parse_factual_verdict",
    "read_statement",
    "statement_scores",
]
