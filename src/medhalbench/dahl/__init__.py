"""DAHL: long-form factuality of answers to biomedical exam questions.

The settings models and the declaration load lightly (the command line reads them for
`--help`); the rest is imported on first use."""

from typing import TYPE_CHECKING

from medhalbench._lazy import exports
from medhalbench.dahl._benchmark import dahl_benchmark
from medhalbench.dahl._settings import (
    AgreementRequest,
    CheckMode,
    DahlBuild,
    DahlPlanSettings,
    DahlSettings,
    FilterRequest,
)

if TYPE_CHECKING:
    from medhalbench.dahl._audit import Agreement, HumanJudgement, dahl_agreement
    from medhalbench.dahl._dataset import (
        DAHL_CATEGORIES,
        DAHL_QUESTIONS_COMMIT,
        DAHL_QUESTIONS_URL,
        DahlQuestion,
        DahlResponse,
        load_dahl_questions,
        stratified_sample,
    )
    from medhalbench.dahl._implementation import dahl_implementation
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

__getattr__ = exports(
    __name__,
    {
        "Agreement": "._audit",
        "HumanJudgement": "._audit",
        "dahl_agreement": "._audit",
        "DAHL_CATEGORIES": "._dataset",
        "DAHL_QUESTIONS_COMMIT": "._dataset",
        "DAHL_QUESTIONS_URL": "._dataset",
        "DahlQuestion": "._dataset",
        "DahlResponse": "._dataset",
        "load_dahl_questions": "._dataset",
        "stratified_sample": "._dataset",
        "dahl_implementation": "._implementation",
        "JudgedResponse": "._metrics",
        "ResponseScore": "._metrics",
        "dahl_metrics": "._metrics",
        "dahl_scores": "._metrics",
        "excluded_response": "._metrics",
        "judge_response": "._metrics",
        "normalise_units": "._metrics",
        "parse_units": "._metrics",
        "PaperResponse": "._paper",
        "paper_clean": "._paper",
        "paper_judge": "._paper",
        "paper_units": "._paper",
        "CheckOptions": "._scorer",
        "dahl_factuality": "._scorer",
        "dahl": "._task",
        "question_id": "._task",
        "TruthVerdict": "._verdicts",
        "paper_truth_reading": "._verdicts",
        "parse_truth_verdict": "._verdicts",
        "parse_truth_verdicts": "._verdicts",
        "read_truth_verdict": "._verdicts",
        "DahlBuildSummary": ".builder._build",
        "build_dahl_questions": ".builder._build",
        "parse_generator_output": ".builder._build",
        "FilterMatch": ".builder._filters",
        "FilterResult": ".builder._filters",
        "check_question": ".builder._filters",
        "context_dependence": ".builder._filters",
        "filter_questions": ".builder._filters",
        "Paper": ".builder._papers",
        "load_papers": ".builder._papers",
    },
)

__all__ = [
    "DAHL_CATEGORIES",
    "DAHL_QUESTIONS_COMMIT",
    "DAHL_QUESTIONS_URL",
    "Agreement",
    "AgreementRequest",
    "CheckMode",
    "CheckOptions",
    "DahlBuild",
    "DahlBuildSummary",
    "DahlPlanSettings",
    "DahlQuestion",
    "DahlResponse",
    "DahlSettings",
    "FilterMatch",
    "FilterRequest",
    "FilterResult",
    "HumanJudgement",
    "JudgedResponse",
    "Paper",
    "PaperResponse",
    "ResponseScore",
    "TruthVerdict",
    "build_dahl_questions",
    "check_question",
    "context_dependence",
    "dahl",
    "dahl_agreement",
    "dahl_benchmark",
    "dahl_factuality",
    "dahl_implementation",
    "dahl_metrics",
    "dahl_scores",
    "excluded_response",
    "filter_questions",
    "judge_response",
    "load_dahl_questions",
    "load_papers",
    "normalise_units",
    "paper_clean",
    "paper_judge",
    "paper_truth_reading",
    "paper_units",
    "parse_generator_output",
    "parse_truth_verdict",
    "parse_truth_verdicts",
    "parse_units",
    "question_id",
    "read_truth_verdict",
    "stratified_sample",
]
