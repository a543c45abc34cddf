"""How far to trust each judge of a run: for every role (the reader of verdicts, the
extractor, the splitter, the checker, the detector) and each question put to the people,
the judge's accuracy against the people and Cohen's kappa, each with a 95% interval over
items; wrong-class readings counted apart; agreement between people; and the run's figure
recomputed on the audited items with the people's answers in the judge's place."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from medhalbench.audit._answers import AuditAnswer, read_answers
from medhalbench.audit._items import AuditedLog
from medhalbench.registry import CANNOT_TELL, UNREADABLE, AuditItem
from medhalbench.results import Cell, Column, Estimate, ResultTable
from medhalbench.statistics import DEFAULT_RESAMPLES, estimate, kappa_figure, share_figure

ACCURACY_UNDEFINED = "no answer but cannot tell"
NO_CLASS = (UNREADABLE, "unknown or unreadable")
"""Judged answers that put a reply in no class: a reading of none is never a wrong class."""


@dataclass(frozen=True)
class Audited:
    """One person's answers on one judged item of a log."""

    log: AuditedLog
    item: AuditItem
    answer: AuditAnswer

    @property
    def cluster(self) -> str:
        """The item across people (the bootstrap resamples items, not answers)."""
        return f"{self.log.name}:{self.item.key}"


@dataclass(frozen=True)
class Pair:
    """The judge's and a person's answer to one question of one item."""

    audited: Audited
    judged: str
    given: str

    @property
    def told(self) -> bool:
        """Whether the person could tell."""
        return self.given != CANNOT_TELL

    @property
    def agree(self) -> bool:
        return self.told and self.given == self.judged

    @property
    def wrong_class(self) -> bool:
        """The judge gave a class the person does not hold (a reading of none is a miss,
        never a wrong class)."""
        return self.told and self.given != self.judged and self.judged not in NO_CLASS


def audited(logs: Sequence[AuditedLog]) -> list[Audited]:
    """Every answer on the logs' items (answers on items a log no longer has are left out;
    answers saved before audits had roles are given their benchmark's legacy role)."""
    found = []
    for log in logs:
        items = {item.key: item for item in log.items}
        for answer in read_answers(log.path):
            key = answer.item_key(log.audit.legacy_answers_role)
            if key in items:
                found.append(Audited(log, items[key], answer))
    return found


def pairs(answers: Sequence[Audited], question: str) -> list[Pair]:
    """The (judge, person) answers to one question, where the person answered it."""
    found = []
    for audited_item in answers:
        asked = audited_item.item.question(question)
        given = audited_item.answer.given(audited_item.item, question)
        if asked is not None and given is not None:
            found.append(Pair(audited_item, asked.judged, given))
    return found


def kappa_undefined(first: Sequence[str], second: Sequence[str], names: tuple[str, str]) -> str:
    """Why Cohen's kappa of two raters is undefined ("" when it is defined): no item, or a
    rater who gave one answer only (chance agreement then explains everything)."""
    if not first:
        return "no item both could tell"
    for rater, answers in zip(names, (first, second), strict=True):
        if len(set(answers)) < 2:
            return f"{rater} gave one answer only ({answers[0]})"
    return ""


def _kappa(
    clusters: Sequence[str], first: Sequence[str], second: Sequence[str], names: tuple[str, str],
    resamples: int,
) -> Estimate:  # fmt: skip
    why = kappa_undefined(first, second, names)
    if why:
        return Estimate(math.nan, why=why)
    values = estimate([kappa_figure("kappa", clusters, first, second)], resamples=resamples)
    return Estimate(
        values["kappa"],
        values.get("kappa_ci_low", math.nan),
        values.get("kappa_ci_high", math.nan),
        why="" if math.isfinite(values["kappa"]) else "chance agreement is 1",
    )


def _row(label: str, question: str, found: Sequence[Pair], resamples: int) -> list[Cell]:
    clusters = [p.audited.cluster for p in found]
    accuracy = estimate(
        [share_figure("accuracy", clusters, [p.agree for p in found], [p.told for p in found])],
        resamples=resamples,
    )
    told = [p for p in found if p.told]
    kappa = _kappa(
        [p.audited.cluster for p in told], [p.judged for p in told], [p.given for p in told],
        ("the judge", "the people"), resamples,
    )  # fmt: skip
    return [
        label, question, float(len(found)), float(sum(p.agree for p in found)),
        float(sum(p.told and not p.agree for p in found)), float(sum(not p.told for p in found)),
        float(sum(p.wrong_class for p in found)),
        Estimate(accuracy["accuracy"], accuracy.get("accuracy_ci_low", math.nan),
                 accuracy.get("accuracy_ci_high", math.nan), why=ACCURACY_UNDEFINED),
        kappa,
    ]  # fmt: skip


def _questions(answers: Sequence[Audited]) -> list[tuple[str, str]]:
    """Each (question key, question text) asked on these items, in order."""
    seen: dict[str, str] = {}
    for audited_item in answers:
        for question in audited_item.item.questions:
            seen.setdefault(question.key, question.text)
    return list(seen.items())


def agreement_table(
    log: AuditedLog, answers: Sequence[Audited], *, resamples: int = DEFAULT_RESAMPLES
) -> ResultTable:
    """Each judge of a run against the people, role by role and question by question (and
    by the judge's answer, as the draw was stratified by it), and people against each other
    where several answered the same items."""
    table = ResultTable(
        f"Judge audit: {log.run}",
        f"audit_{log.entry.name}_{log.name.rsplit('.', 1)[0]}",
        [
            Column("Role"), Column("Question"), Column("Answers", digits=0),
            Column("Agree", digits=0), Column("Disagree", digits=0),
            Column("Cannot tell", digits=0), Column("Wrong class", digits=0),
            Column("Judge accuracy", undefined=ACCURACY_UNDEFINED, interval=True),
            Column("Cohen's kappa", interval=True),
        ],
    )  # fmt: skip
    order = list(log.audit.roles)
    for role in order:
        of_role = [a for a in answers if a.item.role == role]
        for key, text in _questions(of_role):
            found = pairs(of_role, key)
            if not found:
                continue
            table.add(_row(role, text, found, resamples))
            judged = sorted({p.judged for p in found})
            for verdict in judged if len(judged) > 1 else []:
                of_verdict = [p for p in found if p.judged == verdict]
                table.add(_row(f"{role}: judge said {verdict}", text, of_verdict, resamples))
            table.rows.extend(_between_people(role, text, found, resamples))
            table.published.extend([None] * (len(table.rows) - len(table.published)))
            table.row_undefined.extend([""] * (len(table.rows) - len(table.row_undefined)))
    roles = sorted({a.item.role for a in answers}, key=order.index)
    table.notes.append(
        "Roles: " + "; ".join(f"{role}: {log.audit.roles.get(role, role)}" for role in roles) + "."
    )
    unblind = sum(not a.answer.blind or a.answer.legacy for a in answers)
    table.notes.append(
        "The people answered blind: their own answer first, the judge's reading and the "
        "dataset's label shown only after."
        + (f" {unblind} answer(s) were given seeing the judge's reading." if unblind else "")
    )
    table.notes.append(
        "Wrong class: the judge gave a class the person does not hold (a reading of none is "
        "a miss, not a wrong class). Items are drawn stratified by role and by the judge's "
        "answer: the rows by answer estimate each answer's accuracy; the row over all weighs "
        "the answers as drawn, not as the run gave them. Intervals: 95% bootstrap over items."
    )
    return table


def _between_people(
    role: str, text: str, found: Sequence[Pair], resamples: int
) -> list[list[Cell]]:
    rows: list[list[Cell]] = []
    people = sorted({p.audited.answer.annotator for p in found})
    for first, second in itertools.combinations(people, 2):
        theirs = {(p.audited.cluster, p.audited.answer.annotator): p.given for p in found if p.told}
        shared = [
            (cluster, theirs[(cluster, first)], theirs[(cluster, second)])
            for cluster in sorted({p.audited.cluster for p in found})
            if (cluster, first) in theirs and (cluster, second) in theirs
        ]
        kappa = _kappa(
            [c for c, _, _ in shared], [x for _, x, _ in shared], [y for _, _, y in shared],
            (first, second), resamples,
        )  # fmt: skip
        agree = float(sum(x == y for _, x, y in shared))
        rows.append([f"{role}: {first} and {second}", text, float(len(shared)), agree,
                     float(len(shared)) - agree, None, None, None, kappa])  # fmt: skip
    return rows


def recomputed_table(log: AuditedLog, answers: Sequence[Audited]) -> ResultTable | None:
    """The run's figure on each person's audited items of the figure's role: as the run
    computed it, and with the person's answers in the judge's place (None: none)."""
    audit = log.audit
    question = None
    of_role = [a for a in answers if a.item.role == audit.figure.role]
    if not of_role:
        return None
    question = of_role[0].item.questions[0].key
    table = ResultTable(
        f"{audit.figure.name}, as the run computed it and with the people's answers: {log.run}",
        f"audit_{log.entry.name}_{log.name.rsplit('.', 1)[0]}_figure",
        [
            Column("Person"), Column("Items", digits=0),
            Column("As the run", undefined="no positive item, or none predicted"),
            Column("With the people's answers", undefined="no positive item, or none predicted"),
        ],
    )  # fmt: skip
    for person in sorted({a.answer.annotator for a in of_role}):
        theirs = [a for a in of_role if a.answer.annotator == person]
        given = [a.answer.given(a.item, question) for a in theirs]
        held = [g if g not in (None, CANNOT_TELL, UNREADABLE) else None for g in given]
        run, people = audit.figure.recompute([a.item for a in theirs], held)
        table.add([person, float(len(theirs)), run, people])
    return table


def audit_tables(
    logs: Sequence[AuditedLog], *, resamples: int = DEFAULT_RESAMPLES
) -> list[ResultTable]:
    """The audit's tables, run by run (none where nobody has answered)."""
    tables = []
    for log in logs:
        answers = audited([log])
        if not answers:
            continue
        tables.append(agreement_table(log, answers, resamples=resamples))
        recomputed = recomputed_table(log, answers)
        if recomputed is not None:
            tables.append(recomputed)
    return tables
