import pytest

from medhalbench.judging import DetectionLabel
from medhalbench.medhallu import DetectionOutcome, detection_scores

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
    assert s["hard_f1"] == 0.0  # TP0: no positive predicted
    assert s["hard_precision"] == 0.0  # zero division reports 0


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


def test_empty_difficulty_reports_zero() -> None:
    s = detection_scores([o(H, H, "easy")])
    assert s["f1"] == 1.0
    assert s["hard_f1"] == 0.0
