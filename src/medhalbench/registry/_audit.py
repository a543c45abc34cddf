"""What a benchmark offers a person auditing its judge: the judged items of a sample, the
question put to the person, and the run's figure recomputed with the person's verdicts."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from inspect_ai.log import EvalSample


@dataclass(frozen=True)
class AuditItem:
    """One judgement a person can check.

    Attributes:
        sample_id: The sample's id.
        epoch: The sample's epoch.
        unit: The judged part's position in the sample (a DAHL unit, from 1); 0 for a
            whole sample.
        verdict: The judge's verdict (a class name: `true`, `hallucinated`, `YES`, ...).
        shown: What the person sees, as (heading, text) pairs in order.
        label: The dataset's label, where the figure needs it (MedHallu, MedHal).
    """

    sample_id: str
    epoch: int
    unit: int
    verdict: str
    shown: tuple[tuple[str, str], ...]
    label: str | None = None

    @property
    def key(self) -> str:
        """The item's name in answer files: `sample/epoch/unit`."""
        return f"{self.sample_id}/{self.epoch}/{self.unit}"


@dataclass(frozen=True)
class JudgeAudit:
    """How a benchmark's judge is audited.

    Attributes:
        judge: What is audited, for headings ("the checker's verdict on each atomic unit").
        question: The question put to the person, with `{verdict}` for the judge's verdict.
        focus: The heading of the shown part the verdict is on (highlighted).
        items: The judged items of one sample of a log (none where nothing was judged).
        opposite: The other verdict of a two-way judgement: a person who disagrees with a
            verdict found here holds its opposite; other verdicts (unknown, not sure) have
            none.
        figure: The name of the figure `recompute` gives.
        recompute: The figure on some items: as the run computed it, and with the
            people's verdicts (None where the person could not tell) in the judge's place.
    """

    judge: str
    question: str
    focus: str
    items: Callable[[EvalSample], list[AuditItem]]
    opposite: Mapping[str, str]
    figure: str
    recompute: Callable[[Sequence[AuditItem], Sequence[str | None]], tuple[float, float]]
