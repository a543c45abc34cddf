from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from scipy import stats

from helpers import dahl_replies, dahl_run
from medhalbench import DataError
from medhalbench.dahl import dahl_agreement, question_id

ANSWERS = {
    "Q1?": "A TRUEFACT. B TRUEFACT. C FALSEFACT.",
    "Q2?": "D TRUEFACT. E FALSEFACT.",
    "Q3?": "F TRUEFACT. G TRUEFACT. H TRUEFACT. I TRUEFACT.",
    "Q4?": "J FALSEFACT. K FALSEFACT. L TRUEFACT.",
}


# Each sentence one unit; a unit is true where it says TRUEFACT.
reply = dahl_replies(ANSWERS, lambda unit: "True" if "TRUEFACT" in unit else "False")


def test_pearson_and_paired_t_match_scipy(tmp_path: Path) -> None:
    log = dahl_run(ANSWERS, reply, tmp_path)
    human = [("Q1?", 2, 4), ("Q2?", 1, 2), ("Q3?", 4, 5), ("Q4?", 0, 3)]
    path = tmp_path / "human.csv"
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "human_true", "human_units"])
        for q, t, u in human:
            writer.writerow([question_id(q), t, u])
    result = dahl_agreement(log.location, path)
    auto_p, auto_u = [2 / 3, 1 / 2, 1.0, 1 / 3], [3, 2, 4, 3]
    expected_r, expected_p = stats.pearsonr(auto_p, [t / u for _, t, u in human])
    expected_t, expected_tp = stats.ttest_rel(auto_u, [u for _, _, u in human])
    assert result.pairs == 4 and result.unmatched == 0
    assert result.pearson_r == pytest.approx(expected_r) and result.pearson_p == pytest.approx(
        expected_p
    )
    assert result.units_t == pytest.approx(expected_t) and result.units_p == pytest.approx(
        expected_tp
    )
    # Matching by question text works too, and bad rows are located.
    by_question = tmp_path / "human.jsonl"
    by_question.write_text(
        "".join(
            json.dumps({"question": q, "human_true": t, "human_units": u}) + "\n"
            for q, t, u in human
        )
    )
    assert dahl_agreement(log.location, by_question).pearson_r == pytest.approx(expected_r)
    by_question.write_text(
        json.dumps({"question": "Q1?", "human_true": 5, "human_units": 2}) + "\n"
    )
    with pytest.raises(DataError, match="line 1"):
        dahl_agreement(log.location, by_question)


def test_audit_answers_on_checker_units_feed_the_agreement(tmp_path: Path) -> None:
    from medhalbench.audit import AuditAnswer, answers_path, audited_logs, save_answer

    log = dahl_run(ANSWERS, reply, tmp_path, paper_protocol=False)
    [audited] = audited_logs([log.location])
    # Per atomic unit: a splitter item, a reader item (the checker's reply) and a checker item.
    checker = [i for i in audited.items if i.role == "checker"]
    assert len(checker) == 12
    assert {i.role for i in audited.items} == {"splitter", "reader", "checker"}
    assert len([i for i in audited.items if i.role == "splitter"]) == 12
    assert {i.verdict for i in checker} == {"true", "false"}
    unit = checker[0]
    assert [h for h, _ in unit.shown] == ["Question", "Answer", "Atomic unit"]
    assert ("TRUEFACT" in unit.shown[2][1]) == (unit.verdict == "true")
    # Blind: the checker's reply is revealed after the person answers, never shown before.
    assert [h for h, _ in unit.revealed] == ["Checker's reply"]
    assert unit.revealed[0][1] in ("True", "False")
    # A person who holds every FALSEFACT of Q1 true, and cannot tell one unit of Q3.
    q1, q3 = question_id("Q1?"), question_id("Q3?")
    for item in checker:
        given = item.verdict
        if item.sample_id == q1 and item.verdict == "false":
            given = "true"
        if item.sample_id == q3 and item.unit == 1:
            given = "cannot tell"
        save_answer(
            log.location,
            AuditAnswer(benchmark="dahl", log=Path(log.location).name, key=item.key,
                        role="checker", answers={"verdict": given}, annotator="ann"),
        )  # fmt: skip
    # An answer on a splitter item says nothing of the checker's verdicts.
    splitter = next(i for i in audited.items if i.role == "splitter")
    save_answer(
        log.location,
        AuditAnswer(benchmark="dahl", log=Path(log.location).name, key=splitter.key,
                    role="splitter", answers={"stated": "no", "atomic": "yes", "repeat": "no"},
                    annotator="ann"),
    )  # fmt: skip
    result = dahl_agreement(log.location, answers_path(log.location))
    auto_p = [2 / 3, 1 / 2, 1.0, 1 / 3]
    human_p = [3 / 3, 1 / 2, 3 / 3, 1 / 3]  # Q1: all true now; Q3: three units told, all true
    expected_r, _ = stats.pearsonr(auto_p, human_p)
    assert result.pairs == 4 and result.pearson_r == pytest.approx(expected_r)
    assert result.units_undefined and "audit" in result.units_undefined
