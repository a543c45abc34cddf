"""The detection verdict reader agrees with a careful reader on every reply of the corpus
(replies in many models' styles, written for the tests; 100% is required)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers import corpus_disagreements, reply_corpus
from medhalbench.medhallu import parse_detection_verdict

CASES = reply_corpus(Path(__file__).parent / "data" / "replies.jsonl")


def reading(case: dict[str, Any]) -> tuple[str | None, None]:
    verdict = parse_detection_verdict(
        case["reply"], allow_not_sure=case["parser"] == "detection_not_sure"
    )
    return (None if verdict.label is None else str(int(verdict.label))), None


def test_the_detection_reader_agrees_with_a_careful_reader_on_every_reply() -> None:
    assert len(CASES) >= 90
    wrong = corpus_disagreements(CASES, reading)
    assert not wrong, "\n".join(map(repr, wrong))
