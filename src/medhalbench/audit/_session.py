"""One person's audit: the drawn items in the order shown, their answers, and each item's
page, blind by default (the person's own answer first; the judge's reading, the dataset's
label, ids and file names only after it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment, PackageLoader

from medhalbench._errors import MedhalbenchError
from medhalbench.audit._answers import AuditAnswer, answers_path, read_answers, save_answer
from medhalbench.audit._items import AuditedLog, draw
from medhalbench.registry import CANNOT_TELL, AuditItem

MAX_NOTE_CHARS = 10_000
"""The longest note kept with an answer."""
_environment = Environment(loader=PackageLoader("medhalbench.audit", "templates"), autoescape=True)


class AnswerNotSaved(MedhalbenchError):
    """An answer that could not be written (the folder became read-only, the disk filled)."""


@dataclass(frozen=True)
class Drawn:
    """A drawn item and the log it is of."""

    log: AuditedLog
    item: AuditItem

    def choices(self, question: str) -> tuple[str, ...]:
        """The answers offered to one of the item's questions (`cannot tell` last)."""
        asked = self.item.question(question)
        return () if asked is None else (*asked.choices, CANNOT_TELL)


@dataclass
class AuditSession:
    """One person's audit of some logs: the drawn items, in the order shown.

    Attributes:
        logs: The logs audited.
        annotator: Who answers.
        items_per_log: Items drawn from each log.
        seed: The draw's seed.
        blind: Show the judge's reading only after the person answered (the default);
            False shows it beside the item, and the answers are marked as not blind.
    """

    logs: list[AuditedLog]
    annotator: str
    items_per_log: int
    seed: int
    blind: bool = True

    def __post_init__(self) -> None:
        self.drawn = [
            Drawn(log, item)
            for log in self.logs
            for item in draw(log.items, self.items_per_log, self.seed)
        ]

    def answers(self) -> dict[tuple[str, str], AuditAnswer]:
        """This person's answers on the drawn items, by (log, item key), read from disk.

        Raises:
            DataError: An answer file with a malformed or oversized line, naming it.
        """
        found = {}
        for log in self.logs:
            for answer in read_answers(log.path):
                if answer.annotator == self.annotator:
                    found[(log.name, answer.item_key(log.audit.legacy_answers_role))] = answer
        return found

    def next_unanswered(self) -> int | None:
        """The first drawn item this person has not answered (None: all are)."""
        answers = self.answers()
        return next(
            (i for i, d in enumerate(self.drawn) if (d.log.name, d.item.key) not in answers), None
        )

    def given(self, index: int, form: Mapping[str, Sequence[str]]) -> dict[str, str]:
        """The answers a submitted form gives, one per question of the item (`q:<key>`).

        Raises:
            ValueError: A question unanswered, or an answer not offered, naming it.
        """
        drawn = self.drawn[index]
        given = {}
        for question in drawn.item.questions:
            values = form.get(f"q:{question.key}") or [""]
            offered = drawn.choices(question.key)
            if values[0] not in offered:
                raise ValueError(
                    f"expected an answer to '{question.text}', one of {', '.join(offered)}"
                )
            given[question.key] = values[0]
        return given

    def save(self, index: int, given: Mapping[str, str], note: str) -> None:
        """Save this person's answers on a drawn item (blind when they had not seen the
        judge's reading: a first answer on a blind page).

        Raises:
            AnswerNotSaved: The answer file cannot be written, naming it and why.
        """
        drawn = self.drawn[index]
        try:
            before = self.answers().get((drawn.log.name, drawn.item.key))
        except MedhalbenchError:  # an answer file that cannot be read: saving says why
            before = None
        try:
            save_answer(
                drawn.log.path,
                AuditAnswer(
                    benchmark=drawn.log.entry.name, log=drawn.log.name, key=drawn.item.key,
                    role=drawn.item.role, answers=dict(given),
                    judged={q.key: q.judged for q in drawn.item.questions},
                    blind=self.blind and before is None, note=note.strip() or None,
                    annotator=self.annotator, seed=self.seed,
                ),
            )  # fmt: skip
        except OSError as ex:
            raise AnswerNotSaved(
                f"{answers_path(drawn.log.path)}: the answer on item {index + 1} was not saved "
                f"({ex.strerror or ex})"
            ) from None

    def page(self, index: int | None, **security: str) -> str:
        """The page of a drawn item, or the closing page (`index` None); `security` holds
        the page's address prefix (`base`), form token (`csrf`) and script nonce (`nonce`).
        Before the person answers a blind item, the page holds nothing that reveals the
        judge's reading or the dataset's label: no verdict, no sample id, no file name."""
        answers = self.answers()
        context: dict[str, Any] = {
            "annotator": self.annotator,
            "total": len(self.drawn),
            "answered": sum((d.log.name, d.item.key) in answers for d in self.drawn),
            "files": sorted({str(answers_path(log.path)) for log in self.logs}),
            "max_note": MAX_NOTE_CHARS,
            "cannot_tell": CANNOT_TELL,
            **security,
        }
        if index is not None:
            drawn = self.drawn[index]
            given = answers.get((drawn.log.name, drawn.item.key))
            context.update(
                index=index,
                drawn=drawn,
                run=drawn.log.run,
                role=drawn.log.audit.roles.get(drawn.item.role, drawn.item.role),
                given=given,
                person={q.key: given.given(drawn.item, q.key) for q in drawn.item.questions}
                if given
                else {},
                revealed=given is not None or not self.blind,
            )
        return _environment.get_template("audit.html.j2").render(context)
