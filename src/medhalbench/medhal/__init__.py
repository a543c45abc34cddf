"""MedHal: statement factuality across QA, NLI, information extraction and summarization."""

from typing import TYPE_CHECKING

from medhalbench import _lazy
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
    from medhalbench.medhal.builder._build import assign_splits, build_medhal
    from medhalbench.medhal.builder._convert import clean_explanation, read_statement

__getattr__, __all__ = _lazy.exports(__name__, __file__)
