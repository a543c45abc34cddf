from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import sacrebleu
from inspect_ai import eval
from rouge_score import rouge_scorer

from helpers import log_metrics, scripted_model
from medhalbench.medhal import StatementOutcome, medhal, parse_factual_verdict, statement_scores


def o(
    factual: bool,
    predicted: bool | None,
    gold: str | None = None,
    explanation: str | None = None,
    source: str = "s",
    item: str = "",
) -> StatementOutcome:
    # A reply our parser reads is read the same way by the authors' first yes/no word.
    return StatementOutcome(
        factual, predicted, gold, explanation, source, item, predicted,
        paper_pair=not factual and predicted is False,
    )  # fmt: skip


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


def test_explanation_figures_match_the_libraries() -> None:
    pairs = [
        ("the drug blocks calcium channels", "the drug blocks t-type calcium channels"),
        ("vitamin c deficiency", "scurvy is vitamin c deficiency"),
    ]
    outcomes = [o(False, False, r, p, item=str(i)) for i, (p, r) in enumerate(pairs)]
    outcomes.append(o(False, True, "unused gold", None, item="x"))  # not compared
    s = statement_scores(outcomes, resamples=0)
    assert s["explanations"] == 2
    # Corpus BLEU from summed per-pair statistics equals sacrebleu's, on the paper's 0-1 scale.
    assert s["bleu"] == pytest.approx(
        sacrebleu.corpus_bleu([p for p, _ in pairs], [[r for _, r in pairs]]).score / 100
    )
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2"], use_stemmer=True)
    expected = [scorer.score(r, p) for p, r in pairs]
    assert s["rouge1"] == pytest.approx(sum(e["rouge1"].fmeasure for e in expected) / 2)
    assert s["rouge2"] == pytest.approx(sum(e["rouge2"].fmeasure for e in expected) / 2)
    text = "aspirin inhibits cyclooxygenase enzymes in platelets"
    same = statement_scores([o(False, False, text, text)], resamples=0)
    assert same["bleu"] == pytest.approx(1.0) and same["rouge1"] == pytest.approx(1.0)


def test_undefined_figures_are_nan_and_every_figure_is_given_per_source() -> None:
    s = statement_scores(
        [o(True, True, source="medqa"), o(True, None, source="sumpubmed")], resamples=0
    )
    # No non-factual sample and none predicted: P/R/F1 undefined; no explanation pair: BLEU too.
    for name in ("precision", "recall", "f1", "bleu", "rouge1"):
        assert math.isnan(s[name]), name
    assert s["accuracy"] == pytest.approx(1 / 2)
    for name in ("f1", "factual_pos_f1", "bleu"):
        assert f"source/medqa/{name}" in s and f"source/sumpubmed/{name}" in s
    # The authors' figures are theirs per task, not per source; with no pair of non-factual
    # explanations their script stops with an error and prints none.
    assert "source/medqa/format_matching_f1" not in s
    assert math.isnan(s["format_matching_f1"]) and s["format_matching_f1_script_fails"] == 1


def test_the_authors_format_matching_uses_their_reading() -> None:
    # Our parser cannot read "Yes or no, hard to say"; the authors' takes its first word.
    outcomes = [
        StatementOutcome(True, None, None, None, "s", "1", paper_predicted=True),
        StatementOutcome(
            False, False, None, None, "s", "2", paper_predicted=False, paper_pair=True
        ),
        StatementOutcome(False, None, None, None, "s", "3", paper_predicted=None),
    ]
    s = statement_scores(outcomes, resamples=0)
    assert s["format_matching_rate"] == pytest.approx(2 / 3)
    assert s["format_matching_precision"] == 1.0 and s["format_matching_accuracy"] == 1.0
    assert s["unparseable"] == 2


@pytest.mark.parametrize(
    ("reply", "factual", "explanation"),
    [
        ("Factual: YES", True, None),
        ("Factual: NO\nExplanation: It is vitamin C.", False, "It is vitamin C."),
        ("**Factual:** no. The dose is wrong.", False, "The dose is wrong."),
        ("factual - yes", True, None),
        ("Factual: YES\nFactual: NO", None, None),
        ("The statement is true.", True, None),
        ("The statement might be about vitamins.", None, None),
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
    assert m["bleu"] == pytest.approx(1.0) and m["explanations"] == 1
    assert m["explanation_similarity"] == pytest.approx(1.0, abs=1e-5)  # identical texts
    assert m["format_matching_rate"] == pytest.approx(3 / 4)  # "I am not sure." has no yes/no
    assert m["source/medqa/f1"] == 1.0 and m["source/mednli/f1"] == 0.0
    assert m["source/mednli/unparseable"] == 1


@pytest.mark.parametrize(("temperature", "do_sample"), [(0.0, False), (0.5, True)])
def test_the_task_decodes_greedily_at_temperature_0_on_a_sampling_provider(
    temperature: float, do_sample: bool, tmp_path: Path
) -> None:
    # inspect's hf provider samples unless its `do_sample` is false, whatever the temperature.
    from medhalbench.examples import illustrative

    model = scripted_model(lambda prompt: "Factual: YES")
    model.api.do_sample = True  # type: ignore[attr-defined]
    task = medhal(
        dataset=illustrative("medhal_illustrative.jsonl"), limit=2,
        temperature=temperature, embedder="none",
    )  # fmt: skip
    [log] = eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    assert model.api.do_sample is do_sample  # type: ignore[attr-defined]
