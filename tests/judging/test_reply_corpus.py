"""Agreement of the parsers with a careful reader on 170+ replies in many models' styles
(terse, verbose, markdown, JSON, echoing the prompt, refusing, hedging), written for these
tests. The agreement must be 100%."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from medhalbench.dahl import parse_truth_verdict
from medhalbench.medhal import parse_factual_verdict
from medhalbench.medhallu import parse_detection_verdict

REPLIES = Path(__file__).parent / "data" / "replies.jsonl"


def reading(case: dict[str, Any]) -> tuple[Any, Any]:
    """The parser's reading of a case, in the corpus's terms (and the explanation)."""
    reply, parser = case["reply"], case["parser"]
    if parser.startswith("detection"):
        verdict = parse_detection_verdict(reply, allow_not_sure=parser == "detection_not_sure")
        return (None if verdict.label is None else str(int(verdict.label))), None
    if parser == "truth":
        return parse_truth_verdict(reply), None
    factual = parse_factual_verdict(reply)
    label = None if factual.factual is None else ("yes" if factual.factual else "no")
    return label, factual.explanation


def test_parsers_agree_with_a_careful_reader_on_every_reply() -> None:
    cases = [json.loads(line) for line in REPLIES.read_text().splitlines() if line.strip()]
    assert len(cases) >= 150
    assert {c["parser"] for c in cases} == {"detection", "detection_not_sure", "truth", "factual"}
    disagreements = []
    for case in cases:
        label, explanation = reading(case)
        wanted_explanation = case.get("explanation", explanation)
        if label != case["expected"] or explanation != wanted_explanation:
            disagreements.append(
                (case["parser"], case["reply"], case["expected"], label, explanation)
            )
    by_parser = Counter(c["parser"] for c in cases)
    agreement = 1 - len(disagreements) / len(cases)
    print(f"\nagreement {agreement:.1%} on {len(cases)} replies {dict(by_parser)}")
    assert not disagreements, "\n".join(map(repr, disagreements))
