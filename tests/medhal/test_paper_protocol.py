"""The MedHal paper column is what the authors' `MedHalParser.evaluate` prints
(LAMA-WeST-Lab/MedHal, `src/evaluation/medhal_parser.py`), on hand-made replies in several
styles, computed through the same scorer functions a run uses."""

from __future__ import annotations

import math

import pytest

from authors_code import authors_evaluate
from medhalbench.embeddings import DEFAULT_EMBEDDER, Embedder
from medhalbench.medhal import (
    StatementOutcome,
    paper_explanation,
    paper_factual_reading,
    parse_factual_verdict,
    statement_scores,
)

ROWS = [
    # (label: factual?, source, gold explanation, reply)
    (False, "medqa", "The dose is 5 mg.", "Factual: NO\nExplanation: The dose is 5 mg, not 50 mg."),
    (False, "medmcqa", "It is vitamin C.", '{"factual": "NO", "explanation": "Vitamin C, not D."}'),
    # Theirs reads the first yes/no word: "No doubt" is a no.
    (True, "medqa", None, "No doubt about it. Factual: YES"),
    (True, "mednli", None, "Factual: YES"),
    # A pair for them with an empty explanation (it still counts).
    (False, "mednli", "The patient is 54.", "NO"),
    # No yes/no word: left out by them; unreadable for us too.
    (False, "sumpubmed", "The trial had 120 patients.", "The statement is inaccurate."),
    (True, "sumpubmed", None, "Factual: YES, matches the abstract."),
    (False, "medqa", "Wrong organ.", "Factual: YES"),
]


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder(DEFAULT_EMBEDDER)


def outcome(
    i: int, label: bool, source: str, gold: str | None, reply: str, embed: Embedder
) -> StatementOutcome:
    verdict = parse_factual_verdict(reply)
    theirs = paper_factual_reading(reply)
    pair = not label and theirs is False
    return StatementOutcome(
        factual=label, predicted=verdict.factual, gold_explanation=gold,
        explanation=verdict.explanation, source=source, item=str(i), paper_predicted=theirs,
        paper_pair=pair,
        paper_similarity=embed.similarity(gold or "", paper_explanation(reply)) if pair else None,
    )  # fmt: skip


def test_every_paper_figure_is_what_their_evaluate_prints(embedder: Embedder) -> None:
    outcomes = [outcome(i, *row, embedder) for i, row in enumerate(ROWS)]
    ours = statement_scores(outcomes, resamples=0)
    theirs = authors_evaluate(
        [{"label": r[0], "source": r[1], "explanation": r[2], "output": r[3]} for r in ROWS],
        embedder,
    )
    for name, value in theirs.items():
        assert ours[name] == pytest.approx(value, abs=1e-6), name
    # Their pairs: rows 0, 1 (JSON text after "no" included) and 4 (empty explanation).
    assert sum(o.paper_pair for o in outcomes) == 3


def test_without_a_pair_of_non_factual_explanations_their_script_prints_nothing(
    embedder: Embedder,
) -> None:
    # Their `_get_embsim_scores` on no pair: `(E_ref * E_pred).sum(axis=1)` on empty arrays.
    with pytest.raises(Exception, match="axis 1 is out of bounds"):
        authors_evaluate(
            [{"label": True, "source": "medqa", "explanation": None, "output": "Yes"}], embedder
        )
    s = statement_scores([outcome(0, True, "medqa", None, "Factual: YES", embedder)], resamples=0)
    assert math.isnan(s["format_matching_f1"]) and s["format_matching_f1_script_fails"] == 1
    assert s["accuracy"] == 1.0  # ours is unaffected


def test_a_zero_they_print_for_an_undefined_figure_is_flagged(embedder: Embedder) -> None:
    rows = [(False, "medqa", "x", "Factual: NO - x"), (False, "medqa", "y", "Factual: NO - y")]
    s = statement_scores([outcome(i, *r, embedder) for i, r in enumerate(rows)], resamples=0)
    # No factual sample and none predicted factual: precision, recall and F1 print 0.
    for name in ("precision", "recall", "f1"):
        assert s[f"format_matching_{name}"] == 0.0
        assert s[f"format_matching_{name}_zero_for_undefined"] == 1.0
