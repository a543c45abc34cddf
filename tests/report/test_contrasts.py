"""Which runs the report compares, and how a comparison explains itself."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from helpers import record_of
from medhalbench.report import comparison_table, contrasts
from medhalbench.report._compare import Comparison
from medhalbench.results import RunResult
from medhalbench.statistics import PairedDifference

SAME_ROWS = {"dataset_fingerprint": "abc", "pairing": "both", "rows": 12, "seed": 42}


def run(model: str = "openai/gpt-4o", **arguments: object) -> RunResult:
    settings = {"knowledge": False, "not_sure": False, "temperature": 0.3, **arguments}
    return RunResult(
        system="medhallu", model=model, metrics={}, record=record_of({**SAME_ROWS, **settings}),
        log=f"{model}-{sorted(settings.items())}.eval", status="success",
    )  # fmt: skip


def test_pairs_differ_in_one_thing_and_reruns_and_confounded_pairs_are_left_out() -> None:
    base = run()
    knowledge = run(knowledge=True)
    other_model = run("anthropic/claude-x")
    both = run("anthropic/claude-x", not_sure=True)  # two differences from `base`
    rerun = run()
    elsewhere = replace(
        base,
        record=replace(base.record, facts=base.record.facts.model_copy(update={"rows": 5})),
        log="x",
    )
    found = contrasts([base, knowledge, other_model, both, rerun, elsewhere])
    named = {(a.log, b.log): str(d) for a, b, d in found.pairs}
    assert named[(base.log, knowledge.log)] == "knowledge: no vs yes"
    # A holds the lower value whatever the run order.
    assert named[(other_model.log, base.log)] == "model: anthropic/claude-x vs openai/gpt-4o"
    assert named[(other_model.log, both.log)] == "not sure: no vs yes"
    assert (rerun.log, knowledge.log) in named
    assert found.reruns == 1  # base and rerun
    # base-both, knowledge-other_model, knowledge-both, rerun-both and the like differ in two.
    assert found.confounded == 4
    assert not any(elsewhere.log in pair for pair in named)  # other rows: never paired


def test_a_grounded_run_pairs_with_the_closed_book_run_whatever_its_evidence_settings() -> None:
    # The closed-book run keeps evidence_k and evidence_rerank at their defaults: they
    # qualify evidence, and mean nothing without it.
    closed = run(evidence=None, evidence_k=5, evidence_rerank=False, knowledge=True)
    grounded = run(evidence="idx", evidence_k=10, evidence_rerank=True, knowledge=True)
    fewer = run(evidence="idx", evidence_k=3, evidence_rerank=True, knowledge=True)
    found = contrasts([closed, grounded, fewer])
    named = {(a.log, b.log): str(d) for a, b, d in found.pairs}
    assert named == {
        (closed.log, grounded.log): "evidence: none vs idx",
        (closed.log, fewer.log): "evidence: none vs idx",
        (fewer.log, grounded.log): "evidence k: 3 vs 10",
    }


def test_temperature_values_order_numerically() -> None:
    [(a, b, d)] = contrasts([run(temperature=1.0), run(temperature=0.25)]).pairs
    assert str(d) == "temperature: 0.25 vs 1.0" and a.record.stored["temperature"] == 0.25


def _comparison(d: PairedDifference) -> Comparison:
    return Comparison(
        "MedHallu", "a", "b", ("a.eval", "b.eval"), "model: a vs b", 6, 0, 0, [d], None
    )


def test_an_interval_that_disagrees_with_the_p_value_is_explained() -> None:
    # Six clusters: the interval excludes 0 while the permutation test cannot go below 2/64.
    d = PairedDifference("f1", 0.8, 0.5, 0.3, 0.05, 0.6, 0.25, clusters=6)
    assert d.disagree
    notes = comparison_table(_comparison(d)).notes
    [explained] = [n for n in notes if n.startswith("f1:")]
    assert "excludes 0 but p = 0.250" in explained and "6 clusters" in explained
    assert "smallest possible p is 0.031" in explained
    agreeing = PairedDifference("f1", 0.8, 0.5, 0.3, 0.05, 0.6, 0.01, clusters=60)
    assert not agreeing.disagree
    assert not any(n.startswith("f1:") for n in comparison_table(_comparison(agreeing)).notes)
    undefined = PairedDifference("f1", math.nan, 0.5, math.nan, math.nan, math.nan, math.nan)
    assert not undefined.disagree


def test_holm_adjusts_in_order_and_leaves_undefined_p_values_out() -> None:
    from medhalbench.report import holm

    # Sorted: 0.005 x 4, 0.01 x 3, 0.03 x 2, 0.04 x 1 (then each at least the one before).
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    adjusted = holm([0.2, math.nan, 0.6])
    assert adjusted[0] == pytest.approx(0.4) and math.isnan(adjusted[1])
    assert adjusted[2] == pytest.approx(0.6)
    assert holm([0.9, 0.8]) == [1.0, 1.0]  # never above 1


def test_outputs_written_elsewhere_are_compared_with_a_model_on_the_same_samples() -> None:
    model = run(temperature=0.3, structured=False)
    # Outputs written elsewhere: no generation setting applies (the run records none).
    acme = RunResult(
        system="medhallu", model="system/acme", metrics={},
        record=record_of({**SAME_ROWS, "knowledge": False, "not_sure": False, "temperature": None,
                          "responses": "/data/acme.jsonl", "responses_fingerprint": "def"}),
        log="acme.eval", status="success",
    )  # fmt: skip
    [(a, b, d)] = contrasts([model, acme]).pairs
    assert str(d) == "model: openai/gpt-4o vs system/acme" and {a.log, b.log} == {
        model.log,
        "acme.eval",
    }
    knowledge = run(knowledge=True)
    # With knowledge the condition differs too: two things, not compared.
    assert contrasts([knowledge, acme]).confounded == 1
