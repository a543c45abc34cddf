"""The LLM-judged NLI path with the real embedded model, and its parsing."""

from __future__ import annotations

import asyncio

import pytest

from helpers import scripted_model
from medhalbench.nli import LLMNLI, bidirectional_entailment, load_nli


def test_yes_no_become_probabilities_and_unreadable_is_none() -> None:
    replies = {"A": "Yes.", "B": "No, it does not.", "C": "It depends."}
    model = scripted_model(lambda p: replies[p.split("Premise: ")[1][0]])
    nli = LLMNLI(model, cache=False)
    assert asyncio.run(nli.entailment_batch([("A x", "h"), ("B x", "h"), ("C x", "h")])) == [
        1.0,
        0.0,
        None,
    ]
    assert nli.unreadable == 1
    assert (
        asyncio.run(bidirectional_entailment(nli, "A x", "C x")) is None
    )  # one direction unreadable


@pytest.mark.slow
def test_embedded_judge_runs_and_is_deterministic() -> None:
    nli = load_nli("llm", cache=False)
    pairs = [
        ("The patient has a fever of 39 degrees.", "The patient has a fever."),
        ("The sky is green.", "Aspirin is a drug."),
    ]
    first = asyncio.run(nli.entailment_batch(pairs))
    assert all(p in (0.0, 1.0, None) for p in first)
    assert asyncio.run(nli.entailment_batch(pairs)) == first
    assert nli.name == "llm:embedded/smollm2"
