"""MedHal metrics: classification with non-factual as positive, the authors' factual-positive
format-matching figures, and explanation BLEU / ROUGE."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from inspect_ai.scorer import Metric, SampleScore, Value, metric

from medhalbench._classification import binary_scores


@dataclass(frozen=True)
class StatementOutcome:
    """One judged statement: gold and predicted factuality (None: unreadable), explanations."""

    factual: bool
    predicted: bool | None
    gold_explanation: str | None
    explanation: str | None
    source: str


def explanation_scores(pairs: Sequence[tuple[str, str]]) -> dict[str, float]:
    """Corpus BLEU (sacrebleu, 0-100) and mean ROUGE-1/ROUGE-2 F1 (rouge-score, stemmed) of
    (prediction, reference) explanation pairs."""
    if not pairs:
        return {"bleu": 0.0, "rouge1": 0.0, "rouge2": 0.0, "explanations": 0.0}
    import sacrebleu
    from rouge_score import rouge_scorer

    predictions = [p for p, _ in pairs]
    references = [r for _, r in pairs]
    bleu = sacrebleu.corpus_bleu(predictions, [references]).score
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2"], use_stemmer=True)
    scores = [scorer.score(r, p) for p, r in pairs]
    return {
        "bleu": float(bleu),
        "rouge1": sum(s["rouge1"].fmeasure for s in scores) / len(scores),
        "rouge2": sum(s["rouge2"].fmeasure for s in scores) / len(scores),
        "explanations": float(len(pairs)),
    }


def statement_scores(outcomes: Sequence[StatementOutcome]) -> dict[str, float]:
    """All MedHal figures for a set of outcomes.

    Returns:
        `precision`, `recall`, `f1`, `accuracy` with non-factual as positive over all
        samples (unreadable replies count as not positive and wrong); the same with factual
        as positive (`factual_pos_*`); the authors' figures, factual positive over replies
        that matched the format only (`format_matching_*`, with `format_matching_rate`);
        `unparseable`; explanation `bleu`, `rouge1`, `rouge2` over samples where gold and
        prediction are both non-factual and both explanations exist.
    """
    figures = binary_scores(
        (not o.factual, None if o.predicted is None else not o.predicted) for o in outcomes
    )
    for name, value in binary_scores((o.factual, o.predicted) for o in outcomes).items():
        figures[f"factual_pos_{name}"] = value
    matched = [o for o in outcomes if o.predicted is not None]
    for name, value in binary_scores((o.factual, o.predicted) for o in matched).items():
        figures[f"format_matching_{name}"] = value
    figures["format_matching_rate"] = len(matched) / len(outcomes) if outcomes else 0.0
    figures["samples"] = float(len(outcomes))
    figures["unparseable"] = float(len(outcomes) - len(matched))
    pairs = [
        (o.explanation, o.gold_explanation)
        for o in outcomes
        if not o.factual and o.predicted is False and o.explanation and o.gold_explanation
    ]
    figures.update(explanation_scores(pairs))
    return figures


def statement_scores_by_source(outcomes: Sequence[StatementOutcome]) -> dict[str, float]:
    """`statement_scores` overall and, prefixed `source/<name>/`, per source."""
    figures = statement_scores(outcomes)
    by_source: dict[str, list[StatementOutcome]] = defaultdict(list)
    for o in outcomes:
        by_source[o.source].append(o)
    for source, subset in sorted(by_source.items()):
        for name, value in statement_scores(subset).items():
            if name in (
                "precision",
                "recall",
                "f1",
                "accuracy",
                "unparseable",
                "samples",
                "bleu",
                "rouge1",
                "rouge2",
            ):
                figures[f"source/{source}/{name}"] = value
    return figures


def outcome_from_score(sample_score: SampleScore) -> StatementOutcome:
    """Rebuild an outcome from a scored sample's metadata."""
    m = sample_score.score.metadata or {}
    return StatementOutcome(
        factual=bool(m["label"]),
        predicted=m.get("predicted"),
        gold_explanation=m.get("gold_explanation"),
        explanation=m.get("explanation"),
        source=str(m.get("source", "")),
    )


@metric
def medhal_metrics() -> Metric:
    """Every MedHal figure, overall and per source (see `statement_scores`)."""

    def compute(scores: list[SampleScore]) -> Value:
        return statement_scores_by_source([outcome_from_score(s) for s in scores])

    return compute
