"""DAHL: long-form factuality of answers to biomedical exam questions."""

from medhalbench.dahl._audit import Agreement, HumanJudgement, dahl_agreement
from medhalbench.dahl._benchmark import dahl_benchmark
from medhalbench.dahl._dataset import (
    DAHL_CATEGORIES,
    DAHL_QUESTIONS_COMMIT,
    DAHL_QUESTIONS_URL,
    DahlQuestion,
    DahlResponse,
    load_dahl_questions,
    stratified_sample,
)
from medhalbench.dahl._metrics import (
    JudgedResponse,
    ResponseScore,
    dahl_metrics,
    dahl_scores,
    excluded_response,
    judge_response,
    normalise_units,
    parse_units,
)
from medhalbench.dahl._paper import PaperResponse, paper_clean, paper_judge, paper_units
from medhalbench.dahl._scorer import CheckOptions, dahl_factuality
from medhalbench.dahl._settings import (
    AgreementRequest,
    CheckMode,
    DahlBuild,
    DahlPlanSettings,
    DahlSettings,
    FilterRequest,
)
from medhalbench.dahl._task import dahl, question_id
from medhalbench.dahl._verdicts import (
    TruthVerdict,
    paper_truth_reading,
    parse_truth_verdict,
    parse_truth_verdicts,
    read_truth_verdict,
)
from medhalbench.dahl.builder._build import (
    DahlBuildSummary,
    build_dahl_questions,
    parse_generator_output,
)
from medhalbench.dahl.builder._filters import (
    FilterMatch,
    FilterResult,
    check_question,
    context_dependence,
    filter_questions,
)
from medhalbench.dahl.builder._papers import Paper, load_papers

__all__ = [
    "DahlSettings",
    "JudgedResponse",
    "PaperResponse",
    "paper_clean",
    "paper_judge",
    "paper_truth_reading",
    "paper_units",
    "read_truth_verdict",
    "AgreementRequest",
    "CheckMode",
    "CheckOptions",
    "DahlBuild",
    "DahlPlanSettings",
    "dahl_benchmark",
    "DAHL_CATEGORIES",
    "DAHL_QUESTIONS_COMMIT",
    "DAHL_QUESTIONS_URL",
    "DahlQuestion",
    "DahlResponse",
    "Paper",
    "TruthVerdict",
    "load_dahl_questions",
    "load_papers",
    "parse_truth_verdict",
    "parse_truth_verdicts",
    "stratified_sample",
    "Agreement",
    "DahlBuildSummary",
    "FilterMatch",
    "HumanJudgement",
    "build_dahl_questions",
    "check_question",
    "context_dependence",
    "filter_questions",
    "FilterRequest",
    "FilterResult",
    "dahl_agreement",
    "parse_generator_output",
    "ResponseScore",
    "dahl",
    "dahl_factuality",
    "dahl_metrics",
    "dahl_scores",
    "excluded_response",
    "judge_response",
    "normalise_units",
    "parse_units",
    "question_id",
]
