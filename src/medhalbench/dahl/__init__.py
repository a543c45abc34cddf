"""DAHL: long-form factuality of answers to biomedical exam questions."""

from medhalbench.dahl._agreement import (
    Agreement,
    AgreementRequest,
    HumanJudgement,
    dahl_agreement,
)
from medhalbench.dahl._benchmark import dahl_benchmark
from medhalbench.dahl._build import (
    DahlBuild,
    DahlBuildSummary,
    build_dahl_questions,
    parse_generator_output,
)
from medhalbench.dahl._filtering import FilterRequest, FilterResult, filter_questions
from medhalbench.dahl._filters import FilterMatch, check_question, context_dependence
from medhalbench.dahl._metrics import dahl_metrics
from medhalbench.dahl._paper import PaperResponse, paper_clean, paper_judge, paper_units
from medhalbench.dahl._papers import Paper, load_papers
from medhalbench.dahl._plan import DahlPlanSettings
from medhalbench.dahl._questions import (
    DAHL_CATEGORIES,
    DAHL_QUESTIONS_COMMIT,
    DAHL_QUESTIONS_URL,
    load_dahl_questions,
    stratified_sample,
)
from medhalbench.dahl._records import DahlQuestion, DahlResponse
from medhalbench.dahl._scorer import CheckMode, dahl_factuality
from medhalbench.dahl._scoring import (
    JudgedResponse,
    ResponseScore,
    dahl_scores,
    excluded_response,
    judge_response,
    normalise_units,
    parse_units,
)
from medhalbench.dahl._task import dahl, question_id
from medhalbench.dahl._verdicts import (
    TruthVerdict,
    paper_truth_reading,
    parse_truth_verdict,
    parse_truth_verdicts,
    read_truth_verdict,
)

__all__ = [
    "JudgedResponse",
    "PaperResponse",
    "paper_clean",
    "paper_judge",
    "paper_truth_reading",
    "paper_units",
    "read_truth_verdict",
    "AgreementRequest",
    "CheckMode",
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
