"""MedHal metrics: classification with non-factual as positive, the authors' factual-positive
format-matching figures (their own reading of the replies), explanation BLEU / ROUGE /
embedding similarity, all overall and per source, with 95% intervals over source items."""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, Value, metric

from medhalbench.medhal._benchmark import medhal_benchmark
from medhalbench.medhal._verdicts import MedHalReadingMetadata, MedHalScoreMetadata
from medhalbench.results import FigureSet, RunRecord, chosen_figures
from medhalbench.statistics import (
    BOOTSTRAP_SEED,
    DEFAULT_RESAMPLES,
    SCRIPT_FAILS,
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
        by_extractor: The prediction is the extractor's (the strict reader could not read
            the reply).
        paper_pair: The authors' code compares this sample's explanations: their reading
            and the gold both non-factual.
        paper_similarity: The authors' explanation similarity of this sample (a pair's,
            when the embedder is on).
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
    by_extractor: bool = False
    paper_pair: bool = False
    paper_similarity: float | None = None

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
    return figures + explanation_figures(prefix, clusters, outcomes, include)


# MedHal's own task of each source (`MedHalParser.DATA_TO_TASK`; their `acm` is our `acn`).
PAPER_TASKS = {
    "acn": "Information Extraction", "acm": "Information Extraction",
    "medmcqa": "Question-Answering", "medqa": "Question-Answering", "mednli": "NLI",
    "sumpubmed": "Summarization",
}  # fmt: skip
PAPER_PREFIXES = ("format_matching_", "paper_")


def paper_figures(
    clusters: Sequence[Hashable], outcomes: Sequence[StatementOutcome]
) -> list[Figure]:
    """Every figure MedHal's `MedHalParser.evaluate` (LAMA-WeST-Lab/MedHal,
    `src/evaluation/medhal_parser.py`) prints, from its reading of the same replies.

    Their rules: a reply is read by its first yes/no word; replies without one are left
    out (`format_matching_rate` is the share kept); precision, recall, F1 and accuracy take
    factual as positive, as scikit-learn computes them (an undefined figure prints 0,
    flagged); the explanation similarity is the mean cosine (all-MiniLM-L6-v2) between the
    gold explanation and the lower-cased text after their yes/no word, over the samples
    both they and the gold call non-factual, empty explanations included. F1 per task
    (their plot: QA sources merged) is over each task's kept replies.
    """
    factual = [o.factual for o in outcomes]
    theirs = [o.paper_predicted for o in outcomes]
    matching = [p is not None for p in theirs]
    figures = classification_figures(
        "format_matching_", clusters, factual, theirs, matching, zero_for_undefined=True
    )
    figures.append(share_figure("format_matching_rate", clusters, matching))
    pairs = [o.paper_similarity is not None for o in outcomes]
    if any(pairs):
        figures.append(
            mean_figure(
                "paper_explanation_similarity", clusters,
                [o.paper_similarity or 0.0 for o in outcomes], pairs,
            )
        )  # fmt: skip
    for task in sorted({PAPER_TASKS.get(o.source, o.source) for o in outcomes}):
        of_task = [
            m and PAPER_TASKS.get(o.source, o.source) == task
            for m, o in zip(matching, outcomes, strict=True)
        ]
        if any(of_task):
            figures += classification_figures(
                f"format_matching_task/{task}/", clusters, factual, theirs, of_task,
                names=("f1",), zero_for_undefined=True,
            )  # fmt: skip
    return figures


PAPER_FAILURES = (
    "no reply holds a yes/no word (scikit-learn refuses an empty set of predictions)",
    "no sample is non-factual both by their reading and by the gold label (the mean "
    "similarity of no explanation pair: an empty array)",
)
"""Why MedHal's `evaluate` stops with an error; a run's `paper_failure` metric is the
1-based position of its reason here."""


def paper_failure(outcomes: Sequence[StatementOutcome]) -> str | None:
    """Why MedHal's `evaluate` would stop with an error on these replies (one of
    `PAPER_FAILURES`), or None: with no reply holding a yes/no word scikit-learn refuses
    empty input; with no pair of non-factual explanations their similarity fails
    (`sum(axis=1)` on an empty array)."""
    if not any(o.paper_predicted is not None for o in outcomes):
        return PAPER_FAILURES[0]
    if not any(o.paper_pair for o in outcomes):
        return PAPER_FAILURES[1]
    return None


def statement_scores(
    outcomes: Sequence[StatementOutcome],
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, float]:
    """All MedHal figures, overall and (prefixed `source/<name>/`) per source.

    Returns:
        `precision`, `recall`, `f1`, `accuracy` with non-factual as positive over all
        samples (unreadable replies count as not positive and wrong); the same with factual
        as positive (`factual_pos_*`); the authors' figures (see `paper_figures`):
        `format_matching_{precision,recall,f1,accuracy,rate}`,
        `paper_explanation_similarity` and `format_matching_task/<task>/f1`, all NaN with
        `<name>_script_fails` where their script stops with an error (and `paper_failure`,
        the position of the reason in `PAPER_FAILURES`); ours: explanation `bleu` (0-1), `rouge1`, `rouge2` and
        `explanation_similarity` over samples where gold and our reading are both
        non-factual and both explanations exist; each with a 95% interval over source
        items. Counts `samples`, `unparseable` and `read_by_extractor` (with samples it read,
        `strict_*`: the figures without its readings); with verdict probabilities, `auroc`,
        `average_precision`, `brier` and the calibration table (non-factual positive).
        Undefined figures are NaN.
    """
    clusters = [f"{o.source}:{o.item}" for o in outcomes]
    everything = [True] * len(outcomes)
    figures = statement_figures("", clusters, outcomes, everything)
    figures += paper_figures(clusters, outcomes)
    if any(o.by_extractor for o in outcomes):  # the figures without the extractor's readings
        figures += classification_figures(
            "strict_", clusters, [not o.factual for o in outcomes],
            [None if o.by_extractor or o.predicted is None else not o.predicted for o in outcomes],
        )  # fmt: skip
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
    counts["read_by_extractor"] = float(sum(o.by_extractor for o in outcomes))
    counts["explanations"] = float(sum(o.explained for o in outcomes))
    if any(o.probability is not None for o in outcomes):
        counts.update(
            probability_scores([not o.factual for o in outcomes], [o.probability for o in outcomes])
        )
    values = estimate(figures, resamples=resamples, seed=seed)
    failure = paper_failure(outcomes)
    if failure is not None:  # their script prints none of its figures
        counts["paper_failure"] = float(PAPER_FAILURES.index(failure) + 1)
        for name in [f.name for f in figures if f.name.startswith(PAPER_PREFIXES)]:
            for key in (name, f"{name}_ci_low", f"{name}_ci_high"):
                values[key] = math.nan
            values[f"{name}{SCRIPT_FAILS}"] = 1.0
    return {**values, **counts}


def outcome_from_score(sample_score: SampleScore) -> StatementOutcome:
    """Rebuild an outcome from a scored sample's score metadata."""
    m = MedHalScoreMetadata.model_validate(sample_score.score.metadata or {})
    return StatementOutcome(
        factual=bool(m.label),
        predicted=m.predicted,
        gold_explanation=m.gold_explanation,
        explanation=m.explanation,
        source=m.source or "",
        item=m.item or str(sample_score.sample_id),
        paper_predicted=m.paper_predicted,
        paper_pair=m.paper_pair,
        paper_similarity=m.paper_explanation_similarity,
        similarity=m.explanation_similarity,
        probability=m.p_non_factual,
        by_extractor=m.read_by == "extractor",
    )


def headline_figures(scores: Sequence[SampleScore], record: RunRecord) -> list[Figure]:
    """The figures a comparison of two runs reports (over source items; the same whatever the run's
    settings, `record`)."""
    outcomes = [outcome_from_score(s) for s in scores]
    clusters = [f"{o.source}:{o.item}" for o in outcomes]
    figures = statement_figures("", clusters, outcomes, [True] * len(outcomes))
    figures += paper_figures(clusters, outcomes)
    return [f for f in figures if f.name in medhal_benchmark.headline]


@metric
def medhal_metrics(
    resamples: int = DEFAULT_RESAMPLES, seed: int = BOOTSTRAP_SEED, figures: FigureSet = "all"
) -> Metric:
    """The MedHal figures, overall and per source (see `statement_scores`): every one, or
    the headline ones (`FigureSet`)."""

    def compute(scores: list[SampleScore]) -> Value:
        outcomes = [outcome_from_score(s) for s in scores]
        return chosen_figures(
            figures,
            medhal_benchmark.headline,
            lambda n: statement_scores(outcomes, resamples=n, seed=seed),
            resamples,
        )

    return compute


@metric
def prediction_counts() -> Metric:
    """Predict-only counts: statements judged, found factual, found not factual, and
    replies that gave no verdict."""

    def compute(scores: list[SampleScore]) -> Value:
        predicted = [
            MedHalReadingMetadata.model_validate(s.score.metadata or {}).predicted for s in scores
        ]
        return {
            "statements": len(predicted),
            "factual": sum(p is True for p in predicted),
            "non_factual": sum(p is False for p in predicted),
            "unparseable": sum(p is None for p in predicted),
        }

    return compute
