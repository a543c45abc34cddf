"""Each judge's agreement with the people, role by role, against values computed by hand:
accuracy and Cohen's kappa (judge and people, and between people) with intervals, wrong-class
readings, kappa undefined with its reason, the figure recomputed, answers saved before
audits were blind, and every table naming its run."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.scorer import match
from sklearn.metrics import cohen_kappa_score, f1_score

from medhalbench.audit import (
    AuditAnswer,
    answers_path,
    audit_tables,
    audited_logs,
    kappa_undefined,
    save_answer,
)
from medhalbench.cli import cli
from medhalbench.registry import AuditItem
from medhalbench.results import Estimate

COLUMNS = ["Role", "Question", "Answers", "Agree", "Disagree", "Cannot tell", "Wrong class",
           "Judge accuracy", "Cohen's kappa"]  # fmt: skip


def answer(log: Path, item: AuditItem, given: str, who: str) -> None:
    save_answer(
        log,
        AuditAnswer(benchmark="medhal", log=log.name, key=item.key, role=item.role,
                    answers={"verdict": given}, annotator=who),
    )  # fmt: skip


def rows_of(table: object) -> dict[str, list[object]]:
    return {f"{row[0]}|{row[1]}": row for row in table.rows}  # type: ignore[attr-defined]


def test_agreement_by_role_matches_values_by_hand(medhal_log: Path) -> None:
    [log] = audited_logs([medhal_log])
    reader = [i for i in log.items if i.role == "reader"]
    detector = [i for i in log.items if i.role == "detector"]
    flip = {"factual": "not factual", "not factual": "factual"}
    # Alice: the reader right but on two replies (one she calls unreadable), one she cannot tell.
    alice_reader = [i.verdict for i in reader]
    alice_reader[1] = flip[alice_reader[1]]
    alice_reader[2] = "unreadable"
    alice_reader[3] = "cannot tell"
    # The detector: Alice and Bob label the statements themselves.
    alice_detector = [i.label or "" for i in detector]
    bob_detector = [flip[i.verdict] if k % 3 == 0 else i.verdict for k, i in enumerate(detector)]
    for item, given in zip(reader, alice_reader, strict=True):
        answer(medhal_log, item, given, "alice")
    for item, given in zip(detector, alice_detector, strict=True):
        answer(medhal_log, item, given, "alice")
    for item, given in zip(detector, bob_detector, strict=True):
        answer(medhal_log, item, given, "bob")

    agreement, recomputed = audit_tables([log], resamples=200)
    assert [c.name for c in agreement.columns] == COLUMNS
    assert agreement.title.startswith("Judge audit: MedHal: ")  # the run, by name
    rows = rows_of(agreement)
    read = rows["reader|Which verdict does the model's reply state?"]
    told = [(i.verdict, g) for i, g in zip(reader, alice_reader, strict=True) if g != "cannot tell"]
    agree = sum(j == g for j, g in told)
    assert read[2:7] == [len(reader), agree, len(told) - agree, 1, len(told) - agree]
    accuracy = read[7]
    assert isinstance(accuracy, Estimate) and accuracy.value == pytest.approx(agree / len(told))
    assert accuracy.low <= accuracy.value <= accuracy.high
    kappa = read[8]
    assert isinstance(kappa, Estimate)
    assert kappa.value == pytest.approx(cohen_kappa_score(*zip(*told, strict=True)))

    judged = rows["detector|Is the statement factual, given its context?"]
    pairs = [
        (i.verdict, g) for i, g in zip(detector * 2, alice_detector + bob_detector, strict=True)
    ]
    assert judged[2] == len(pairs)
    assert judged[7].value == pytest.approx(sum(j == g for j, g in pairs) / len(pairs))  # type: ignore[union-attr]
    assert judged[8].value == pytest.approx(cohen_kappa_score(*zip(*pairs, strict=True)))  # type: ignore[union-attr]
    people = rows["detector: alice and bob|Is the statement factual, given its context?"]
    assert people[8].value == pytest.approx(cohen_kappa_score(alice_detector, bob_detector))  # type: ignore[union-attr]
    for verdict in ("factual", "not factual"):
        of = [(j, g) for j, g in pairs if j == verdict]
        row = rows[f"detector: judge said {verdict}|Is the statement factual, given its context?"]
        assert row[7].value == pytest.approx(sum(j == g for j, g in of) / len(of))  # type: ignore[union-attr]
        # One judge answer only in a stratum: kappa is undefined, and says why.
        assert math.isnan(row[8].value) and "the judge gave one answer only" in row[8].why  # type: ignore[union-attr]

    # The figure: F1 (not factual positive) against the labels, and against Alice's labels.
    by_person = {row[0]: row for row in recomputed.rows}
    expected_run = f1_score(
        [i.label == "not factual" for i in detector], [i.verdict == "not factual" for i in detector]
    )
    assert by_person["alice"][2] == pytest.approx(expected_run)
    theirs = f1_score(
        [g == "not factual" for g in bob_detector], [i.verdict == "not factual" for i in detector]
    )
    assert by_person["bob"][3] == pytest.approx(theirs)


def test_kappa_is_undefined_with_its_reason() -> None:
    assert kappa_undefined([], [], ("the judge", "the people")) == "no item both could tell"
    why = kappa_undefined(["a", "a"], ["a", "b"], ("the judge", "the people"))
    assert why == "the judge gave one answer only (a)"
    assert kappa_undefined(["a", "b"], ["b", "b"], ("alice", "bob")).startswith("bob gave")
    assert kappa_undefined(["a", "b"], ["b", "a"], ("x", "y")) == ""


def test_answers_saved_before_audits_were_blind_still_count(medhal_log: Path) -> None:
    [log] = audited_logs([medhal_log])
    detector = [i for i in log.items if i.role == "detector"]
    with answers_path(medhal_log).open("a") as out:
        for choice, item in zip(["agree", "disagree", "cannot_tell"], detector, strict=False):
            out.write(json.dumps({"benchmark": "medhal", "log": medhal_log.name,
                                  "key": f"{item.sample_id}/1/0", "verdict": item.verdict,
                                  "answer": choice, "annotator": "old"}) + "\n")  # fmt: skip
    [agreement, _] = audit_tables(audited_logs([medhal_log]), resamples=0)
    row = rows_of(agreement)["detector|Is the statement factual, given its context?"]
    assert row[2:6] == [3, 1, 1, 1]
    assert any("seeing the judge's reading" in note for note in agreement.notes)


def test_summary_command_prints_each_role_and_nothing_before_answers(medhal_log: Path) -> None:
    result = CliRunner().invoke(cli, ["audit", str(medhal_log), "--summary"])
    assert result.exit_code == 0 and "No answers yet" in result.stdout
    [log] = audited_logs([medhal_log])
    for item in [i for i in log.items if i.role == "reader"][:4]:
        answer(medhal_log, item, item.verdict, "carol")
    result = CliRunner().invoke(cli, ["audit", str(medhal_log), "--summary", "--bootstrap", "0"])
    assert result.exit_code == 0, result.stderr
    assert "MedHal" in result.stdout and "reader" in result.stdout
    assert "1.000" in result.stdout
    # The judge read both verdicts, Carol agreed on all: kappa is defined; the strata's is not.
    assert "one answer only" in result.stdout


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    [other] = inspect_eval(
        Task(dataset=[Sample(input="2+2?", target="4")], scorer=match()),
        model="mockllm/model", log_dir=str(tmp_path / "other"), display="none",
    )  # fmt: skip
    empty = tmp_path / "empty"
    empty.mkdir()
    for args, culprit in (
        ([other.location], "no medhalbench benchmark"),
        ([str(empty)], "no inspect logs found"),
        ([str(tmp_path / "missing.eval")], "no such log file or folder"),
    ):
        result = CliRunner().invoke(cli, ["audit", *args, "--summary"])
        lines = [x for x in result.stderr.splitlines() if x.strip()]
        assert result.exit_code == 2 and len(lines) == 1 and culprit in lines[0], result.stderr
        assert "Traceback" not in result.stderr
