"""The agreement of people with a judge, against values computed by hand: accuracy, Cohen's
kappa (judge and people, and between people), and the figure recomputed."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.scorer import match
from sklearn.metrics import cohen_kappa_score, f1_score

from medhalbench.audit import AuditAnswer, audit_tables, audited_logs, save_answer
from medhalbench.cli import cli
from medhalbench.results import Estimate

OPPOSITE = {"factual": "not factual", "not factual": "factual"}


def answer(log: Path, key: str, verdict: str, choice: str, who: str) -> None:
    save_answer(
        log,
        AuditAnswer(benchmark="medhal", log=log.name, key=key, verdict=verdict, answer=choice,
                    annotator=who),  # type: ignore[arg-type]
    )  # fmt: skip


def test_agreement_and_recomputed_figure_match_values_by_hand(medhal_log: Path) -> None:
    [log] = audited_logs([medhal_log])
    items = log.items
    alice = ["agree", "agree", "disagree", "agree", "cannot_tell", "disagree", "agree", "agree"]
    bob = ["agree", "disagree", "disagree", "agree", "agree", "agree"]
    for item, choice in zip(items, alice, strict=True):
        answer(medhal_log, item.key, item.verdict, choice, "alice")
    answer(medhal_log, items[0].key, items[0].verdict, "disagree", "alice")  # changed her mind
    alice[0] = "disagree"
    for item, choice in zip(items, bob, strict=False):
        answer(medhal_log, item.key, item.verdict, choice, "bob")

    agreement, recomputed = audit_tables([log], resamples=200)
    rows = {row[0]: row for row in agreement.rows}
    every = alice + bob
    told = [c for c in every if c != "cannot_tell"]
    accuracy = rows["all"][5]
    assert isinstance(accuracy, Estimate)
    assert accuracy.value == pytest.approx(told.count("agree") / len(told))
    assert accuracy.low <= accuracy.value <= accuracy.high
    assert rows["all"][1:5] == [len(every), every.count("agree"), every.count("disagree"),
                                every.count("cannot_tell")]  # fmt: skip

    def person(choices: list[str]) -> list[tuple[str, str]]:
        return [
            (i.verdict, i.verdict if c == "agree" else OPPOSITE[i.verdict])
            for i, c in zip(items, choices, strict=False)
            if c != "cannot_tell"
        ]

    pairs = person(alice) + person(bob)
    kappa = rows["all"][6]
    assert isinstance(kappa, Estimate)
    assert kappa.value == pytest.approx(cohen_kappa_score(*zip(*pairs, strict=True)))
    for verdict in ("factual", "not factual"):
        mine = [c for i, c in zip(items * 2, alice + bob, strict=False) if i.verdict == verdict]
        told_here = [c for c in mine if c != "cannot_tell"]
        shown = rows[f"judge said {verdict}"][5]
        assert isinstance(shown, Estimate)
        assert shown.value == pytest.approx(told_here.count("agree") / len(told_here))

    # Between people: the items both could tell, each person's verdict.
    a, b = dict(enumerate(person(alice))), dict(enumerate(person(bob)))
    both = [
        (
            i.verdict if x == "agree" else OPPOSITE[i.verdict],
            i.verdict if y == "agree" else OPPOSITE[i.verdict],
        )
        for i, x, y in zip(items, alice, bob, strict=False)
        if "cannot_tell" not in (x, y)
    ]
    assert a and b
    people = rows["people: alice and bob"]
    assert people[1] == len(both)
    assert isinstance(people[6], Estimate)
    assert people[6].value == pytest.approx(cohen_kappa_score(*zip(*both, strict=True)))

    # The figure: F1 (not factual positive) against the labels, and against alice's verdicts.
    recomputed_rows = {row[0]: row for row in recomputed.rows}
    run_f1 = f1_score(
        [i.label == "not factual" for i in items], [i.verdict == "not factual" for i in items]
    )
    assert recomputed_rows["alice"][2] == pytest.approx(run_f1)
    hers = [(p, i.verdict) for i, (_, p) in zip(
        [i for i, c in zip(items, alice, strict=True) if c != "cannot_tell"], person(alice), strict=True)]  # fmt: skip
    theirs = f1_score([p == "not factual" for p, _ in hers], [v == "not factual" for _, v in hers])
    assert recomputed_rows["alice"][3] == pytest.approx(theirs)


def test_summary_command_prints_the_tables_and_nothing_before_answers(medhal_log: Path) -> None:
    result = CliRunner().invoke(cli, ["audit", str(medhal_log), "--summary"])
    assert result.exit_code == 0 and "No answers yet" in result.stdout
    [log] = audited_logs([medhal_log])
    for item in log.items[:4]:
        answer(medhal_log, item.key, item.verdict, "agree", "carol")
    result = CliRunner().invoke(cli, ["audit", str(medhal_log), "--summary", "--bootstrap", "0"])
    assert result.exit_code == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if x.startswith("│ all "))
    assert "1.000" in line


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
