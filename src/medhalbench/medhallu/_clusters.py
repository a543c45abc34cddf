"""Semantic clustering of hallucinated candidates (MedHallu's Table 3 analysis).

For each question, K candidates are generated and each is shown to the discriminators. The
ground truth and the candidates are clustered by bidirectional entailment (an item joins the
first cluster whose first member it bi-entails at or above the threshold, as in semantic
entropy). A cluster is "fooling" when most of its candidates fooled at least one
discriminator. Fooling and non-fooling clusters are compared by their members' mean cosine
similarity, Euclidean distance (of normalised embeddings) and ROUGE-1 F1 to the ground truth,
with Welch t-tests.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from medhalbench._progress import progress_bar
from medhalbench.data import PubMedQARecord, load_pubmedqa, write_text_atomically
from medhalbench.embeddings import Embedder
from medhalbench.medhallu._settings import BuildSettings, ClusterRequest
from medhalbench.medhallu.builder._steps import (
    BuildPrompts,
    BuildRoles,
    discriminate,
    generate_candidate,
    parse_generated,
)
from medhalbench.nli import NLIModel, bidirectional_entailment, load_nli
from medhalbench.registry import Printable, RoleModels
from medhalbench.results import Column, ResultTable
from medhalbench.settings import resolved


async def cluster_by_entailment(
    texts: Sequence[str], nli: NLIModel, threshold: float
) -> list[list[int]]:
    """Greedy clustering: each text joins the first cluster whose first member it
    bi-entails at or above `threshold`, else starts a new one. Returns index lists."""
    clusters: list[list[int]] = []
    for index, text in enumerate(texts):
        for cluster in clusters:
            score = await bidirectional_entailment(nli, texts[cluster[0]], text)
            if score is not None and score >= threshold:
                cluster.append(index)
                break
        else:
            clusters.append([index])
    return clusters


def rouge1_f1(candidate: str, reference: str) -> float:
    """ROUGE-1 F1 (rouge-score, stemmed)."""
    from rouge_score import rouge_scorer

    return float(
        rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)
        .score(reference, candidate)["rouge1"]
        .fmeasure
    )


@dataclass
class ClusterAnalysis:
    """Per-question clusters and the fooling vs non-fooling comparison."""

    questions: list[dict[str, Any]] = field(default_factory=list)
    table: dict[str, dict[str, float]] = field(default_factory=dict)
    ground_truth_joined: int = 0


def _welch(a: list[float], b: list[float]) -> float:
    from scipy import stats

    if len(a) < 2 or len(b) < 2:
        return float("nan")
    return float(stats.ttest_ind(a, b, equal_var=False).pvalue)


async def analyze_question(
    record: PubMedQARecord,
    roles: BuildRoles,
    settings: BuildSettings,
    prompts: BuildPrompts,
    k: int,
    threshold: float,
) -> dict[str, Any]:
    """Generate K candidates for one question, cluster them with the truth, and measure."""
    rng = random.Random(f"{resolved(settings.seed)}:{record.pubid}:clusters")
    truth = record.long_answer
    candidates: list[str] = []
    for _ in range(k):
        _, output = await generate_candidate(record, roles, settings, prompts, rng)
        parsed = parse_generated(output.completion)
        if parsed is not None:
            candidates.append(parsed[0])
    fooling = []
    for candidate in candidates:
        votes = await discriminate(roles, prompts, record, candidate, rng, settings.cache)
        fooling.append(any(v.fooled for v in votes))
    texts = [truth, *candidates]
    clusters = await cluster_by_entailment(texts, roles.nli, threshold)
    vectors = roles.embedder.encode(texts)
    members = []
    for cluster in clusters:
        candidate_ids = [i for i in cluster if i != 0]
        if not candidate_ids:
            continue
        members.append(
            {
                "candidates": [texts[i] for i in candidate_ids],
                "with_ground_truth": 0 in cluster,
                "fooling": sum(fooling[i - 1] for i in candidate_ids) * 2 > len(candidate_ids),
                "cosine": float(np.mean([vectors[0] @ vectors[i] for i in candidate_ids])),
                "euclidean": float(
                    np.mean([np.linalg.norm(vectors[0] - vectors[i]) for i in candidate_ids])
                ),
                "rouge1": float(np.mean([rouge1_f1(texts[i], truth) for i in candidate_ids])),
            }
        )
    return {
        "pubid": record.pubid,
        "candidates": len(candidates),
        "unparseable": k - len(candidates),
        "clusters": members,
    }


def compare_clusters(questions: Sequence[dict[str, Any]]) -> ClusterAnalysis:
    """Mean cosine, Euclidean distance and ROUGE-1 of fooling vs non-fooling clusters,
    with Welch t-test p-values, and how often the truth joined a candidate cluster."""
    analysis = ClusterAnalysis(questions=list(questions))
    clusters = [c for q in questions for c in q["clusters"]]
    for measure in ("cosine", "euclidean", "rouge1"):
        yes = [c[measure] for c in clusters if c["fooling"]]
        no = [c[measure] for c in clusters if not c["fooling"]]
        analysis.table[measure] = {
            "fooling": float(np.mean(yes)) if yes else float("nan"),
            "non_fooling": float(np.mean(no)) if no else float("nan"),
            "p_value": _welch(yes, no),
            "fooling_clusters": float(len(yes)),
            "non_fooling_clusters": float(len(no)),
        }
    analysis.ground_truth_joined = sum(
        any(c["with_ground_truth"] for c in q["clusters"]) for q in questions
    )
    return analysis


async def analyze_clusters(
    request: ClusterRequest,
    roles: BuildRoles,
    *,
    records: Sequence[PubMedQARecord] | None = None,
    concurrency: int = 4,
    show_progress: bool = True,
) -> ClusterAnalysis:
    """Run the clustering analysis over questions (see the module docstring).

    Args:
        request: The analysis (`medhalbench medhallu analyze clusters`'s options).
        roles: Its models (the generator also stands as the refiner, never called).
        records: PubMedQA entries to analyse instead of the request's own.
        concurrency: Questions in flight at once.
        show_progress: Show a progress bar.
    """
    if records is None:
        records = load_pubmedqa(request.pubmedqa, limit=request.limit)
    settings = BuildSettings(seed=request.seed, cache=request.cache)
    candidates, threshold = request.candidates, request.threshold
    prompts = BuildPrompts.load(settings)
    semaphore = asyncio.Semaphore(concurrency)
    results: dict[str, dict[str, Any]] = {}
    with progress_bar(disable=not show_progress) as progress:
        bar = progress.add_task("Clustering", total=len(records))

        async def run(record: PubMedQARecord) -> None:
            async with semaphore:
                results[record.pubid] = await analyze_question(
                    record, roles, settings, prompts, candidates, threshold
                )
            progress.advance(bar)

        await asyncio.gather(*(run(r) for r in records))
    return compare_clusters([results[r.pubid] for r in records])


_MEASURES = {
    "cosine": "Cosine similarity",
    "euclidean": "Euclidean distance",
    "rouge1": "ROUGE-1 F1",
}


@dataclass(frozen=True)
class ClusterOutcome:
    """An analysis and where its details were written."""

    analysis: ClusterAnalysis
    out: str | None

    def summary(self) -> list[Printable]:
        """The table of fooling vs non-fooling clusters and the counts behind it."""
        table = ResultTable(
            "Fooling vs non-fooling clusters, distance to the ground truth",
            "clusters",
            [
                Column("Measure"),
                Column("Fooling", undefined="no cluster of this kind"),
                Column("Non-fooling", undefined="no cluster of this kind"),
                Column("p (Welch t)", digits=4, undefined="a kind with fewer than 2 clusters"),
            ],
        )
        for measure, row in self.analysis.table.items():
            table.add([_MEASURES[measure], row["fooling"], row["non_fooling"], row["p_value"]])
        counts = self.analysis.table["cosine"]
        lines: list[Printable] = [
            table,
            f"Clusters: {counts['fooling_clusters']:.0f} fooling, "
            f"{counts['non_fooling_clusters']:.0f} non-fooling; the ground truth joined a "
            f"candidate cluster in {self.analysis.ground_truth_joined} of "
            f"{len(self.analysis.questions)} questions.",
        ]
        return lines + ([f"Details: {self.out}"] if self.out else [])


def _nan_to_null(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _nan_to_null(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_nan_to_null(v) for v in value]
    return None if isinstance(value, float) and math.isnan(value) else value


async def run_cluster_analysis(request: ClusterRequest, models: RoleModels) -> ClusterOutcome:
    """`medhalbench analyze clusters`: the analysis with the command's models, its details
    written as JSON (an undefined figure as null) when asked."""
    generator = models.model("generator")
    roles = BuildRoles(
        generator=generator,
        discriminators=models.models("discriminator"),
        refiner=generator,
        nli=load_nli(request.nli, cache=request.cache, resolve=lambda n: models.resolve("nli", n)),
        embedder=Embedder(request.embedder),
    )
    analysis = await analyze_clusters(request, roles)
    if request.out:
        details = {
            "table": analysis.table,
            "ground_truth_joined": analysis.ground_truth_joined,
            "questions": analysis.questions,
        }
        write_text_atomically(
            request.out, json.dumps(_nan_to_null(details), indent=2, allow_nan=False)
        )
    return ClusterOutcome(analysis, request.out)
