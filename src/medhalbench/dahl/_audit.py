"""Auditing DAHL's checker: a person checks its verdict on atomic units, one at a time."""

from __future__ import annotations

import math
from collections.abc import Sequence

from inspect_ai.log import EvalSample

from medhalbench.evidence import logged_passages_text
from medhalbench.registry import AuditItem, JudgeAudit
from medhalbench.results import sample_score

EVIDENCE_HEADING = "Passages the checker was given"


def checker_items(sample: EvalSample) -> list[AuditItem]:
    """Each atomic unit of the sample's answer with the checker's verdict (units whose
    verdict could not be read are left out: there is nothing to check)."""
    score = sample_score(sample)
    metadata = (score.metadata if score else None) or {}
    answer = str(
        metadata.get("cleaned_response") or (sample.output.completion if sample.output else "")
    )
    question = str(sample.metadata.get("question", ""))
    units = list(metadata.get("units_text") or [])
    verdicts = list(metadata.get("verdicts") or [])
    # A grounded run keeps each unit's passages: shown beside the unit, as the checker read them.
    passages = list(metadata.get("unit_passages") or [])
    return [
        AuditItem(
            str(sample.id),
            sample.epoch,
            position,
            str(verdict),
            (
                ("Question", question),
                ("Answer", answer),
                ("Atomic unit", unit),
                *(
                    [(EVIDENCE_HEADING, logged_passages_text(passages[position - 1]))]
                    if position <= len(passages)
                    else []
                ),
            ),
        )  # fmt: skip
        for position, (unit, verdict) in enumerate(zip(units, verdicts, strict=False), start=1)
        if verdict is not None
    ]


def precision(verdicts: Sequence[str | None]) -> float:
    """The share of true among the units judged true or false (NaN when none was)."""
    true, false = verdicts.count("true"), verdicts.count("false")
    return true / (true + false) if true + false else math.nan


def recompute_precision(
    items: Sequence[AuditItem], people: Sequence[str | None]
) -> tuple[float, float]:
    """The factual precision of the audited units: the checker's, and the people's."""
    return precision([i.verdict for i in items]), precision(list(people))


CHECKER_AUDIT = JudgeAudit(
    judge="the checker's verdict on each atomic unit",
    question="Is this atomic unit {verdict}, as the checker says?",
    focus="Atomic unit",
    items=checker_items,
    opposite={"true": "false", "false": "true"},
    figure="factual precision of the audited units",
    recompute=recompute_precision,
)
