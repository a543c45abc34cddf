"""Auditing MedHal's judges, blind: the reader (which verdict does the model's reply state?
unread replies included), the extractor where it read a reply the reader could not, and
the model as a judge of the statement (is it factual, given its context?), the model's
verdict and the dataset's label shown only after the person answered."""

from __future__ import annotations

from inspect_ai.log import EvalSample

from medhalbench import registry
from medhalbench.medhal._dataset import MedHalSampleMetadata
from medhalbench.medhal._verdicts import MedHalScoreMetadata
from medhalbench.results import RunRecord, sample_score

FACTUAL, NOT_FACTUAL = "factual", "not factual"
_VERDICTS = {"YES": FACTUAL, "NO": NOT_FACTUAL}
ASKED = "Is the statement factual, given its context? (Factual: YES or NO, with an explanation)"


ROLES: dict[registry.AuditRole, str] = {
    **registry.reading_roles("each reply"),
    "detector": "the model's verdict on each statement (the model under test)",
}
"""Whose judgements a person audits in a MedHal run, and what each judges."""


def items(sample: EvalSample, record: RunRecord) -> list[registry.AuditItem]:
    """A sample's reader (or extractor) item and, where its reply was read, its detector
    item (the model's verdict on the statement)."""
    score = sample_score(sample)
    if score is None:
        return []
    scored = MedHalScoreMetadata.model_validate(score.metadata or {})
    kept = sample.metadata_as(MedHalSampleMetadata)
    reply = sample.output.completion if sample.output else ""
    reading = _VERDICTS.get(str(score.answer), registry.UNREADABLE)
    gold = None if kept.label is None else (FACTUAL if kept.label else NOT_FACTUAL)
    context = kept.context or "(none)"
    statement = "(not kept in this log)" if kept.statement is None else kept.statement
    found = [
        registry.reading_item(
            sample, 0, "model", (ASKED, reply), (FACTUAL, NOT_FACTUAL, registry.UNREADABLE), reading,
            extracted=scored.read_by == "extractor", reason=str(score.reason or "read"), label=gold,
        )
    ]  # fmt: skip
    if reading != registry.UNREADABLE:
        found.append(
            registry.AuditItem.of_verdict(
                sample, 0, "detector",
                ("Is the statement factual, given its context?", (FACTUAL, NOT_FACTUAL), reading),
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


JUDGE_AUDIT = registry.JudgeAudit(
    ROLES, items, registry.f1_figure("F1 on the audited statements", "detector", NOT_FACTUAL)
)
