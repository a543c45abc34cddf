"""How far to trust a judge: its accuracy against the people and Cohen's kappa, each with a
95% interval, per verdict and per benchmark; agreement between people; and the run's figure
recomputed on the audited items with the people's verdicts in the judge's place."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from medhalbench.audit._answers import AuditAnswer, read_answers
from medhalbench.audit._items import AuditedLog
from medhalbench.registry import AuditItem, JudgeAudit
from medhalbench.results import Cell, Column, Estimate, ResultTable
from medhalbench.statistics import estimate, kappa_figure, share_figure

KAPPA_UNDEFINED = "one verdict only (chance agreement is 1), or no item"


@dataclass(frozen=True)
class Audited:
    """One person's answer on one judged item of a log."""

    log: str
    item: AuditItem
    answer: AuditAnswer

    @property
    def cluster(self) -> str:
        """The item across people (the bootstrap resamples items, not answers)."""
        return f"{self.log}:{self.item.key}"

    def person_verdict(self, audit: JudgeAudit) -> str | None:
        """The verdict the person holds (see `AuditAnswer.held`)."""
        return self.answer.held(audit.opposite)


def audited(logs: Sequence[AuditedLog]) -> list[Audited]:
    """Every answer on the logs' items (answers on items a log no longer has are left out)."""
    found = []
    for log in logs:
        items = {item.key: item for item in log.items}
        for answer in read_answers(log.path):
            if answer.key in items:
                found.append(Audited(log.name, items[answer.key], answer))
    return found


def _estimate(figure_name: str, values: dict[str, float]) -> Estimate:
    return Estimate(
        values[figure_name],
        values.get(f"{figure_name}_ci_low", float("nan")),
        values.get(f"{figure_name}_ci_high", float("nan")),
    )


def _agreement_row(
    label: str, answers: Sequence[Audited], audit: JudgeAudit, *, kappa: bool, resamples: int
) -> list[Cell]:
    clusters = [a.cluster for a in answers]
    choices = [a.answer.answer for a in answers]
    figures = [
        share_figure(
            "accuracy",
            clusters,
            [c == "agree" for c in choices],
            [c != "cannot_tell" for c in choices],
        )
    ]
    paired = [(a, v) for a in answers if (v := a.person_verdict(audit)) is not None]
    values = estimate(figures, resamples=resamples)
    if kappa and paired:
        kappa_values = estimate(
            [kappa_figure("kappa", [a.cluster for a, _ in paired], [a.item.verdict for a, _ in paired],
                          [v for _, v in paired])],
            resamples=resamples,
        )  # fmt: skip
        values.update(kappa_values)
    return [
        label, float(len(answers)), float(choices.count("agree")),
        float(choices.count("disagree")), float(choices.count("cannot_tell")),
        _estimate("accuracy", values),
        _estimate("kappa", values) if "kappa" in values else None,
    ]  # fmt: skip


def agreement_table(
    title: str, audit: JudgeAudit, answers: Sequence[Audited], *, resamples: int = 1000
) -> ResultTable:
    """The judge against the people, all verdicts and per verdict, and people against each
    other where several answered the same items."""
    table = ResultTable(
        f"Judge audit, {title}: {audit.judge}",
        f"audit_{title.lower()}",
        [
            Column("Verdicts"), Column("Answers", digits=0), Column("Agree", digits=0),
            Column("Disagree", digits=0), Column("Cannot tell", digits=0),
            Column("Judge accuracy", undefined="no answer but cannot tell", interval=True),
            Column("Cohen's kappa", undefined=KAPPA_UNDEFINED, interval=True),
        ],
    )  # fmt: skip
    table.add(_agreement_row("all", answers, audit, kappa=True, resamples=resamples))
    for verdict in sorted({a.item.verdict for a in answers}):
        of_verdict = [a for a in answers if a.item.verdict == verdict]
        table.add(
            _agreement_row(
                f"judge said {verdict}", of_verdict, audit, kappa=False, resamples=resamples
            )
        )
    people = sorted({a.answer.annotator for a in answers})
    for first, second in itertools.combinations(people, 2):
        theirs = {(a.cluster, a.answer.annotator): a.person_verdict(audit) for a in answers}
        shared = [
            (cluster, theirs[(cluster, first)], theirs[(cluster, second)])
            for cluster in sorted({a.cluster for a in answers})
            if theirs.get((cluster, first)) and theirs.get((cluster, second))
        ]
        values = estimate(
            [kappa_figure("kappa", [c for c, _, _ in shared], [str(x) for _, x, _ in shared],
                          [str(y) for _, _, y in shared])],
            resamples=resamples,
        ) if shared else {"kappa": float("nan")}  # fmt: skip
        table.add([f"people: {first} and {second}", float(len(shared)), None, None, None, None,
                   _estimate("kappa", values)])  # fmt: skip
    table.notes.append(
        "Items are drawn stratified by the judge's verdict: the accuracy per verdict estimates "
        "that verdict's; the accuracy over all weighs the verdicts as drawn, not as the run "
        "gave them. Intervals: 95% bootstrap over items."
    )
    return table


def recomputed_table(title: str, audit: JudgeAudit, answers: Sequence[Audited]) -> ResultTable:
    """The run's figure on each person's audited items: as the run computed it, and with the
    person's verdicts in the judge's place."""
    table = ResultTable(
        f"{title}: {audit.figure}, as the run computed it and with the people's verdicts",
        f"audit_{title.lower()}_figure",
        [
            Column("Person"), Column("Items", digits=0),
            Column("As the run", undefined="no positive item, or none predicted"),
            Column("With the people's verdicts", undefined="no positive item, or none predicted"),
        ],
    )  # fmt: skip
    for person in sorted({a.answer.annotator for a in answers}):
        theirs = [a for a in answers if a.answer.annotator == person]
        run, people = audit.recompute(
            [a.item for a in theirs], [a.person_verdict(audit) for a in theirs]
        )
        table.add([person, float(len(theirs)), run, people])
    return table


def audit_tables(logs: Sequence[AuditedLog], *, resamples: int = 1000) -> list[ResultTable]:
    """The audit's tables, benchmark by benchmark (none where nobody has answered)."""
    tables = []
    for name in dict.fromkeys(log.entry.name for log in logs):
        of_entry = [log for log in logs if log.entry.name == name]
        entry = of_entry[0].entry
        answers = audited(of_entry)
        if answers and entry.audit is not None:
            tables.append(agreement_table(entry.title, entry.audit, answers, resamples=resamples))
            tables.append(recomputed_table(entry.title, entry.audit, answers))
    return tables
