"""Auditing MedHallu's verdict reader: a person checks the verdict read from each reply."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.log import EvalSample

from medhalbench.medhallu._verdicts import DetectionLabel
from medhalbench.registry import AuditItem, JudgeAudit
from medhalbench.results import sample_score
from medhalbench.statistics import binary_f1


def reader_items(sample: EvalSample) -> list[AuditItem]:
    """The detector's reply with the verdict read from it (unreadable replies, with no
    verdict to check, are left out)."""
    score = sample_score(sample)
    metadata = (score.metadata if score else None) or {}
    verdict = metadata.get("prediction")
    if verdict in (None, "unparseable"):
        return []
    label = DetectionLabel(int(metadata.get("label", sample.metadata.get("label", 0))))
    return [
        AuditItem(
            str(sample.id),
            sample.epoch,
            0,
            str(verdict).replace("_", " "),
            (
                ("Question", str(sample.metadata.get("question", ""))),
                ("Answer judged", str(sample.metadata.get("answer", "(not kept in this log)"))),
                ("Detector's reply", sample.output.completion if sample.output else ""),
            ),
            label=label.name.lower(),
        )  # fmt: skip
    ]


def recompute_f1(items: Sequence[AuditItem], people: Sequence[str | None]) -> tuple[float, float]:
    """Detection F1 (hallucinated = positive) on the audited replies, as read by our reader
    and as read by the people (replies they could not read left out)."""
    gold = [i.label == "hallucinated" for i in items]
    ours = binary_f1(gold, [i.verdict == "hallucinated" for i in items])
    kept = [(g, p) for g, p in zip(gold, people, strict=True) if p is not None]
    return ours, binary_f1([g for g, _ in kept], [p == "hallucinated" for _, p in kept])


READER_AUDIT = JudgeAudit(
    judge="the verdict read from each detector's reply",
    question="Does the detector's reply say the answer is {verdict}?",
    focus="Detector's reply",
    items=reader_items,
    opposite={"factual": "hallucinated", "hallucinated": "factual"},
    figure="F1 on the audited replies",
    recompute=recompute_f1,
)
