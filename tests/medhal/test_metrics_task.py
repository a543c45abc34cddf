from __future__ import annotations

import json
from pathlib import Path

import pytest
import sacrebleu
from inspect_ai import eval
from rouge_score import rouge_scorer

from helpers import log_metrics, scripted_model
from medhalbench.judging import parse_factual_verdict
from medhalbench.medhal import StatementOutcome, explanation_scores, medhal, statement_scores


def o(
    factual: bool,
    predicted: bool | None,
    gold: str | None = None,
    explanation: str | None = None,
    source: str = "s",
) -> StatementOutcome:
    return StatementOutcome(factual, predicted, gold, explanation, source)


def test_classification_with_non_factual_positive_and_the_authors_figures() -> None:
    outcomes = [
        o(False, False, "gold one", "pred one"),  # TP (non-factual positive)
        o(False, True),  # FN
        o(False, None),  # FN, unparseable
        o(True, True),  # TN
        o(True, False),  # FP
        o(True, None),  # unparseable, wrong
    ]
    s = statement_scores(outcomes)
    assert (s["precision"], s["recall"]) == (pytest.approx(1 / 2), pytest.approx(1 / 3))
    assert s["f1"] == pytest.approx(2 * 1 / (2 * 1 + 1 + 2))
    assert s["accuracy"] == pytest.approx(2 / 6)
    # factual positive over all: TP1 (true,true) FP1 (false,true) FN2 (true,false),(true,None)
    assert s["factual_pos_precision"] == pytest.approx(1 / 2) and s[
        "factual_pos_recall"
    ] == pytest.approx(1 / 3)
    # the authors': factual positive over the 4 format-matching replies: TP1 FP1 FN1
    assert s["format_matching_precision"] == pytest.approx(1 / 2)
    assert s["format_matching_recall"] == pytest.approx(1 / 2)
    assert s["format_matching_accuracy"] == pytest.approx(2 / 4)
    assert s["format_matching_rate"] == pytest.approx(4 / 6) and s["unparseable"] == 2
    assert s["explanations"] == 1  # only the sample where gold and prediction are both non-factual


def test_explanation_scores_match_the_libraries() -> None:
    pairs = [
        ("the drug blocks calcium channels", "the drug blocks t-type calcium channels"),
        ("vitamin c deficiency", "scurvy is vitamin c deficiency"),
    ]
    s = explanation_scores(pairs)
    assert s["bleu"] == pytest.approx(
        sacrebleu.corpus_bleu([p for p, _ in pairs], [[r for _, r in pairs]]).score
    )
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2"], use_stemmer=True)
    expected = [scorer.score(r, p) for p, r in pairs]
    assert s["rouge1"] == pytest.approx(sum(e["rouge1"].fmeasure for e in expected) / 2)
    assert s["rouge2"] == pytest.approx(sum(e["rouge2"].fmeasure for e in expected) / 2)
    # known strings: identical texts score perfectly
    same = explanation_scores(
        [
            (
                "aspirin inhibits cyclooxygenase enzymes in platelets",
                "aspirin inhibits cyclooxygenase enzymes in platelets",
            )
        ]
    )
    assert (
        same["bleu"] == pytest.approx(100.0)
        and same["rouge1"] == pytest.approx(1.0)
        and same["rouge2"] == pytest.approx(1.0)
    )


@pytest.mark.parametrize(
    ("reply", "factual", "explanation"),
    [
        ("Factual: YES", True, None),
        ("Factual: NO\nExplanation: It is vitamin C.", False, "It is vitamin C."),
        ("**Factual:** no. The dose is wrong.", False, "The dose is wrong"),
        ("factual - yes", True, None),
        ("Factual: YES\nFactual: NO", None, None),
        ("The statement is true.", None, None),
        ("", None, None),
    ],
)
def test_factual_verdict_parser(reply: str, factual: bool | None, explanation: str | None) -> None:
    verdict = parse_factual_verdict(reply)
    assert (verdict.factual, verdict.explanation) == (factual, explanation)


def test_task_end_to_end_with_scripted_judge(tmp_path: Path) -> None:
    rows = [
        {
            "id": "a-f",
            "context": None,
            "statement": "Scurvy is caused by vitamin C deficiency.",
            "label": True,
            "explanation": None,
            "inner_id": "1",
            "source": "medqa",
            "synthetic": True,
        },
        {
            "id": "a-n",
            "context": None,
            "statement": "Scurvy is caused by vitamin K deficiency.",
            "label": False,
            "explanation": "Scurvy is caused by vitamin C deficiency.",
            "inner_id": "1",
            "source": "medqa",
            "synthetic": True,
        },
        {
            "id": "b-f",
            "context": "Temp 39.5 C.",
            "statement": "The patient has a fever.",
            "label": True,
            "explanation": None,
            "inner_id": "2",
            "source": "mednli",
            "synthetic": False,
        },
        {
            "id": "b-n",
            "context": "Temp 39.5 C.",
            "statement": "The patient is afebrile.",
            "label": False,
            "explanation": None,
            "inner_id": "3",
            "source": "mednli",
            "synthetic": False,
        },
    ]
    path = tmp_path / "test.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))

    def judge(prompt: str) -> str:
        if "vitamin K" in prompt:
            return "Factual: NO\nExplanation: Scurvy is caused by vitamin C deficiency."
        if "afebrile" in prompt:
            assert "Context: Temp 39.5 C." in prompt  # the context is given
            return "I am not sure."
        return "Factual: YES"

    [log] = eval(
        medhal(dataset=str(path)),
        model=scripted_model(judge),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    m = log_metrics(log)
    assert m["recall"] == pytest.approx(1 / 2) and m["precision"] == 1.0 and m["unparseable"] == 1
    assert m["bleu"] == pytest.approx(100.0) and m["explanations"] == 1
    assert m["source/medqa/f1"] == 1.0 and m["source/mednli/f1"] == 0.0
    assert m["source/mednli/unparseable"] == 1
