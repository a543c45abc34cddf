from __future__ import annotations

import asyncio

import pytest
from scipy import stats

from medhalbench.medhallu._clusters import cluster_by_entailment, compare_clusters, rouge1_f1


class GroupNLI:
    """Entails within the same letter group: 'a1' and 'a2' bi-entail, 'a1' and 'b1' do not."""

    name = "group"

    async def entailment_batch(self, pairs):
        return [1.0 if p[0] == h[0] else 0.0 for p, h in pairs]


def test_greedy_clustering_by_bidirectional_entailment() -> None:
    texts = ["a-truth", "b1", "a2", "c1", "b2", "b3"]
    assert asyncio.run(cluster_by_entailment(texts, GroupNLI(), 0.5)) == [[0, 2], [1, 4, 5], [3]]


def cluster(
    fooling: bool, cosine: float, euclid: float, rouge: float, with_truth: bool = False
) -> dict:
    return {
        "fooling": fooling,
        "cosine": cosine,
        "euclidean": euclid,
        "rouge1": rouge,
        "with_ground_truth": with_truth,
        "candidates": ["x"],
    }


def test_comparison_table_matches_hand_computation() -> None:
    questions = [
        {
            "pubid": "1",
            "clusters": [cluster(True, 0.9, 0.2, 0.8, True), cluster(False, 0.3, 1.1, 0.2)],
        },
        {
            "pubid": "2",
            "clusters": [
                cluster(True, 0.8, 0.4, 0.6),
                cluster(False, 0.1, 1.3, 0.1),
                cluster(True, 0.7, 0.5, 0.5),
            ],
        },
    ]
    analysis = compare_clusters(questions)
    assert analysis.table["cosine"]["fooling"] == pytest.approx(0.8)
    assert analysis.table["cosine"]["non_fooling"] == pytest.approx(0.2)
    assert (
        analysis.table["euclidean"]["fooling_clusters"] == 3
        and analysis.table["euclidean"]["non_fooling_clusters"] == 2
    )
    expected = stats.ttest_ind([0.8, 0.6, 0.5], [0.2, 0.1], equal_var=False).pvalue
    assert analysis.table["rouge1"]["p_value"] == pytest.approx(expected)
    assert analysis.ground_truth_joined == 1


def test_rouge1_against_the_library() -> None:
    assert rouge1_f1("the cat sat", "the cat sat") == pytest.approx(1.0)
    assert rouge1_f1("the cat", "the dog") == pytest.approx(0.5)
