"""MedHal: statement factuality across QA, NLI, information extraction and summarization."""

from medhalbench.medhal._benchmark import medhal_benchmark
from medhalbench.medhal._build import MedHalBuildSummary, assign_splits, build_medhal
from medhalbench.medhal._convert import clean_explanation, read_statement
from medhalbench.medhal._data import load_medhal
from medhalbench.medhal._metrics import (
    StatementOutcome,
    medhal_metrics,
    statement_scores,
)
from medhalbench.medhal._records import MedHalRecord
from medhalbench.medhal._task import factuality_verdict, medhal
from medhalbench.medhal._verdicts import (
    FactualVerdict,
    paper_explanation,
    paper_factual_reading,
    parse_factual_verdict,
)

__all__ = [
    "medhal_benchmark",
    "FactualVerdict",
    "MedHalRecord",
    "load_medhal",
    "paper_explanation",
    "paper_factual_reading",
    "parse_factual_verdict",
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
