"""Auditing MedHal's judges, blind: the reader (which verdict does the model's reply state?
unread replies included), the extractor where it read a reply the reader could not, and
the model as a judge of the statement (is it factual, given its context?), the model's
verdict and the dataset's label shown only after the person answered."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from inspect_ai.log import EvalSample

from medhalbench.medhal._dataset import MedHalSampleMetadata
from medhalbench.medhal._verdicts import MedHalScoreMetadata
from medhalbench.registry import UNREADABLE, AuditItem, AuditQuestion, JudgeAudit, reading_roles
from medhalbench.results import RunRecord, sample_score
from medhalbench.statistics import binary_f1

FACTUAL, NOT_FACTUAL = "factual", "not factual"
_VERDICTS = {"YES": FACTUAL, "NO": NOT_FACTUAL}
ASKED = "Is the statement factual, given its context? (Factual: YES or NO, with an explanation)"


MedHalAuditRole = Literal["reader", "extractor", "detector"]
"""Whose judgements a person audits in a MedHal run (`JUDGE_AUDIT.roles` says what each judges)."""


def items(sample: EvalSample, record: RunRecord) -> list[AuditItem]:
    """A sample's reader (or extractor) item and, where its reply was read, its detector
    item (the model's verdict on the statement)."""
    score = sample_score(sample)
    if score is None:
        return []
    scored = MedHalScoreMetadata.model_validate(score.metadata or {})
    kept = sample.metadata_as(MedHalSampleMetadata)
    reply = sample.output.completion if sample.output else ""
    reading = _VERDICTS.get(str(score.answer), UNREADABLE)
    role: MedHalAuditRole = "extractor" if scored.read_by == "extractor" else "reader"
    gold = None if kept.label is None else (FACTUAL if kept.label else NOT_FACTUAL)
    context = kept.context or "(none)"
    statement = "(not kept in this log)" if kept.statement is None else kept.statement
    how = str(score.reason or "read")
    found = [
        AuditItem(
            str(sample.id), sample.epoch, 0, role,
            (AuditQuestion(
                "verdict", "Which verdict does the model's reply state?",
                (FACTUAL, NOT_FACTUAL, UNREADABLE), reading,
            ),),
            shown=(("What the model was asked", ASKED), ("Model's reply", reply)),
            revealed=(
                ("Read as", f"{reading} ({how})"),
                ("Read by", "the extractor model" if role == "extractor" else "the strict reader"),
            ),
            focus="Model's reply",
            label=gold,
        )
    ]  # fmt: skip
    if reading != UNREADABLE:
        found.append(
            AuditItem(
                str(sample.id), sample.epoch, 0, "detector",
                (AuditQuestion(
                    "verdict", "Is the statement factual, given its context?",
                    (FACTUAL, NOT_FACTUAL), reading,
                ),),
                shown=(("Context", context), ("Statement", statement)),
                revealed=(
                    ("Model's explanation", scored.explanation or "(none)"),
                    ("Dataset's label", gold or "(none: statements without labels)"),
                    ("Dataset's explanation", scored.gold_explanation or "(none)"),
                ),
                focus="Statement",
                label=gold,
            )
        )  # fmt: skip
    return found


def recompute_f1(items: Sequence[AuditItem], people: Sequence[str | None]) -> tuple[float, float]:
    """The model's F1 (not factual = positive) on the audited statements: against the
    dataset's labels, and against the people's labels (where they could tell)."""
    labelled = [i for i in items if i.label is not None]
    ours = binary_f1(
        [i.label == NOT_FACTUAL for i in labelled], [i.verdict == NOT_FACTUAL for i in labelled]
    )
    kept = [(i, p) for i, p in zip(items, people, strict=True) if p is not None]
    return ours, binary_f1(
        [p == NOT_FACTUAL for _, p in kept], [i.verdict == NOT_FACTUAL for i, _ in kept]
    )


JUDGE_AUDIT = JudgeAudit(
    roles={
        **reading_roles("each reply"),
        "detector": "the model's verdict on each statement (the model under test)",
    },
    items=items,
    figure="F1 on the audited statements",
    figure_role="detector",
    recompute=recompute_f1,
    legacy_role="detector",
)
