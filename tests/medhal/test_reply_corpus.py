"""The MedHal verdict reader agrees with a careful reader on every reply of the corpus, the
verdict and the explanation (replies in many models' styles; 100% is required)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings

from helpers import corpus_disagreements, reply_corpus, reply_texts
from medhalbench.medhal import parse_factual_verdict

CASES = reply_corpus(Path(__file__).parent / "data" / "replies.jsonl")


def reading(case: dict[str, Any]) -> tuple[str | None, str | None]:
    verdict = parse_factual_verdict(case["reply"])
    label = None if verdict.factual is None else ("yes" if verdict.factual else "no")
    return label, verdict.explanation


def test_the_factual_reader_agrees_with_a_careful_reader_on_every_reply() -> None:
    assert len(CASES) >= 35
    wrong = corpus_disagreements(CASES, reading)
    assert not wrong, "\n".join(map(repr, wrong))


@settings(max_examples=400, deadline=None)
@given(reply=reply_texts())
def test_the_reader_never_crashes_and_explains_only_a_verdict(reply: str) -> None:
    factual = parse_factual_verdict(reply)
    assert factual.factual in (True, False, None)
    assert factual.factual is not None or factual.explanation is None
