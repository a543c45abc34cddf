"""DAHL arithmetic, exclusions and per-category means with a scripted model."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest
from inspect_ai import eval

from authors_code import authors_dahl_score
from helpers import dahl_run, log_metrics, scripted_model
from medhalbench.dahl import dahl, dahl_scores, judge_response, normalise_units

# question -> (category, answer); each answer sentence names the verdict its unit will get.
QUESTIONS = {
    "Q1 heart?": ("cardiology", "Alpha TRUEFACT one. Beta TRUEFACT two. Gamma FALSEFACT three."),
    "Q2 heart?": ("cardiology", "A TRUEFACT. B TRUEFACT. C TRUEFACT. D TRUEFACT."),
    "Q3 tumour?": ("oncology", "E TRUEFACT. F FALSEFACT."),
    "Q4 tumour?": ("oncology", "I don't know the answer to this question."),
    "Q5 gene?": ("genetics", "G TRUEFACT. H MAYBEFACT."),
    "Q6 gene?": ("genetics", "EMPTYSPLIT here."),
}


def reply(prompt: str) -> str:
    if "one fact" in prompt:  # the splitter: one unit per sentence, with blank lines between
        text = prompt.split("TEXT:")[-1].split("SENTENCES:")[0]
        if "EMPTYSPLIT" in text:
            return "\n\n"
        return "\n\n".join(s.strip() + "." for s in text.strip().split(".") if s.strip())
    if "true or false" in prompt.lower():  # the checker
        if "numbered statement" in prompt:  # batch mode: one verdict short, a mismatch
            return "True\nTrue"
        statement = prompt.split("Statement:")[-1]
        return (
            "True" if "TRUEFACT" in statement else "False" if "FALSEFACT" in statement else "Maybe"
        )
    for question, (_, answer) in QUESTIONS.items():  # the model under test
        if question in prompt:
            return answer
    raise AssertionError(f"unexpected prompt: {prompt[:200]}")


@pytest.fixture
def questions_csv(tmp_path: Path) -> str:
    path = tmp_path / "questions.csv"
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["question", "category"])
        for question, (category, _) in QUESTIONS.items():
            writer.writerow([question, category])
    return str(path)


def run(task, tmp_path: Path, calls: list[str] | None = None, **kwargs):
    model = scripted_model(reply, calls)
    [log] = eval(
        task, model=model, model_roles={"splitter": model, "checker": model},
        log_dir=str(tmp_path / "logs"), display="none", **kwargs,
    )  # fmt: skip
    assert log.status == "success", log.error
    return log


def test_score_exclusions_and_categories(questions_csv: str, tmp_path: Path) -> None:
    calls: list[str] = []
    log = run(dahl(dataset=questions_csv, cache=False, paper_protocol=False), tmp_path, calls)
    m = log_metrics(log)
    assert m["dahl_score"] == pytest.approx((2 / 3 + 1 + 1 / 2) / 3)
    assert "paper_dahl_score" not in m  # the authors' pipeline was not run
    assert m["category/cardiology"] == pytest.approx((2 / 3 + 1) / 2)
    assert m["category/oncology"] == pytest.approx(0.5)
    assert math.isnan(m["category/genetics"])  # its responses were all excluded: undefined
    assert m["dahl_score_ci_low"] <= m["dahl_score"] <= m["dahl_score_ci_high"]
    # Cardiology is 2 of 6 questions: over 5% of resamples draw none of them scored.
    assert math.isnan(m["category/cardiology_ci_low"])
    assert (m["responses"], m["scored"], m["excluded"]) == (6, 3, 3)
    assert (
        m["excluded_declined"] == 1
        and m["excluded_unknown_unit"] == 1
        and m["excluded_no_units"] == 1
    )
    assert m["excluded_mismatch"] == 0
    assert m["mean_units"] == pytest.approx((3 + 4 + 2) / 3)
    by_question = {s.metadata["question"]: s.scores["dahl_factuality"] for s in log.samples}
    lengths = [by_question[q].metadata["length"] for q in ("Q1 heart?", "Q2 heart?", "Q3 tumour?")]
    assert m["mean_length"] == pytest.approx(sum(lengths) / 3)
    assert by_question["Q4 tumour?"].reason == "excluded: declined"
    assert by_question["Q1 heart?"].metadata["verdicts"] == ["true", "true", "false"]
    # Calls: 6 answers, 5 splits (the declined answer is not split), 3+4+2+2 unit checks.
    assert len(calls) == 6 + 5 + 11


def test_cached_rerun_makes_no_calls(questions_csv: str, tmp_path: Path) -> None:
    first: list[str] = []
    a = run(dahl(dataset=questions_csv), tmp_path, first, cache=True)
    again: list[str] = []
    b = run(dahl(dataset=questions_csv), tmp_path, again, cache=True)
    assert again == []
    assert log_metrics(a) == pytest.approx(log_metrics(b), nan_ok=True)


def test_batch_mode_counts_a_mismatch(questions_csv: str, tmp_path: Path) -> None:
    log = run(dahl(dataset=questions_csv, check_mode="batch", categories="oncology"), tmp_path)
    m = log_metrics(log)
    # Q3 has 2 units and gets 2 verdicts (both true): scored 1.0; Q4 declined.
    assert m["scored"] == 1 and m["dahl_score"] == 1.0 and m["excluded_declined"] == 1
    log = run(dahl(dataset=questions_csv, check_mode="batch", categories="cardiology"), tmp_path)
    m = log_metrics(log)
    assert m["excluded_mismatch"] == 2 and m["scored"] == 0  # 3 and 4 units, 2 verdicts each


def test_responses_file_is_scored_without_generating(questions_csv: str, tmp_path: Path) -> None:
    responses = tmp_path / "responses.jsonl"
    responses.write_text(
        '{"question": "Q3 tumour?", "response": "X TRUEFACT. Y TRUEFACT. Z FALSEFACT."}\n'
    )
    calls: list[str] = []
    log = run(
        dahl(dataset=questions_csv, responses=str(responses), cache=False, paper_protocol=False),
        tmp_path,
        calls,
    )
    m = log_metrics(log)
    assert m["dahl_score"] == pytest.approx(2 / 3) and m["category/oncology"] == pytest.approx(
        2 / 3
    )
    assert not any("Q3 tumour?" == c for c in calls)  # no answering call
    assert len(calls) == 1 + 3


def test_judge_and_parse_units_directly() -> None:
    assert normalise_units("SENTENCES:\n1. A is B.\n\n- C is D.\n   \n").units == [
        "A is B.",
        "C is D.",
    ]
    assert judge_response([], [], length=0, category="x").status == "no_units"
    assert judge_response(["a", "b"], ["true"], length=1, category="x").status == "mismatch"
    assert judge_response(["a"], ["unknown"], length=1, category="x").status == "unknown_unit"
    scored = judge_response(
        ["a", "b", "c", "d"], ["true", "false", "true", "true"], length=10, category="x"
    )
    assert scored.precision == 0.75
    empty = dahl_scores([])
    assert math.isnan(empty["dahl_score"]) and math.isnan(empty["mean_units"])


def test_units_are_normalised_and_the_changes_counted() -> None:
    split = normalise_units(
        "**Baseline Assessment**: Blood pressure is measured at rest.\n"
        "These feelings can lead to:\n"
        "- Anxiety raises heart rate. Anxiety disturbs sleep.\n"
        "### Treatment\n"
    )
    assert split.units == [
        "Baseline Assessment: Blood pressure is measured at rest.",
        "Anxiety raises heart rate.",
        "Anxiety disturbs sleep.",
        "Treatment",
    ]
    assert (split.markdown_stripped, split.sentences_split, split.list_intros_dropped) == (2, 1, 1)
    raw = normalise_units("**A** is B.\nThese lead to:\n- C is D. E is F.", normalise=False)
    assert raw.units == ["**A** is B.", "These lead to:", "C is D. E is F."]


def test_epochs_answer_each_question_k_times(questions_csv: str, tmp_path: Path) -> None:
    log = run(dahl(dataset=questions_csv, categories="cardiology", epochs=3, cache=False), tmp_path)
    m = log_metrics(log)
    # 2 questions x 3 answers, each answer judged on its own.
    assert (m["responses"], m["scored"]) == (6, 6)
    assert m["dahl_score"] == pytest.approx((2 / 3 + 1) / 2)
    assert len(log.samples) == 6
    [reduction] = log.reductions
    assert all(len(s.metadata["epochs"]) == 3 for s in reduction.samples)


PAPER_QUESTIONS = {
    # Read alike by both: three units, two true.
    "P1 heart?": "Alpha TRUEFACT one. Beta TRUEFACT two. Gamma FALSEFACT three.",
    # "Not true." is false to us and true to their substring test.
    "P2 heart?": "Delta NOTTRUEFACT. Epsilon TRUEFACT.",
    # A blank line in the splitter's reply is a unit for them: its check reads neither, and
    # the response is left out of their score; we skip blank lines.
    "P3 heart?": "Zeta TRUEFACT. Eta TRUEFACT. BLANKLINE",
    # A declining answer: we leave it out; they split and check it (the checker says
    # "true" here: "True, the model does not know").
    "P4 heart?": "I don't know the answer to this question.",
    # The answer echoes the question: both remove it.
    "P5 heart?": "P5 heart? Theta TRUEFACT.",
}


def paper_reply(prompt: str) -> str:
    if "one fact" in prompt:
        text = prompt.split("TEXT:")[-1].split("SENTENCES:")[0].strip()
        if text.startswith("I don't know"):
            return "The model does not know the answer."
        lines = [s.strip() + "." for s in text.split(".") if s.strip() and "BLANKLINE" not in s]
        return "\n".join(lines) + ("\n" if "BLANKLINE" in text else "")
    if "true or false" in prompt.lower():
        statement = prompt.split("Statement:")[-1]
        if "NOTTRUEFACT" in statement:
            return "Not true."
        if "does not know" in statement:
            return "True, the model does not know."
        return "True" if "TRUEFACT" in statement else "False" if "FALSEFACT" in statement else ""
    return next(answer for question, answer in PAPER_QUESTIONS.items() if question in prompt)


def test_the_paper_column_is_the_authors_pipeline_on_the_same_answers(tmp_path: Path) -> None:
    log = dahl_run(PAPER_QUESTIONS, paper_reply, tmp_path, category="cardiology", cache=False)
    m = log_metrics(log)
    by_question = {
        s.metadata["question"]: s.scores["dahl_factuality"].metadata for s in log.samples
    }
    atomic = [by_question[q]["paper_units"] for q in PAPER_QUESTIONS]
    replies = [by_question[q]["paper_checker_replies"] for q in PAPER_QUESTIONS]
    theirs = authors_dahl_score(["\n".join(units) if units else None for units in atomic], replies)
    assert m["paper_dahl_score"] == pytest.approx(theirs)
    # By hand: P1 2/3, P2 2/2, P4 1/1 are good; P3 has a blank unit; P5 is 1/1.
    assert theirs == pytest.approx((2 / 3 + 1 + 1 + 1) / 4) and m["paper_good"] == 4
    assert by_question["P3 heart?"]["paper_units"][-1] == ""  # the blank line is a unit
    # Ours on the same replies: P2 is 1/2 ("Not true." is false), P4 declined, P3 2/2.
    assert m["dahl_score"] == pytest.approx((2 / 3 + 1 / 2 + 1 + 1) / 4)
