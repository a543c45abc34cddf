"""MedHallu detection metrics, with hallucinated answers as the positive class."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from inspect_ai.scorer import Metric, SampleScore, Value, metric

from medhalbench._classification import binary_scores, ratio
from medhalbench.data import DIFFICULTIES
from medhalbench.judging import DetectionLabel

UNPARSEABLE = "unparseable"
PREDICTION_NAMES = {
    DetectionLabel.FACTUAL: "factual",
    DetectionLabel.HALLUCINATED: "hallucinated",
    DetectionLabel.NOT_SURE: "not_sure",
}


@dataclass(frozen=True)
class DetectionOutcome:
    """One scored sample: its true label, the detector's prediction, and its row's difficulty.

    `prediction` is None when the reply could not be read.
    """

    label: DetectionLabel
    prediction: DetectionLabel | None
    difficulty: str


def classification_scores(outcomes: Iterable[DetectionOutcome]) -> dict[str, float]:
    """Precision, recall, F1 and accuracy with hallucinated as positive.

    A not-sure or unparseable prediction is not a positive: it is a false negative on a
    hallucinated answer and counts as wrong in accuracy.
    """
    definite = {DetectionLabel.HALLUCINATED: True, DetectionLabel.FACTUAL: False}
    return binary_scores(
        (o.label is DetectionLabel.HALLUCINATED, definite.get(o.prediction))  # type: ignore[arg-type]
        for o in outcomes
    )


def detection_scores(
    outcomes: Sequence[DetectionOutcome], *, not_sure: bool = False
) -> dict[str, float]:
    """All MedHallu detection figures for a list of outcomes.

    Returns:
        `precision`, `recall`, `f1`, `accuracy` over all samples; `easy_f1`,
        `medium_f1`, `hard_f1` (and their precision/recall) per difficulty; `samples` and
        `unparseable` counts; with `not_sure`, also the `not_sure` count, the
        `response_rate` (share of definite 0/1 answers) and `answered_precision`,
        `answered_recall`, `answered_f1`, `answered_accuracy` over answered samples.
    """
    scores = classification_scores(outcomes)
    for difficulty in DIFFICULTIES:
        subset = classification_scores(o for o in outcomes if o.difficulty == difficulty)
        for name in ("precision", "recall", "f1"):
            scores[f"{difficulty}_{name}"] = subset[name]
    scores["samples"] = float(len(outcomes))
    scores["unparseable"] = float(sum(o.prediction is None for o in outcomes))
    if not_sure:
        answered = [
            o
            for o in outcomes
            if o.prediction in (DetectionLabel.FACTUAL, DetectionLabel.HALLUCINATED)
        ]
        scores["not_sure"] = float(sum(o.prediction is DetectionLabel.NOT_SURE for o in outcomes))
        scores["response_rate"] = ratio(len(answered), len(outcomes))
        for name, value in classification_scores(answered).items():
            scores[f"answered_{name}"] = value
    return scores


def outcome_from_score(sample_score: SampleScore) -> DetectionOutcome:
    """Rebuild a detection outcome from a scored sample (score and sample metadata)."""
    metadata = sample_score.sample_metadata or {}
    prediction = (sample_score.score.metadata or {}).get("prediction", UNPARSEABLE)
    by_name = {name: label for label, name in PREDICTION_NAMES.items()}
    return DetectionOutcome(
        label=DetectionLabel(int(metadata["label"])),
        prediction=by_name.get(str(prediction)),
        difficulty=str(metadata.get("difficulty", "")),
    )


@metric
def detection_metrics(not_sure: bool = False) -> Metric:
    """Inspect metric reporting every MedHallu detection figure (see `detection_scores`)."""

    def compute(scores: list[SampleScore]) -> Value:
        return detection_scores([outcome_from_score(s) for s in scores], not_sure=not_sure)

    return compute
