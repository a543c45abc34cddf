import math
import random

import pytest

from medhalbench.medhallu import (
    DetectionLabel,
    DetectionOutcome,
    detection_scores,
    paper_detection_reading,
    parse_detection_verdict,
)

F, H, N = DetectionLabel.FACTUAL, DetectionLabel.HALLUCINATED, DetectionLabel.NOT_SURE


def o(
    label: DetectionLabel, prediction: DetectionLabel | None, difficulty: str
) -> DetectionOutcome:
    return DetectionOutcome(label=label, prediction=prediction, difficulty=difficulty)


OUTCOMES = [
    # easy: TP, TN, FP
    o(H, H, "easy"),
    o(F, F, "easy"),
    o(F, H, "easy"),
    # medium: TP, FN (predicted factual), TN
    o(H, H, "medium"),
    o(H, F, "medium"),
    o(F, F, "medium"),
    # hard: FN (not sure), FN (unparseable), TN, FP (...
    o(H, N, "hard"),
    o(H, None, "hard"),
    o(F, F, "hard"),
    o(F, N, "hard"),
]


def test_overall_scores_match_hand_computation() -> None:
    s = detection_scores(OUTCOMES, not_sure=True)
    # TP=2, FP=1, FN=3 (medium factual, hard not-sure, hard unparseable), correct=5 of 10
    assert s["precision"] == pytest.approx(2 / 3)
    assert s["recall"] == pytest.approx(2 / 5)
    assert s["f1"] == pytest.approx(2 * 2 / (2 * 2 + 1 + 3))
    assert s["accuracy"] == pytest.approx(5 / 10)
    assert s["samples"] == 10
    assert s["unparseable"] == 1
    assert s["not_sure"] == 2


def test_per_difficulty_f1() -> None:
    s = detection_scores(OUTCOMES)
    assert s["easy_f1"] == pytest.approx(2 * 1 / (2 * 1 + 1 + 0))  # TP1 FP1 FN0
    assert s["easy_precision"] == pytest.approx(0.5)
    assert s["medium_f1"] == pytest.approx(2 * 1 / (2 * 1 + 0 + 1))  # TP1 FP0 FN1
    assert s["medium_recall"] == pytest.approx(0.5)
    assert s["hard_f1"] == 0.0  # TP0 FP0 FN2: defined, and 0
    assert math.isnan(s["hard_precision"])  # nothing predicted positive: undefined, not 0


def test_not_sure_response_rate_and_answered_metrics() -> None:
    s = detection_scores(OUTCOMES, not_sure=True)
    # definite answers: 7 of 10 (two not-sure, one unparseable)
    assert s["response_rate"] == pytest.approx(7 / 10)
    # answered: easy TP,TN,FP; medium TP,FN,TN; hard TN -> TP2 FP1 FN1, correct 5/7
    assert s["answered_precision"] == pytest.approx(2 / 3)
    assert s["answered_recall"] == pytest.approx(2 / 3)
    assert s["answered_f1"] == pytest.approx(4 / 6)
    assert s["answered_accuracy"] == pytest.approx(5 / 7)


def test_not_sure_keys_only_when_allowed() -> None:
    s = detection_scores(OUTCOMES, not_sure=False)
    assert "response_rate" not in s and "answered_f1" not in s


def test_empty_difficulty_is_undefined_not_zero() -> None:
    s = detection_scores([o(H, H, "easy")])
    assert s["f1"] == 1.0
    assert math.isnan(s["hard_f1"]) and math.isnan(s["hard_recall"])


def test_paper_figures_use_the_authors_reading_and_answered_samples() -> None:
    def r(label: DetectionLabel, reply: str, difficulty: str) -> DetectionOutcome:
        return DetectionOutcome(
            label=label,
            prediction=parse_detection_verdict(reply, allow_not_sure=True).label,
            difficulty=difficulty,
            paper_prediction=paper_detection_reading(reply, not_sure=True),
        )

    outcomes = [
        r(H, "1", "easy"),  # both: TP
        r(F, "Nothing is wrong with it", "easy"),  # ours unparseable; theirs "not" in it -> 1: FP
        r(H, "The model refuses.", "hard"),  # ours unparseable (FN); theirs factual (FN)
        r(F, "skip", "hard"),  # ours unparseable; theirs 2 (not sure): left out
        r(H, "I'm not sure", "hard"),  # ours 2 (FN); theirs "not" -> 1: TP
    ]
    s = detection_scores(outcomes, not_sure=True, resamples=0)
    assert s["unparseable"] == 3 and s["precision"] == 1.0 and s["recall"] == pytest.approx(1 / 3)
    # Theirs over the 4 answered: TP2 FP1 FN1.
    assert s["paper_precision"] == pytest.approx(2 / 3) and s["paper_recall"] == pytest.approx(
        2 / 3
    )
    assert s["paper_response_rate"] == pytest.approx(4 / 5)
    # Hard, theirs: "skip" left out; TP1 FN1 -> F1 2/3.
    assert s["paper_hard_f1"] == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("reply", "not_sure", "expected"),
    [
        ("0", False, F), ("1", False, H), ("Factual.", False, F), ("Non-factual", False, H),
        ("The answer is not correct", False, H), ("gibberish", False, F), ("2", False, F),
        ("2", True, N), ("pass", True, N), ("I'm not sure", True, H), ("", True, F),
    ],
)  # fmt: skip
def test_the_authors_reading(reply: str, not_sure: bool, expected: DetectionLabel) -> None:
    assert paper_detection_reading(reply, not_sure=not_sure) is expected


def test_figures_equal_scikit_learn_and_intervals_hold_them() -> None:
    from sklearn.metrics import f1_score, precision_score, recall_score

    rng = random.Random(3)
    outcomes = [
        DetectionOutcome(
            label=label,
            prediction=rng.choice([F, H, H, None]),
            difficulty=rng.choice(["easy", "medium", "hard"]),
            row=str(row),
        )
        for row in range(150)
        for label in (F, H)
    ]
    s = detection_scores(outcomes, resamples=500)
    truth = [o.label is H for o in outcomes]
    predicted = [o.prediction is H for o in outcomes]
    assert s["f1"] == pytest.approx(f1_score(truth, predicted))
    assert s["precision"] == pytest.approx(precision_score(truth, predicted))
    assert s["recall"] == pytest.approx(recall_score(truth, predicted))
    for name in ("f1", "precision", "recall", "accuracy", "hard_f1"):
        assert s[f"{name}_ci_low"] < s[name] < s[f"{name}_ci_high"]
        assert s[f"{name}_ci_high"] - s[f"{name}_ci_low"] < 0.3


def test_probabilities_give_auroc_average_precision_and_calibration() -> None:
    from sklearn.metrics import average_precision_score, roc_auc_score

    probabilities = [0.9, 0.1, 0.7, 0.3, 0.85, None]
    labels = [H, F, H, F, F, H]
    outcomes = [
        DetectionOutcome(label=lab, prediction=H, difficulty="easy", probability=p)
        for lab, p in zip(labels, probabilities, strict=True)
    ]
    s = detection_scores(outcomes, resamples=0)
    truth, p = [lab is H for lab in labels[:5]], probabilities[:5]
    assert s["probability_samples"] == 5
    assert s["auroc"] == pytest.approx(roc_auc_score(truth, p))
    assert s["average_precision"] == pytest.approx(average_precision_score(truth, p))
    assert sum(s[f"calibration/{i}/count"] for i in range(5)) == 5
    assert math.isnan(s["calibration/2/observed"])  # no probability in (0.4, 0.6]
    one_class = detection_scores([outcomes[0]], resamples=0)
    assert math.isnan(one_class["auroc"])
