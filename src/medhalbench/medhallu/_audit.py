"""Auditing MedHallu's judges, blind: the reader (which verdict does the detector's reply
state? unread replies included), the extractor where it read a reply the reader could not,
and the detector itself (is the answer hallucinated?), the dataset's label shown only after
the person answered."""

from __future__ import annotations

from inspect_ai.log import EvalSample

from medhalbench import registry
from medhalbench.medhallu._dataset import MedHalluSampleMetadata
from medhalbench.medhallu._settings import MedHalluSettings
from medhalbench.medhallu._verdicts import DetectionLabel, MedHalluScoreMetadata
from medhalbench.results import RunRecord, sample_score

FACTUAL, HALLUCINATED, NOT_SURE = "factual", "hallucinated", "not sure"
ASKED = "Is the answer factual (0) or hallucinated (1)?"
_READ = {"factual": FACTUAL, "hallucinated": HALLUCINATED, "not_sure": NOT_SURE}


ROLES: dict[registry.AuditRole, str] = {
    **registry.reading_roles("each detector's reply"),
    "detector": "the detector's verdict on each answer (the model under test)",
}
"""Whose judgements a person audits in a MedHallu run, and what each judges."""


def _prompt(sample: EvalSample) -> str:
    """What the detector was shown: its last user message."""
    messages = sample.input if isinstance(sample.input, list) else []
    return next((m.text for m in reversed(messages) if m.role == "user"), str(sample.input))


def items(sample: EvalSample, record: RunRecord) -> list[registry.AuditItem]:
    """A sample's reader (or extractor) item and, where its reply was read, its detector
    item."""
    score = sample_score(sample)
    scored = MedHalluScoreMetadata.model_validate((score.metadata if score else None) or {})
    kept = sample.metadata_as(MedHalluSampleMetadata)
    reply = sample.output.completion if sample.output else ""
    label = DetectionLabel(scored.label if scored.label is not None else kept.label)
    gold = label.name.lower()
    not_sure = record.settings_as(MedHalluSettings).not_sure
    reading = _READ.get(scored.prediction, registry.UNREADABLE)
    reason = str(score.explanation or "") if score else ""
    answer = "(not kept in this log)" if kept.answer is None else kept.answer
    asked = ASKED + (" (2: not sure)" if not_sure else "")
    choices = (FACTUAL, HALLUCINATED, *((NOT_SURE,) if not_sure else ()), registry.UNREADABLE)
    found = [
        registry.reading_item(
            sample, 0, "detector", (asked, reply), choices, reading,
            extracted=scored.read_by == "extractor", reason=reason, label=gold,
        )
    ]  # fmt: skip
    if reading in (FACTUAL, HALLUCINATED):
        found.append(
            registry.AuditItem.of_verdict(
                sample, 0, "detector",
                ("Is this answer to the question factual or hallucinated?", (FACTUAL, HALLUCINATED), reading),
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


JUDGE_AUDIT = registry.JudgeAudit(
    ROLES,
    items,
    registry.f1_figure("Detection F1 on the audited answers", "detector", HALLUCINATED),
    legacy_role="reader",
)
