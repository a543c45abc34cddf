"""Auditing MedHallu's judges, blind: the reader (which verdict does the detector's reply
state? unread replies included), the extractor where it read a reply the reader could not,
and the detector itself (is the answer hallucinated?), the dataset's label shown only after
the person answered."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from inspect_ai.log import EvalSample

from medhalbench.medhallu._dataset import MedHalluSampleMetadata
from medhalbench.medhallu._task import MedHalluSettings
from medhalbench.medhallu._verdicts import DetectionLabel, MedHalluScoreMetadata
from medhalbench.registry import UNREADABLE, AuditItem, AuditQuestion, JudgeAudit, reading_roles
from medhalbench.results import RunRecord, sample_score
from medhalbench.statistics import binary_f1

FACTUAL, HALLUCINATED, NOT_SURE = "factual", "hallucinated", "not sure"
ASKED = "Is the answer factual (0) or hallucinated (1)?"
_READ = {"factual": FACTUAL, "hallucinated": HALLUCINATED, "not_sure": NOT_SURE}


MedHalluAuditRole = Literal["reader", "extractor", "detector"]
"""Whose judgements a person audits in a MedHallu run (`JUDGE_AUDIT.roles` says what each judges)."""


def _prompt(sample: EvalSample) -> str:
    """What the detector was shown: its last user message."""
    messages = sample.input if isinstance(sample.input, list) else []
    return next((m.text for m in reversed(messages) if m.role == "user"), str(sample.input))


def items(sample: EvalSample, record: RunRecord) -> list[AuditItem]:
    """A sample's reader (or extractor) item and, where its reply was read, its detector
    item."""
    score = sample_score(sample)
    scored = MedHalluScoreMetadata.model_validate((score.metadata if score else None) or {})
    kept = sample.metadata_as(MedHalluSampleMetadata)
    reply = sample.output.completion if sample.output else ""
    read_by = scored.read_by
    label = DetectionLabel(scored.label if scored.label is not None else kept.label)
    gold = label.name.lower()
    not_sure = record.settings_as(MedHalluSettings).not_sure
    reading = _READ.get(scored.prediction, UNREADABLE)
    reason = str(score.explanation or "") if score else ""
    answer = "(not kept in this log)" if kept.answer is None else kept.answer
    role: MedHalluAuditRole = "extractor" if read_by == "extractor" else "reader"
    found = [
        AuditItem(
            str(sample.id), sample.epoch, 0, role,
            (AuditQuestion(
                "verdict", "Which verdict does the detector's reply state?",
                (FACTUAL, HALLUCINATED, *((NOT_SURE,) if not_sure else ()), UNREADABLE),
                reading,
            ),),
            shown=(
                ("What the detector was asked", ASKED + (" (2: not sure)" if not_sure else "")),
                ("Detector's reply", reply),
            ),
            revealed=(
                ("Read as", f"{reading} ({reason})" if reason else reading),
                ("Read by", "the extractor model" if role == "extractor" else "the strict reader"),
            ),
            focus="Detector's reply",
            label=gold,
        )
    ]  # fmt: skip
    if reading in (FACTUAL, HALLUCINATED):
        found.append(
            AuditItem(
                str(sample.id), sample.epoch, 0, "detector",
                (AuditQuestion(
                    "verdict", "Is this answer to the question factual or hallucinated?",
                    (FACTUAL, HALLUCINATED), reading,
                ),),
                shown=(
                    ("Question", kept.question),
                    ("Answer judged", answer),
                    ("What the detector was shown", _prompt(sample)),
                ),
                revealed=(("Detector's reply", reply), ("Dataset's label", gold)),
                focus="Answer judged",
                label=gold,
            )
        )  # fmt: skip
    return found


def recompute_f1(items: Sequence[AuditItem], people: Sequence[str | None]) -> tuple[float, float]:
    """Detection F1 (hallucinated = positive) of the detector on the audited answers:
    against the dataset's labels, and against the people's labels (answers they could not
    tell left out)."""
    predicted = [i.verdict == HALLUCINATED for i in items]
    ours = binary_f1([i.label == HALLUCINATED for i in items], predicted)
    kept = [(p, d) for p, d in zip(people, predicted, strict=True) if p is not None]
    return ours, binary_f1([p == HALLUCINATED for p, _ in kept], [d for _, d in kept])


JUDGE_AUDIT = JudgeAudit(
    roles={
        **reading_roles("each detector's reply"),
        "detector": "the detector's verdict on each answer (the model under test)",
    },
    items=items,
    figure="Detection F1 on the audited answers",
    figure_role="detector",
    recompute=recompute_f1,
    legacy_role="reader",
)
