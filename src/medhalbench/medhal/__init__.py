"""MedHal: statement factuality across QA, NLI, information extraction and summarization."""

from medhalbench.medhal._benchmark import medhal_benchmark
from medhalbench.medhal._dataset import MedHalRecord, load_medhal
from medhalbench.medhal._metrics import (
    StatementOutcome,
    medhal_metrics,
    statement_scores,
)
from medhalbench.medhal._scorer import factuality_verdict
from medhalbench.medhal._settings import MedHalBuild, MedHalSettings
from medhalbench.medhal._task import medhal
from medhalbench.medhal._verdicts import (
    FactualVerdict,
    paper_explanation,
    paper_factual_reading,
    parse_factual_verdict,
)
from medhalbench.medhal.builder._build import (
    MedHalBuildSummary,
    assign_splits,
    build_medhal,
)
from medhalbench.medhal.builder._convert import clean_explanation, read_statement

__all__ = [
    "MedHalSettings",
    "medhal_benchmark",
    "FactualVerdict",
    "MedHalRecord",
    "load_medhal",
    "paper_explanation",
    "paper_factual_reading",
    "parse_factual_verdict",
    "MedHalBuild",
    "MedHalBuildSummary",
    "StatementOutcome",
    "assign_splits",
    "build_medhal",
    "clean_explanation",
    "factuality_verdict",
    "medhal",
    "medhal_metrics",
    "read_statement",
    "statement_scores",
]
