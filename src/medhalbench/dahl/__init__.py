"""DAHL: long-form factuality of answers to biomedical exam questions."""

from typing import TYPE_CHECKING

from medhalbench import _lazy
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
    from medhalbench.dahl._audit import Agreement, dahl_agreement
    from medhalbench.dahl._dataset import (
        DAHL_CATEGORIES,
        DAHL_QUESTIONS_COMMIT,
        DahlQuestion,
        DahlResponse,
        load_dahl_questions,
    )
    from medhalbench.dahl._implementation import dahl_implementation
    from medhalbench.dahl._metrics import (
        ResponseScore,
        dahl_metrics,
        dahl_scores,
        excluded_response,
        judge_response,
        normalise_units,
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
        build_dahl_questions,
        parse_generator_output,
    )
    from medhalbench.dahl.builder._filters import (
        check_question,
        context_dependence,
        filter_questions,
    )
    from medhalbench.dahl.builder._papers import Paper, load_papers

__getattr__, __all__ = _lazy.exports(__name__, __file__)
