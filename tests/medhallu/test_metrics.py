import math
import random

import pytest

from authors_code import authors_calculate_metrics
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


# Hand-made replies: terse, verbose, not-sure words ("pass", "skip", "2"), negations the
# substring test misreads ("not hallucinated" reads 1), unreadable replies (read as 0).
REPLY_SETS = {
    "mixed": [
        (1, "1", "easy"),
        (0, "0", "easy"),
        (0, "The answer is not hallucinated.", "easy"),
        (1, "Hallucinated.", "medium"),
        (0, "pass", "medium"),
        (1, "2", "medium"),
        (1, "I'm not sure", "hard"),
        (0, "skip", "hard"),
        (1, "It is fabricated.", "hard"),
        (0, "Factual", "hard"),
    ],
    # Without the not-sure option their scorer still reads "2", "pass" and "skip" as not
    # sure and leaves those samples out.
    "without_not_sure_option": [
        (1, "1", "easy"),
        (1, "2", "easy"),
        (0, "0", "easy"),
        (1, "pass", "medium"),
        (0, "0", "medium"),
        (1, "1", "medium"),
        (0, "skip", "hard"),
        (1, "1", "hard"),
    ],
    # Every reply "not sure" in their reading: they print 0 overall, None per difficulty.
    "all_not_sure": [(1, "2", "easy"), (0, "pass", "hard"), (1, "skip", "hard")],
    # No positive prediction: precision prints 0 (zero_division); no medium row: None.
    "no_positive_prediction": [(1, "0", "easy"), (0, "0", "easy"), (1, "Factual.", "hard")],
}


@pytest.mark.parametrize("name", list(REPLY_SETS))
def test_the_paper_column_is_what_the_authors_code_prints(name: str) -> None:
    cases = REPLY_SETS[name]
    labels = [label for label, _, _ in cases]
    replies = [reply for _, reply, _ in cases]
    difficulties = [difficulty for _, _, difficulty in cases]
    theirs = authors_calculate_metrics(labels, replies, difficulties)
    outcomes = [
        DetectionOutcome(
            label=DetectionLabel(label),
            prediction=parse_detection_verdict(reply, allow_not_sure=True).label,
            difficulty=difficulty,
            row=str(i),
            paper_prediction=paper_detection_reading(reply),
        )
        for i, (label, reply, difficulty) in enumerate(cases)
    ]
    for not_sure in (False, True):  # their scorer is the same in every setting
        ours = detection_scores(outcomes, not_sure=not_sure, resamples=0)
        for key, value in theirs.items():
            got = ours[f"paper_{key}"]
            if value is None:
                assert math.isnan(got), (key, got)
            else:
                assert got == pytest.approx(value), (key, got, value)
        assert "paper_accuracy" not in ours  # overall accuracy is no figure of theirs
        assert ours["paper_response_rate"] == pytest.approx(1 - theirs["not_sure_rate"])


def test_a_zero_the_authors_print_for_an_undefined_figure_is_flagged() -> None:
    outcomes = [
        DetectionOutcome(label=F, prediction=F, difficulty="easy", paper_prediction=F),
        DetectionOutcome(label=H, prediction=F, difficulty="easy", paper_prediction=F),
    ]
    s = detection_scores(outcomes, resamples=0)
    # Nothing predicted positive: our precision is undefined; theirs prints 0, flagged.
    assert math.isnan(s["precision"]) and s["paper_precision"] == 0.0
    assert s["paper_precision_zero_for_undefined"] == 1.0
    assert "paper_recall_zero_for_undefined" not in s  # recall 0/1 is a true 0


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("0", F), ("1", H), ("Factual.", F), ("Non-factual", H),
        ("The answer is not correct", H), ("gibberish", F), ("2", N),
        ("pass", N), ("I'm not sure", H), ("", F), ("skip this one", N),
    ],
)  # fmt: skip
def test_the_authors_reading(reply: str, expected: DetectionLabel) -> None:
    # calculate_metrics: '1', 'not', 'non' -> 1; else 'not sure', 'pass', 'skip', '2' -> 2;
    # else 0, whether or not the run offered the not-sure option.
    assert paper_detection_reading(reply) is expected


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
