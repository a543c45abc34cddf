"""Auditing DAHL's judges, blind, unit by unit: the reader (which verdict does the checker's
reply state? unread replies included), the extractor where it read a reply the reader could
not, the splitter (is the unit stated in the answer? one fact? a repeat of another unit or
of the question?) and the checker (is the unit true?)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.log import EvalSample

from medhalbench.evidence import logged_passages_text
from medhalbench.registry import AuditItem, AuditQuestion, JudgeAudit
from medhalbench.results import sample_score

EVIDENCE_HEADING = "Passages the checker was given"
TRUE, FALSE, NO_VERDICT = "true", "false", "unknown or unreadable"
YES, NO = "yes", "no"
ASKED = "Is this statement true or false?"


def items(sample: EvalSample, arguments: Mapping[str, Any]) -> list[AuditItem]:
    """Each atomic unit's splitter item and, where it was checked, its reader (or
    extractor) item and, where the checker said true or false, its checker item."""
    score = sample_score(sample)
    metadata = (score.metadata if score else None) or {}
    answer = str(
        metadata.get("cleaned_response") or (sample.output.completion if sample.output else "")
    )
    question = str(sample.metadata.get("question", ""))
    units = [str(u) for u in metadata.get("units_text") or []]
    verdicts = list(metadata.get("verdicts") or [])
    replies = list(metadata.get("checker_replies") or [])
    read_by = list(metadata.get("unit_read_by") or [])
    # A grounded run keeps each unit's passages: shown beside the unit, as the checker read them.
    passages = list(metadata.get("unit_passages") or [])
    per_unit = len(replies) == len(units)  # batch mode: one reply for all units
    found = []
    for position, unit in enumerate(units, start=1):
        others = "\n".join(f"{i}. {u}" for i, u in enumerate(units, start=1) if i != position)
        evidence = (
            ((EVIDENCE_HEADING, logged_passages_text(passages[position - 1])),)
            if position <= len(passages)
            else ()
        )
        found.append(
            AuditItem(
                str(sample.id), sample.epoch, position, "splitter",
                (
                    AuditQuestion("stated", "Is this unit stated in the answer (not added, not changed)?", (YES, NO), YES),
                    AuditQuestion("atomic", "Does it state exactly one fact?", (YES, NO), YES),
                    AuditQuestion("repeat", "Does it repeat another unit, or the question?", (YES, NO), NO),
                ),
                shown=(("Question", question), ("Answer", answer), ("Atomic unit", unit),
                       ("The other units", others or "(none)")),
                revealed=(("The splitter's reply", str(metadata.get("splitter_reply") or "")),),
                focus="Atomic unit",
            )
        )  # fmt: skip
        verdict = verdicts[position - 1] if position <= len(verdicts) else None
        if verdict is None:
            continue
        reading = verdict if verdict in (TRUE, FALSE) else NO_VERDICT
        if per_unit:
            extracted = position <= len(read_by) and read_by[position - 1] == "extractor"
            found.append(
                AuditItem(
                    str(sample.id), sample.epoch, position, "extractor" if extracted else "reader",
                    (AuditQuestion(
                        "verdict", "Which verdict does the checker's reply state?",
                        (TRUE, FALSE, NO_VERDICT), reading,
                    ),),
                    shown=(("What the checker was asked", f"{ASKED}\n{unit}"),
                           ("Checker's reply", str(replies[position - 1]))),
                    revealed=(("Read by", "the extractor model" if extracted else "the strict reader"),),
                    focus="Checker's reply",
                )
            )  # fmt: skip
        if verdict in (TRUE, FALSE):
            found.append(
                AuditItem(
                    str(sample.id), sample.epoch, position, "checker",
                    (AuditQuestion("verdict", "Is this atomic unit true or false?", (TRUE, FALSE), verdict),),
                    shown=(("Question", question), ("Answer", answer), ("Atomic unit", unit), *evidence),
                    revealed=(("Checker's reply", str(replies[position - 1]) if per_unit else ""),),
                    focus="Atomic unit",
                )
            )  # fmt: skip
    return found


def precision(verdicts: Sequence[str | None]) -> float:
    """The share of true among the units judged true or false (NaN when none was)."""
    true, false = verdicts.count(TRUE), verdicts.count(FALSE)
    return true / (true + false) if true + false else math.nan


def recompute_precision(
    items: Sequence[AuditItem], people: Sequence[str | None]
) -> tuple[float, float]:
    """The factual precision of the audited units: the checker's, and the people's."""
    return precision([i.verdict for i in items]), precision(list(people))


JUDGE_AUDIT = JudgeAudit(
    roles={
        "reader": "the verdict the strict reader read from each checker's reply",
        "extractor": "the verdict the extractor model read where the strict reader read none",
        "splitter": "each atomic unit the splitter wrote: stated in the answer, one fact, no repeat",
        "checker": "the checker's verdict on each atomic unit",
    },
    items=items,
    figure="Factual precision of the audited units",
    figure_role="checker",
    recompute=recompute_precision,
    legacy_role="checker",
)
