"""The people's answers, one JSON line each, beside the log they audit
(`<log>.audit.jsonl`): written as they are given, so that nothing is lost."""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import Field

from medhalbench.data import Record, read_rows, validate_row
from medhalbench.results import local_path

Answer = Literal["agree", "disagree", "cannot_tell"]
AUDIT_SUFFIX = ".audit.jsonl"


class AuditAnswer(Record):
    """One person's answer on one judged item.

    Attributes:
        benchmark: The benchmark of the log.
        log: The log's file name.
        key: The item (`sample/epoch/unit`; unit 0 for a whole sample).
        verdict: The judge's verdict the person was shown.
        answer: Whether the person agrees with it, disagrees, or cannot tell.
        note: The person's note, if any.
        annotator: Who answered.
        seed: The seed the items were drawn with.
        answered_at: When (UTC, ISO 8601).
    """

    benchmark: str
    log: str
    key: str = Field(min_length=1)
    verdict: str
    answer: Answer
    note: str | None = None
    annotator: str = Field(min_length=1)
    seed: int = 0
    answered_at: str = ""

    def held(self, opposite: Mapping[str, str]) -> str | None:
        """The verdict the person holds: the judge's when agreeing, its opposite when
        disagreeing (None where it has none, or the person could not tell)."""
        if self.answer == "agree":
            return self.verdict
        if self.answer == "disagree":
            return opposite.get(self.verdict)
        return None


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
    for line, row in read_rows(path):
        answer = validate_row(AuditAnswer, row, path=path, line=line)
        latest[(answer.annotator, answer.key)] = answer
    return list(latest.values())


def save_answer(log: str | Path, answer: AuditAnswer) -> None:
    """Append one answer to the log's answer file and flush it to disk at once."""
    stamped = answer.model_copy(
        update={"answered_at": datetime.now(UTC).isoformat(timespec="seconds")}
    )
    with answers_path(log).open("a", encoding="utf-8") as out:
        out.write(stamped.model_dump_json() + "\n")
        out.flush()
        os.fsync(out.fileno())
