"""MedHal metrics: classification with non-factual as positive, the authors' factual-positive
format-matching figures (their own reading of the replies), explanation BLEU / ROUGE /
embedding similarity, all overall and per source, with 95% intervals over source items."""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, Value, metric

from medhalbench.statistics import (
    DEFAULT_RESAMPLES,
    Figure,
    classification_figures,
    cluster_sums,
    estimate,
    mean_figure,
    probability_scores,
    share_figure,
)

_BLEU_ORDER = 4


@dataclass(frozen=True)
class StatementOutcome:
    """One judged statement.

    Attributes:
        factual: The gold label.
        predicted: Our reading of the reply (None: unreadable).
        gold_explanation: The dataset's explanation.
        explanation: The reply's explanation.
        source: The sample's source.
        item: The source item the sample was built from (its pair resamples with it).
        paper_predicted: The authors' reading (first yes/no word; None: no format match).
        similarity: Cosine similarity of the explanations' embeddings, where computed.
        probability: P(non-factual) at the verdict token, when log-probabilities were kept.
    """

    factual: bool
    predicted: bool | None
    gold_explanation: str | None
    explanation: str | None
    source: str
    item: str = ""
    paper_predicted: bool | None = None
    similarity: float | None = None
    probability: float | None = None

    @property
    def explained(self) -> bool:
        """Whether the explanation figures use this sample: gold and our reading both
        non-factual, and both explanations present."""
        return (
            not self.factual
            and self.predicted is False
            and bool(self.explanation)
            and bool(self.gold_explanation)
        )


@functools.cache
def _bleu() -> Any:
    from sacrebleu.metrics import BLEU

    return BLEU()


def bleu_statistics(prediction: str, reference: str) -> list[float]:
    """One pair's sufficient statistics for corpus BLEU (sacrebleu): system and reference
    lengths, then matches and totals per n-gram order."""
    score = _bleu().corpus_score([prediction], [[reference]])
    return [score.sys_len, score.ref_len, *score.counts, *score.totals]


def corpus_bleu(totals: np.ndarray) -> np.ndarray:
    """Corpus BLEU on the paper's 0-1 scale from summed sufficient statistics (sacrebleu's
    own formula, exponential smoothing as its default); undefined without pairs."""
    from sacrebleu.metrics import BLEU

    if totals[0] <= 0:
        return np.asarray(math.nan)
    counts = [int(c) for c in totals[2 : 2 + _BLEU_ORDER]]
    total = [int(t) for t in totals[2 + _BLEU_ORDER :]]
    score = BLEU.compute_bleu(counts, total, int(totals[0]), int(totals[1]), smooth_method="exp")
    return np.asarray(score.score / 100)


def explanation_figures(
    prefix: str,
    clusters: Sequence[Hashable],
    outcomes: Sequence[StatementOutcome],
    include: Sequence[bool],
) -> list[Figure]:
    """BLEU (0-1), mean ROUGE-1/ROUGE-2 F1 (stemmed) and mean embedding similarity of the
    explanations, over included samples whose explanations are compared."""
    from rouge_score import rouge_scorer

    pairs = [o.explained and keep for o, keep in zip(outcomes, include, strict=True)]
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2"], use_stemmer=True)
    rouge = [
        scorer.score(o.gold_explanation or "", o.explanation or "") if use else None
        for o, use in zip(outcomes, pairs, strict=True)
    ]
    width = 2 + 2 * _BLEU_ORDER
    bleu = np.array(
        [
            bleu_statistics(o.explanation or "", o.gold_explanation or "") if use else [0.0] * width
            for o, use in zip(outcomes, pairs, strict=True)
        ],
        dtype=float,
    ).reshape(len(outcomes), width)
    _, bleu_components = cluster_sums(clusters, bleu)
    figures = [
        Figure(f"{prefix}bleu", bleu_components, corpus_bleu, vectorized=False),
        mean_figure(
            f"{prefix}rouge1", clusters, [r["rouge1"].fmeasure if r else 0.0 for r in rouge], pairs
        ),
        mean_figure(
            f"{prefix}rouge2", clusters, [r["rouge2"].fmeasure if r else 0.0 for r in rouge], pairs
        ),
    ]
    similar = [use and o.similarity is not None for o, use in zip(outcomes, pairs, strict=True)]
    if any(similar):
        figures.append(
            mean_figure(
                f"{prefix}explanation_similarity",
                clusters,
                [o.similarity or 0.0 for o in outcomes],
                similar,
            )
        )
    return figures


def statement_figures(
    prefix: str,
    clusters: Sequence[Hashable],
    outcomes: Sequence[StatementOutcome],
    include: Sequence[bool],
) -> list[Figure]:
    non_factual = [not o.factual for o in outcomes]
    figures = classification_figures(
        prefix,
        clusters,
        non_factual,
        [None if o.predicted is None else not o.predicted for o in outcomes],
        include,
    )
    figures += classification_figures(
        f"{prefix}factual_pos_",
        clusters,
        [o.factual for o in outcomes],
        [o.predicted for o in outcomes],
        include,
    )
    matching = [
        keep and o.paper_predicted is not None for o, keep in zip(outcomes, include, strict=True)
    ]
    figures += classification_figures(
        f"{prefix}format_matching_", clusters, [o.factual for o in outcomes],
        [o.paper_predicted for o in outcomes], matching,
    )  # fmt: skip
    figures.append(
        share_figure(
            f"{prefix}format_matching_rate",
            clusters,
            [o.paper_predicted is not None for o in outcomes],
            include,
        )
    )
    return figures + explanation_figures(prefix, clusters, outcomes, include)


def statement_scores(
    outcomes: Sequence[StatementOutcome], *, resamples: int = DEFAULT_RESAMPLES, seed: int = 0
) -> dict[str, float]:
    """All MedHal figures, overall and (prefixed `source/<name>/`) per source.

    Returns:
        `precision`, `recall`, `f1`, `accuracy` with non-factual as positive over all
        samples (unreadable replies count as not positive and wrong); the same with factual
        as positive (`factual_pos_*`); the authors' figures: factual positive over the
        replies their reading finds a yes/no in (`format_matching_*`, with
        `format_matching_rate`); explanation `bleu` (0-1), `rouge1`, `rouge2` and
        `explanation_similarity` over samples where gold and our reading are both
        non-factual and both explanations exist; each with a 95% interval over source
        items. Counts `samples` and `unparseable`; with verdict probabilities, `auroc`,
        `average_precision`, `brier` and the calibration table (non-factual positive).
        Undefined figures are NaN.
    """
    clusters = [f"{o.source}:{o.item}" for o in outcomes]
    everything = [True] * len(outcomes)
    figures = statement_figures("", clusters, outcomes, everything)
    counts: dict[str, float] = {}
    for source in sorted({o.source for o in outcomes}):
        mine = [o.source == source for o in outcomes]
        figures += statement_figures(f"source/{source}/", clusters, outcomes, mine)
        counts[f"source/{source}/samples"] = float(sum(mine))
        counts[f"source/{source}/unparseable"] = float(
            sum(m and o.predicted is None for m, o in zip(mine, outcomes, strict=True))
        )
    counts["samples"] = float(len(outcomes))
    counts["unparseable"] = float(sum(o.predicted is None for o in outcomes))
    counts["explanations"] = float(sum(o.explained for o in outcomes))
    if any(o.probability is not None for o in outcomes):
        counts.update(
            probability_scores([not o.factual for o in outcomes], [o.probability for o in outcomes])
        )
    return {**estimate(figures, resamples=resamples, seed=seed), **counts}


def outcome_from_metadata(m: dict[str, Any], sample_id: Any = "") -> StatementOutcome:
    """Rebuild an outcome from a scored sample's metadata."""
    return StatementOutcome(
        factual=bool(m["label"]),
        predicted=m.get("predicted"),
        gold_explanation=m.get("gold_explanation"),
        explanation=m.get("explanation"),
        source=str(m.get("source", "")),
        item=str(m.get("item") or sample_id),
        paper_predicted=m.get("paper_predicted"),
        similarity=m.get("explanation_similarity"),
        probability=m.get("p_non_factual"),
    )


HEADLINE = (
    "f1",
    "precision",
    "recall",
    "accuracy",
    "format_matching_f1",
    "bleu",
    "rouge1",
    "rouge2",
)


def headline_figures(scores: Sequence[SampleScore], settings: Mapping[str, Any]) -> list[Figure]:
    """The figures a comparison of two runs reports (over source items)."""
    outcomes = [outcome_from_metadata(s.score.metadata or {}, s.sample_id) for s in scores]
    clusters = [f"{o.source}:{o.item}" for o in outcomes]
    figures = statement_figures("", clusters, outcomes, [True] * len(outcomes))
    return [f for f in figures if f.name in HEADLINE]


@metric
def medhal_metrics(resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> Metric:
    """Every MedHal figure, overall and per source (see `statement_scores`)."""

    def compute(scores: list[SampleScore]) -> Value:
        return statement_scores(
            [outcome_from_metadata(s.score.metadata or {}, s.sample_id) for s in scores],
            resamples=resamples,
            seed=seed,
        )

    return compute
