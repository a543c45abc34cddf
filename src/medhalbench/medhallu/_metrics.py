"""MedHallu detection metrics, with hallucinated answers as the positive class: ours, the
authors' (`paper_*`, from the same replies), 95% intervals over rows, and threshold-free
figures when verdict probabilities were kept."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from inspect_ai.scorer import Metric, SampleScore, Value, metric

from medhalbench.medhallu._benchmark import medhallu_benchmark
from medhalbench.medhallu._dataset import DIFFICULTIES, MedHalluSampleMetadata
from medhalbench.medhallu._verdicts import DetectionLabel, MedHalluScoreMetadata
from medhalbench.results import FigureSet, chosen_figures
from medhalbench.statistics import (
    BOOTSTRAP_SEED,
    DEFAULT_RESAMPLES,
    Figure,
    classification_figures,
    estimate,
    probability_scores,
    share_figure,
)

PREDICTION_NAMES = {
    DetectionLabel.FACTUAL: "factual",
    DetectionLabel.HALLUCINATED: "hallucinated",
    DetectionLabel.NOT_SURE: "not_sure",
}
_BY_NAME = {name: label for label, name in PREDICTION_NAMES.items()}


@dataclass(frozen=True)
class DetectionOutcome:
    """One scored sample.

    Attributes:
        label: The true label.
        prediction: Our reading of the reply (None: unparseable).
        difficulty: The row's difficulty.
        row: The row the sample comes from (both answers of a row resample together).
        paper_prediction: The authors' reading of the same reply.
        probability: P(hallucinated) from the verdict token's log-probabilities, if kept.
        by_extractor: The prediction is the extractor's (the strict reader could not read
            the reply).
        gold_in_knowledge: Whether the passages retrieved as knowledge hold the row's own
            abstract (None: gold or no knowledge, or a row without PubMed id).
    """

    label: DetectionLabel
    prediction: DetectionLabel | None
    difficulty: str
    row: str = ""
    paper_prediction: DetectionLabel | None = None
    probability: float | None = None
    by_extractor: bool = False
    gold_in_knowledge: bool | None = None

    @property
    def strict_prediction(self) -> DetectionLabel | None:
        """The strict reader's prediction (None where only the extractor read the reply)."""
        return None if self.by_extractor else self.prediction


def _positive(prediction: DetectionLabel | None) -> bool | None:
    """Hallucinated is positive; factual negative; not sure and unreadable are no answer."""
    return {DetectionLabel.HALLUCINATED: True, DetectionLabel.FACTUAL: False}.get(prediction)  # type: ignore[arg-type]


def detection_figures(outcomes: Sequence[DetectionOutcome], *, not_sure: bool) -> list[Figure]:
    """Every MedHallu figure that gets an interval, over rows."""
    rows = [o.row for o in outcomes]
    actual = [o.label is DetectionLabel.HALLUCINATED for o in outcomes]
    ours = [_positive(o.prediction) for o in outcomes]
    figures = classification_figures("", rows, actual, ours)
    for difficulty in DIFFICULTIES:
        figures += classification_figures(
            f"{difficulty}_", rows, actual, ours, [o.difficulty == difficulty for o in outcomes],
            names=("precision", "recall", "f1"),
        )  # fmt: skip
    figures += paper_figures(outcomes)
    if any(o.gold_in_knowledge is not None for o in outcomes):  # retrieved knowledge
        figures.append(
            share_figure(
                "gold_in_knowledge_rate", rows, [bool(o.gold_in_knowledge) for o in outcomes],
                [o.gold_in_knowledge is not None for o in outcomes],
            )
        )  # fmt: skip
    if any(o.by_extractor for o in outcomes):  # the figures without the extractor's readings
        strict = [_positive(o.strict_prediction) for o in outcomes]
        figures += classification_figures("strict_", rows, actual, strict)
    if not_sure:
        answered = [p is not None for p in ours]
        figures.append(share_figure("response_rate", rows, answered))
        figures.append(
            share_figure(
                "not_sure_rate", rows, [o.prediction is DetectionLabel.NOT_SURE for o in outcomes]
            )
        )
        figures += classification_figures("answered_", rows, actual, ours, answered)
    return figures


def paper_figures(outcomes: Sequence[DetectionOutcome]) -> list[Figure]:
    """Every figure the authors' `calculate_metrics` prints (MedHallu's
    `Detection/detection_vllm_notsurecase.py`), from their reading of each reply.

    Their rules: a reply read as 2 ("not sure", "pass", "skip", "2") is left out of every
    precision, recall, F1 and accuracy, in every setting; these are scikit-learn's with
    `zero_division=0` (undefined prints 0, flagged); with no answered sample at all they
    print 0 overall, and nothing (None) for a difficulty. Per difficulty also accuracy and
    the share of not-sure replies. Overall accuracy is not among their figures. Beside
    them, the response rate the paper's Tables 4 and 5 report (1 - their not-sure share).
    """
    rows = [o.row for o in outcomes]
    actual = [o.label is DetectionLabel.HALLUCINATED for o in outcomes]
    theirs = [_positive(o.paper_prediction) for o in outcomes]
    not_sure = [o.paper_prediction is DetectionLabel.NOT_SURE for o in outcomes]
    counted = [not n for n in not_sure]
    figures = classification_figures(
        "paper_", rows, actual, theirs, counted, names=("precision", "recall", "f1"),
        zero_for_undefined=True, empty=0.0,
    )  # fmt: skip
    for difficulty in DIFFICULTIES:
        of = [o.difficulty == difficulty for o in outcomes]
        figures += classification_figures(
            f"paper_{difficulty}_", rows, actual, theirs,
            [c and d for c, d in zip(counted, of, strict=True)], zero_for_undefined=True,
        )  # fmt: skip
        figures.append(share_figure(f"paper_{difficulty}_not_sure_rate", rows, not_sure, of))
    figures.append(share_figure("paper_not_sure_rate", rows, not_sure))
    figures.append(share_figure("paper_response_rate", rows, counted))
    return figures


def detection_scores(
    outcomes: Sequence[DetectionOutcome],
    *,
    not_sure: bool = False,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, float]:
    """All MedHallu detection figures for a list of outcomes.

    Returns:
        Ours: `precision`, `recall`, `f1`, `accuracy` over all samples; `easy_f1`,
        `medium_f1`, `hard_f1` (and their precision/recall); with `not_sure`,
        `response_rate`, `not_sure_rate` and `answered_*` over answered samples. The authors' (see
        `paper_figures`): `paper_precision`, `paper_recall`, `paper_f1`,
        `paper_<difficulty>_{accuracy,precision,recall,f1,not_sure_rate}`,
        `paper_not_sure_rate` and `paper_response_rate`. With retrieved knowledge,
        `gold_in_knowledge_rate`: the share of samples whose passages hold their row's own
        abstract. Each with `_ci_low`/`_ci_high`, a 95% interval over rows.
        Counts: `samples`, `unparseable`, `read_by_extractor`, `not_sure`; with samples
        read by the extractor, `strict_*` (the figures without its readings). With verdict
        probabilities: `auroc`, `average_precision`, `brier` and the calibration table.
        Undefined figures are NaN.
    """
    figures = estimate(
        detection_figures(outcomes, not_sure=not_sure), resamples=resamples, seed=seed
    )
    counts = {
        "samples": float(len(outcomes)),
        "unparseable": float(sum(o.prediction is None for o in outcomes)),
        "read_by_extractor": float(sum(o.by_extractor for o in outcomes)),
        **{f"{d}_samples": float(sum(o.difficulty == d for o in outcomes)) for d in DIFFICULTIES},
    }
    if not_sure:
        counts["not_sure"] = float(sum(o.prediction is DetectionLabel.NOT_SURE for o in outcomes))
    if any(o.probability is not None for o in outcomes):
        counts.update(
            probability_scores(
                [o.label is DetectionLabel.HALLUCINATED for o in outcomes],
                [o.probability for o in outcomes],
            )
        )
    return {**figures, **counts}


def outcome_from_score(sample_score: SampleScore) -> DetectionOutcome:
    """Rebuild a detection outcome from a scored sample (score and sample metadata)."""
    sample = sample_score.sample_metadata_as(MedHalluSampleMetadata)
    if sample is None:  # inspect passes it; only a score made by hand may lack it
        raise ValueError("a MedHallu score needs its sample's metadata (the label)")
    score = MedHalluScoreMetadata.model_validate(sample_score.score.metadata or {})
    paper = score.paper_prediction
    return DetectionOutcome(
        label=DetectionLabel(sample.label),
        prediction=_BY_NAME.get(score.prediction),
        difficulty=sample.difficulty,
        row=sample.row_id if sample.row_id is not None else str(sample_score.sample_id),
        paper_prediction=DetectionLabel(paper) if paper is not None else None,
        probability=score.p_hallucinated,
        by_extractor=score.read_by == "extractor",
        gold_in_knowledge=sample.gold_in_knowledge,
    )


def headline_figures(scores: Sequence[SampleScore], *, not_sure: bool) -> list[Figure]:
    """The figures a comparison of two runs reports (over rows; `not_sure`: whether the run
    allowed not sure)."""
    outcomes = [outcome_from_score(s) for s in scores]
    return [
        f
        for f in detection_figures(outcomes, not_sure=not_sure)
        if f.name in medhallu_benchmark.headline
    ]


@metric
def detection_metrics(
    not_sure: bool = False,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    figures: FigureSet = "all",
) -> Metric:
    """Inspect metric reporting the MedHallu detection figures (see `detection_scores`):
    every one, or the headline ones (`FigureSet`)."""

    def compute(scores: list[SampleScore]) -> Value:
        outcomes = [outcome_from_score(s) for s in scores]
        return chosen_figures(
            figures,
            medhallu_benchmark.headline,
            lambda n: detection_scores(outcomes, not_sure=not_sure, resamples=n, seed=seed),
            resamples,
        )

    return compute
