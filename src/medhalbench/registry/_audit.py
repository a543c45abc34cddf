"""What a benchmark offers a person auditing its judges: the judged items of a sample, each
of one of the benchmark's roles (the reader of verdicts, the extractor, and its own judges),
the questions put to the person on it, and the run's figure recomputed with the person's
answers.

Audits are blind: what an item `shows` is what the person judges from; what it `reveals`
(the judge's reading, the dataset's label, ids and file names) appears only after the
person has answered."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from inspect_ai.log import EvalSample

from medhalbench.results import RunRecord
from medhalbench.statistics import binary_f1

AuditRole = str
"""Who made the judgement audited: each benchmark declares its own roles (`JudgeAudit.roles`,
a `Literal` of its own); every benchmark with a verdict reader has `AUDIT_READER` and
`AUDIT_EXTRACTOR`."""
AUDIT_READER = "reader"
"""The strict reader of a model's reply, as an audited role."""
AUDIT_EXTRACTOR = "extractor"
"""The extractor model, where it read what the reader could not, as an audited role."""

CANNOT_TELL = "cannot tell"
"""The answer of a person who cannot tell, offered with every question."""
UNREADABLE = "unreadable"
"""A reader's or a person's answer that a reply states no verdict."""


@dataclass(frozen=True)
class AuditQuestion:
    """One question a person answers on an item, blind.

    Attributes:
        key: Its name in answer files (`verdict`, `stated`, `atomic`, `repeat`).
        text: The question as the person reads it.
        choices: The answers offered (`cannot tell` is always offered besides).
        judged: The judge's answer to it, shown only after the person answered
            (`unreadable` where the reader read no verdict).
    """

    key: str
    text: str
    choices: tuple[str, ...]
    judged: str


@dataclass(frozen=True)
class AuditItem:
    """One judgement a person can check.

    Attributes:
        sample_id: The sample's id (shown only after answering: ids can give labels away).
        epoch: The sample's epoch.
        unit: The judged part's position in the sample (a DAHL unit, from 1); 0 for a
            whole sample.
        role: Whose judgement it is.
        questions: What the person is asked, with the judge's answers.
        shown: What the person sees before answering, as (heading, text) pairs.
        revealed: What the person sees after answering (how the judge read it, the
            dataset's label), as (heading, text) pairs.
        focus: The heading of the shown part the questions are about (highlighted).
        label: The dataset's label, where the figure needs it (MedHallu, MedHal).
    """

    sample_id: str
    epoch: int
    unit: int
    role: AuditRole
    questions: tuple[AuditQuestion, ...]
    shown: tuple[tuple[str, str], ...]
    revealed: tuple[tuple[str, str], ...] = ()
    focus: str = ""
    label: str | None = None

    @classmethod
    def of_verdict(
        cls,
        sample: EvalSample,
        unit: int,
        role: AuditRole,
        question: tuple[str, tuple[str, ...], str],
        shown: tuple[tuple[str, str], ...],
        revealed: tuple[tuple[str, str], ...] = (),
        focus: str = "",
        label: str | None = None,
    ) -> AuditItem:
        """An item of a sample that asks one question, `verdict`: (its text, the answers a
        person may give, the judge's answer)."""
        text, choices, judged = question
        return cls(
            str(sample.id), sample.epoch, unit, role, (AuditQuestion("verdict", text, choices, judged),),
            shown, revealed, focus, label,
        )  # fmt: skip

    @property
    def verdict(self) -> str:
        """The judge's answer to the item's first question (what the draw stratifies by)."""
        return self.questions[0].judged

    @property
    def key(self) -> str:
        """The item's name in answer files: `role/sample/epoch/unit`."""
        return f"{self.role}/{self.sample_id}/{self.epoch}/{self.unit}"

    def question(self, key: str) -> AuditQuestion | None:
        """The question of this key, if the item asks it."""
        return next((q for q in self.questions if q.key == key), None)


def reading_item(
    sample: EvalSample,
    unit: int,
    judge: str,
    exchange: tuple[str, str],
    readings: tuple[str, ...],
    reading: str,
    *,
    extracted: bool,
    reason: str = "",
    label: str | None = None,
) -> AuditItem:
    """The item of the verdict read from a judge's reply ("Which verdict does the detector's
    reply state?"), by the strict reader or, where it read none, the extractor.

    Args:
        sample: The judged sample.
        unit: The judged part's position in the sample (0: the whole sample).
        judge: Who wrote the reply, for headings ("detector", "checker").
        exchange: What the judge was asked, and its reply.
        readings: The verdicts a person may answer (`UNREADABLE` among them).
        reading: The verdict read.
        extracted: Whether the extractor read the reply (the reader could not).
        reason: How the reading was made, revealed beside it.
        label: The dataset's label, where the figure needs it.
    """
    reply = f"{judge[0].upper()}{judge[1:]}'s reply"
    return AuditItem.of_verdict(
        sample, unit, AUDIT_EXTRACTOR if extracted else AUDIT_READER,
        (f"Which verdict does the {judge}'s reply state?", readings, reading),
        shown=((f"What the {judge} was asked", exchange[0]), (reply, exchange[1])),
        revealed=(
            ("Read as", f"{reading} ({reason})" if reason else reading),
            ("Read by", "the extractor model" if extracted else "the strict reader"),
        ),
        focus=reply,
        label=label,
    )  # fmt: skip


def reading_roles(replies: str) -> dict[AuditRole, str]:
    """The audited roles of a verdict reader, what each reads from `replies` ("each
    checker's reply"): the strict reader, and the extractor where the reader read none."""
    return {
        AUDIT_READER: f"the verdict the strict reader read from {replies}",
        AUDIT_EXTRACTOR: "the verdict the extractor model read where the strict reader read none",
    }


Recompute = Callable[[Sequence["AuditItem"], Sequence[str | None]], tuple[float, float]]
"""A figure on some audited items: as the run computed it, and with the people's answers
(None where a person could not tell) in the judge's place."""


@dataclass(frozen=True)
class AuditFigure:
    """The run's figure an audit recomputes with the people's answers.

    Attributes:
        name: What it is ("Detection F1 on the audited answers").
        role: The role whose items it is recomputed on.
        recompute: The figure on some items of `role`, by the run and by the people.
    """

    name: str
    role: AuditRole
    recompute: Recompute


def f1_figure(name: str, role: AuditRole, positive: str) -> AuditFigure:
    """F1 of a role's verdicts with `positive` as the positive class: against the dataset's
    labels (items without one left out), and against the people's (where they could tell)."""

    def recompute(items: Sequence[AuditItem], people: Sequence[str | None]) -> tuple[float, float]:
        labelled = [i for i in items if i.label is not None]
        run = binary_f1(
            [i.label == positive for i in labelled], [i.verdict == positive for i in labelled]
        )
        told = [(i, p) for i, p in zip(items, people, strict=True) if p is not None]
        return run, binary_f1(
            [p == positive for _, p in told], [i.verdict == positive for i, _ in told]
        )

    return AuditFigure(name, role, recompute)


@dataclass(frozen=True)
class JudgeAudit:
    """How a benchmark's judges are audited.

    Attributes:
        roles: Each audited role, in the order tables list them, and what it judges, for
            headings ("the verdict read from each detector's reply").
        items: The judged items of one sample of a log, given the run's settings.
        figure: The run's figure recomputed with the people's answers.
        legacy_role: The role of answers saved before audits had roles (keys
            `sample/epoch/unit`, agree/disagree answers); None: the figure's.
    """

    roles: Mapping[AuditRole, str]
    items: Callable[[EvalSample, RunRecord], list[AuditItem]]
    figure: AuditFigure
    legacy_role: AuditRole | None = None

    @property
    def legacy_answers_role(self) -> AuditRole:
        """The role of answers saved before audits had roles."""
        return self.legacy_role or self.figure.role
