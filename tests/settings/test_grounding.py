"""How titles and plans name a run's evidence."""

from __future__ import annotations

import pytest

from medhalbench.settings import Grounding


@pytest.mark.parametrize(
    "settings,expected",
    [
        ({}, None),
        ({"evidence": None, "evidence_k": 5}, None),
        ({"evidence": "/data/pubmed-index/", "evidence_k": 3}, "pubmed-index, k 3"),
        (
            {"evidence": "abstracts.jsonl", "evidence_rerank": True},
            "abstracts.jsonl, k 5, re-ranked",
        ),
        ({"evidence": "es:pubmed", "evidence_k": 10}, "es:pubmed, k 10"),
        # A plug-in address holding credentials is named by its last part only.
        ({"evidence": "es:https://user:s3cretpass@search.example/pubmed"}, "pubmed, k 5"),
    ],
)
def test_a_runs_evidence_is_named_by_source_k_and_reranking(
    settings: dict[str, object], expected: str | None
) -> None:
    assert Grounding(**settings).phrase() == expected  # type: ignore[arg-type]
