"""DAHL: long-form factuality of answers to biomedical exam questions."""

from typing import TYPE_CHECKING

from medhalbench._lazy import exported, exports
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

_HEAVY = {
    "._audit": "Agreement HumanJudgement dahl_agreement",
    "._dataset": (
        "DAHL_CATEGORIES DAHL_QUESTIONS_COMMIT DAHL_QUESTIONS_URL DahlQuestion "
        "DahlResponse load_dahl_questions stratified_sample"
    ),
    "._implementation": "dahl_implementation",
    "._metrics": (
        "JudgedResponse ResponseScore dahl_metrics dahl_scores excluded_response "
        "judge_response normalise_units parse_units"
    ),
    "._paper": "PaperResponse paper_clean paper_judge paper_units",
    "._scorer": "CheckOptions dahl_factuality",
    "._task": "dahl question_id",
    "._verdicts": (
        "TruthVerdict paper_truth_reading parse_truth_verdict parse_truth_verdicts "
        "read_truth_verdict"
    ),
    ".builder._build": "DahlBuildSummary build_dahl_questions parse_generator_output",
    ".builder._filters": "FilterMatch FilterResult check_question context_dependence filter_questions",
    ".builder._papers": "Paper load_papers",
}
"""What is imported on first use: each module's names."""
__getattr__ = exports(__name__, _HEAVY)

__all__ = [
    "dahl_benchmark",
    "AgreementRequest",
    "CheckMode",
    "DahlBuild",
    "DahlPlanSettings",
    "DahlSettings",
    "FilterRequest",
    *exported(_HEAVY),
]
