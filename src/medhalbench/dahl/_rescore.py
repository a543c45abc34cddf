"""DAHL's answers judged again from what their log keeps: the checker's stored replies read
by the current verdict reader, calling no model (`medhalbench rescore`)."""

from __future__ import annotations

from collections.abc import Mapping

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from medhalbench.dahl._metrics import DahlScoreMetadata, dahl_metrics, judge_response
from medhalbench.dahl._scorer import _score
from medhalbench.dahl._verdicts import TruthVerdict, parse_truth_verdicts, read_truth_verdict
from medhalbench.dahl._verdicts import unread_reasons as reasons_of

SampleKey = tuple[str | int, int]
"""A sample of a log by its id and epoch."""

_OURS = {"status", "units", "true", "false", "unknown", "length", "category", "precision"}
"""Fields our judgement sets; every other field of the old record is kept as it was."""


def reread(old: DahlScoreMetadata, score_threshold: float | None = None) -> Score | None:
    """An answer's judgement with its checker's replies read again (None: nothing was
    checked, so nothing changes), a score read against the run's threshold."""
    replies, units = old.checker_replies, old.units_text
    if not replies or not units:
        return None
    verdicts: list[TruthVerdict] = (
        [read_truth_verdict(r, score_threshold).verdict or "unknown" for r in replies]
        if len(replies) == len(units)
        else parse_truth_verdicts(replies[0], score_threshold)
    )
    result = judge_response(units, verdicts, length=old.length, category=old.category)
    kept = old.model_dump(exclude=_OURS | {"strict"}, exclude_none=True)
    reasons = reasons_of(replies, len(units), score_threshold)
    kept.update(
        verdicts=verdicts,
        unit_unread_reasons=reasons,
        unit_read_by=["strict" if r is None else None for r in reasons],
        read_by_extractor=0,
    )
    return _score(result, **kept)


def dahl_rereader(old: Mapping[SampleKey, Score], score_threshold: float | None) -> Scorer:
    """DAHL's scorer as a rescoring uses it: each sample's stored checker replies read again.

    Args:
        old: Each sample's score in the log, by id and epoch.
        score_threshold: The run's threshold for a score the checker's prompt asked for.
    """

    # Registered under the task's scorer name only when a rescoring makes it, so that the
    # log's scores and metrics keep their names.
    @scorer(metrics=[dahl_metrics()], name="dahl_factuality")
    def dahl_factuality() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            before = old[(state.sample_id, state.epoch)]
            record = DahlScoreMetadata.model_validate(before.metadata or {})
            return reread(record, score_threshold) or before

        return score

    return dahl_factuality()
