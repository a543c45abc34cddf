"""How titles and plans name a run's evidence."""

from __future__ import annotations

import pytest

from medhalbench.settings import Grounding, SettingsError


@pytest.mark.parametrize(
    "settings,expected",
    [
        ({}, None),
        ({"evidence": None, "evidence_k": 5}, None),
        # A local path as the report shows paths (here outside the current folder).
        ({"evidence": "/srv/data/pubmed-index/", "evidence_k": 3}, "…/data/pubmed-index, k 3"),
        (
            {"evidence": "abstracts.jsonl", "evidence_rerank": True},
            "abstracts.jsonl, k 5, re-ranked",
        ),
        ({"evidence": "es:pubmed", "evidence_k": 10}, "es:pubmed, k 10"),
        ({"evidence": "idx", "evidence_retriever": "dense"}, "idx, k 5, dense"),
        (
            {"evidence": "idx", "evidence_retriever": "hybrid", "evidence_rerank": True},
            "idx, k 5, hybrid, re-ranked",
        ),
        # A plug-in address holding credentials is named by its last part only.
        ({"evidence": "es:https://user:s3cretpass@search.example/pubmed"}, "pubmed, k 5"),
    ],
)
def test_a_runs_evidence_is_named_by_source_k_and_reranking(
    settings: dict[str, object], expected: str | None
) -> None:
    assert Grounding(**settings).evidence_phrase() == expected  # type: ignore[arg-type]


def test_the_retrieval_done_names_a_retrieval_left_to_the_index() -> None:
    assert Grounding(evidence="idx").evidence_phrase("hybrid") == "idx, k 5, hybrid"
    # What the settings asked stands; a closed-book run has no evidence to name.
    assert (
        Grounding(evidence="idx", evidence_retriever="bm25").evidence_phrase("hybrid")
        == "idx, k 5, bm25"
    )
    assert Grounding().evidence_phrase("hybrid") is None


def test_evidence_settings_without_evidence_are_refused_together() -> None:
    with pytest.raises(SettingsError) as refused:
        Grounding.of(evidence_k=3, evidence_retriever="dense")
    assert [(p.setting, p.reason) for p in refused.value.problems] == [
        ("evidence_k", "needs --evidence"), ("evidence_retriever", "needs --evidence"),
    ]  # fmt: skip
    assert Grounding.of(evidence="idx", evidence_retriever="dense").evidence_k == 5
