"""Auditing a MedHal judge: a person checks the model's verdict on each statement."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.log import EvalSample

from medhalbench.registry import AuditItem, JudgeAudit
from medhalbench.results import sample_score
from medhalbench.statistics import binary_f1

_VERDICTS = {"YES": "factual", "NO": "not factual"}


def statement_items(sample: EvalSample) -> list[AuditItem]:
    """The statement, its context, and the model's verdict and explanation (replies with no
    readable verdict are left out)."""
    score = sample_score(sample)
    if score is None or score.answer not in _VERDICTS:
        return []
    label = sample.metadata.get("label")
    shown = [
        ("Context", str(sample.metadata.get("context") or "(none)")),
        ("Statement", str(sample.metadata.get("statement", "(not kept in this log)"))),
        ("Model's explanation", str((score.metadata or {}).get("explanation") or "(none)")),
    ]
    return [
        AuditItem(
            str(sample.id),
            sample.epoch,
            0,
            _VERDICTS[score.answer],
            tuple(shown),
            label=None if label is None else ("factual" if label else "not factual"),
        )  # fmt: skip
    ]


def recompute_f1(items: Sequence[AuditItem], people: Sequence[str | None]) -> tuple[float, float]:
    """The model's F1 (not factual = positive) on the audited statements: against the
    dataset's labels, and against the people's verdicts (where they could tell)."""
    labelled = [i for i in items if i.label is not None]
    ours = binary_f1(
        [i.label == "not factual" for i in labelled], [i.verdict == "not factual" for i in labelled]
    )
    kept = [(i, p) for i, p in zip(items, people, strict=True) if p is not None]
    return ours, binary_f1(
        [p == "not factual" for _, p in kept], [i.verdict == "not factual" for i, _ in kept]
    )


JUDGE_AUDIT = JudgeAudit(
    judge="the model's verdict on each statement",
    question="Is the statement {verdict}, as the model says?",
    focus="Statement",
    items=statement_items,
    opposite={"factual": "not factual", "not factual": "factual"},
    figure="F1 on the audited statements (people's verdicts as the reference)",
    recompute=recompute_f1,
)
