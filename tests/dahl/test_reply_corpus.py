"""The checker's verdict reader agrees with a careful reader on every reply of the corpus
(replies in many models' styles, written for the tests; 100% is required)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers import corpus_disagreements, reply_corpus
from medhalbench.dahl import parse_truth_verdict

CASES = reply_corpus(Path(__file__).parent / "data" / "replies.jsonl")


def reading(case: dict[str, Any]) -> tuple[str, None]:
    return parse_truth_verdict(case["reply"]), None


def test_the_truth_reader_agrees_with_a_careful_reader_on_every_reply() -> None:
    assert len(CASES) >= 40
    wrong = corpus_disagreements(CASES, reading)
    assert not wrong, "\n".join(map(repr, wrong))
