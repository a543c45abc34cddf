"""The people's answers, one JSON line each, beside the log they audit
(`run.audit.jsonl` beside `run.eval`): written as they are given, so that nothing is lost."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from medhalbench._secrets import redact
from medhalbench.data import Record, read_records
from medhalbench.registry import CANNOT_TELL, AuditItem
from medhalbench.results import local_path

LegacyAnswer = Literal["agree", "disagree", "cannot_tell"]
"""The answers of audits before they were blind: the person saw the judge's verdict."""
AUDIT_SUFFIX = ".audit.jsonl"


class AuditAnswer(Record):
    """One person's answers on one judged item.

    Attributes:
        benchmark: The benchmark of the log.
        log: The log's file name.
        key: The item (`role/sample/epoch/unit`; unit 0 for a whole sample).
        role: Whose judgement the item is.
        answers: The person's answer to each question of the item, by question key (a
            choice offered, or `cannot tell`).
        judged: The judge's answers at the time, by question key (kept for the record;
            shown to the person only after answering).
        blind: Whether the person answered before seeing the judge's answers.
        note: The person's note, if any.
        annotator: Who answered.
        seed: The seed the items were drawn with.
        answered_at: When (UTC, ISO 8601).
        verdict: In an answer saved before audits were blind: the verdict shown.
        answer: In such an answer: agree, disagree or cannot tell.
    """

    benchmark: str
    log: str
    key: str = Field(min_length=1)
    role: str = ""
    answers: dict[str, str] = Field(default_factory=dict)
    judged: dict[str, str] = Field(default_factory=dict)
    blind: bool = True
    note: str | None = None
    annotator: str = Field(min_length=1)
    seed: int = 0
    answered_at: str = ""
    verdict: str | None = None
    answer: LegacyAnswer | None = None

    @model_validator(mode="after")
    def _answered(self) -> AuditAnswer:
        if not self.answers and self.answer is None:
            raise ValueError("no answer (expected `answers`, or a saved `answer`)")
        return self

    @property
    def legacy(self) -> bool:
        """Saved before audits were blind and had roles."""
        return not self.answers

    def item_key(self, legacy_role: str) -> str:
        """The key of the item answered (an old `sample/epoch/unit` key gets its role)."""
        return f"{legacy_role}/{self.key}" if self.legacy and not self.role else self.key

    def given(self, item: AuditItem, question: str) -> str | None:
        """The person's answer to one question of an item: a choice, `cannot tell`, or None
        where not answered. An old agree/disagree answer on a two-way verdict is read as
        the verdict agreed with, or the other one."""
        if not self.legacy:
            return self.answers.get(question)
        asked = item.question(question)
        if asked is None or question != item.questions[0].key:
            return None
        if self.answer == "agree":
            return asked.judged
        if self.answer == "cannot_tell":
            return CANNOT_TELL
        others = [c for c in asked.choices if c != asked.judged and c != "unreadable"]
        return others[0] if len(others) == 1 else None


def answers_path(log: str | Path) -> Path:
    """Where the answers on a log are kept: beside it, `<log stem>.audit.jsonl`."""
    path = Path(local_path(str(log)))
    return path.with_name(path.name.rsplit(".", 1)[0] + AUDIT_SUFFIX)


def read_answers(log: str | Path) -> list[AuditAnswer]:
    """The answers on a log, the last one of each person on each item (an answer given
    again replaces the earlier one); none when nobody has audited it.

    Raises:
        DataError: A malformed line, naming it.
    """
    path = answers_path(log)
    if not path.exists():
        return []
    latest: dict[tuple[str, str], AuditAnswer] = {}
    for _, answer in read_records(AuditAnswer, path):
        latest[(answer.annotator, answer.key)] = answer
    return list(latest.values())


def save_answer(log: str | Path, answer: AuditAnswer) -> None:
    """Append one answer to the log's answer file and flush it to disk at once."""
    stamped = answer.model_copy(
        update={"answered_at": datetime.now(UTC).isoformat(timespec="seconds")}
    )
    with answers_path(log).open("a", encoding="utf-8") as out:
        out.write(redact(stamped.model_dump_json()) + "\n")  # a note may quote a key
        out.flush()
        os.fsync(out.fileno())
