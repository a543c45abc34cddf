"""People checking DAHL's judges: the blind audit of the reader, extractor, splitter and checker,
unit by unit, and the agreement of automated judgements with human ones (the paper's
validation)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from inspect_ai.log import EvalSample
from pydantic import Field, model_validator

from medhalbench._errors import DataError
from medhalbench.audit import AUDIT_SUFFIX, AuditAnswer
from medhalbench.dahl._dataset import DahlSampleMetadata
from medhalbench.dahl._metrics import DahlScoreMetadata
from medhalbench.dahl._scorer import dahl_factuality
from medhalbench.dahl._settings import AgreementRequest
from medhalbench.dahl._task import dahl
from medhalbench.data import Record, read_records
from medhalbench.evidence import logged_passages_text
from medhalbench.registry import (
    AuditFigure,
    AuditItem,
    AuditQuestion,
    AuditRole,
    JudgeAudit,
    RoleModels,
    reading_item,
    reading_roles,
    registered_name,
)
from medhalbench.results import RunRecord, benchmark_name, read_log, sample_score

EVIDENCE_HEADING = "Passages the checker was given"
TRUE, FALSE, NO_VERDICT = "true", "false", "unknown or unreadable"
YES, NO = "yes", "no"
ASKED = "Is this statement true or false?"


ROLES: dict[AuditRole, str] = {
    **reading_roles("each checker's reply"),
    "splitter": "each atomic unit the splitter wrote: stated in the answer, one fact, no repeat",
    "checker": "the checker's verdict on each atomic unit",
}
"""Whose judgements a person audits in a DAHL run, and what each judges."""


def items(sample: EvalSample, record: RunRecord) -> list[AuditItem]:
    """Each atomic unit's splitter item and, where it was checked, its reader (or
    extractor) item and, where the checker said true or false, its checker item."""
    score = sample_score(sample)
    judged = DahlScoreMetadata.model_validate((score.metadata if score else None) or {})
    answer = judged.cleaned_response or (sample.output.completion if sample.output else "")
    question = sample.metadata_as(DahlSampleMetadata).question
    units, verdicts, replies = judged.units_text, judged.verdicts, judged.checker_replies
    read_by, unread = judged.unit_read_by, judged.unit_unread_reasons
    # A grounded run keeps each unit's passages: shown beside the unit, as the checker read them.
    passages = judged.unit_passages or []
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
                revealed=(("The splitter's reply", judged.splitter_reply or ""),),
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
                reading_item(
                    sample, position, "checker", (f"{ASKED}\n{unit}", str(replies[position - 1])),
                    (TRUE, FALSE, NO_VERDICT), reading, extracted=extracted,
                    reason=(unread[position - 1] or "") if position <= len(unread) else "",
                )
            )  # fmt: skip
        if verdict in (TRUE, FALSE):
            found.append(
                AuditItem.of_verdict(
                    sample, position, "checker", ("Is this atomic unit true or false?", (TRUE, FALSE), verdict),
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
    ROLES,
    items,
    AuditFigure("Factual precision of the audited units", "checker", recompute_precision),
)


class HumanJudgement(Record):
    """One human-judged response: matched to the log by `id` (the sample id) or `question`.

    `human_units` atomic facts were found by the annotator, `human_true` of them true.
    """

    id: str | None = None
    question: str | None = None
    human_true: int = Field(ge=0)
    human_units: int = Field(ge=1)

    @model_validator(mode="after")
    def _has_key(self) -> HumanJudgement:
        if not self.id and not self.question:
            raise ValueError("needs an id or a question")
        if self.human_true > self.human_units:
            raise ValueError("human_true exceeds human_units")
        return self


@dataclass(frozen=True)
class Agreement:
    """Pearson correlation of per-response precision, and a paired t-test on units.

    A statistic that is undefined is NaN, with the reason in `pearson_undefined` or
    `units_undefined` (a constant series has no correlation; units equal in every pair
    leave the t-test nothing to test).
    """

    pairs: int
    unmatched: int
    pearson_r: float
    pearson_p: float
    mean_auto_units: float
    mean_human_units: float
    units_t: float
    units_p: float
    pearson_undefined: str | None = None
    units_undefined: str | None = None

    def summary(self) -> list[str]:
        """The agreement, as lines."""
        pearson = (
            f"undefined ({self.pearson_undefined})"
            if self.pearson_undefined
            else f"{self.pearson_r:.3f} (p = {self.pearson_p:.3g})"
        )
        units = (
            f"paired t undefined ({self.units_undefined})"
            if self.units_undefined
            else f"paired t = {self.units_t:.3f} (p = {self.units_p:.3g})"
        )
        return [
            f"Matched responses: {self.pairs} (unmatched human rows: {self.unmatched})",
            f"Pearson r (precision, automated vs human): {pearson}",
            f"Units per response: automated {self.mean_auto_units:.2f}, human "
            f"{self.mean_human_units:.2f}; {units}",
        ]


def run_agreement(request: AgreementRequest, models: RoleModels) -> Agreement:
    """`medhalbench dahl agreement`."""
    return dahl_agreement(request.auto, request.human)


def human_judgements(path: str | Path) -> list[HumanJudgement]:
    """The rows of a human judgements file (CSV/JSONL)."""
    return [judgement for _, judgement in read_records(HumanJudgement, path)]


def audit_judgements(path: str | Path) -> list[HumanJudgement]:
    """Human judgements from a `medhalbench audit` answer file: per response, the units the
    people checked and could tell (`human_units`) and those they hold true (`human_true`),
    from their answers on the checker's items (blind answers, and answers saved before
    audits had roles)."""
    tallies: dict[str, list[int]] = {}
    opposite = {"true": "false", "false": "true"}
    for _, answer in read_records(AuditAnswer, path):
        if answer.legacy:
            held = {"agree": answer.verdict, "disagree": opposite.get(answer.verdict or "")}
            verdict = held.get(answer.answer or "")
            sample = answer.key.split("/")[0]
        elif answer.role == "checker":
            verdict = answer.answers.get("verdict")
            sample = answer.key.split("/")[1]
        else:
            continue
        if verdict not in ("true", "false"):
            continue
        tally = tallies.setdefault(sample, [0, 0])
        tally[0] += verdict == "true"
        tally[1] += 1
    return [
        HumanJudgement(id=sample, human_true=true, human_units=units)
        for sample, (true, units) in tallies.items()
    ]


def dahl_agreement(log_path: str | Path, human_path: str | Path) -> Agreement:
    """Compare a DAHL log's scored responses with human judgements.

    Args:
        log_path: An inspect log of the `dahl` task.
        human_path: CSV or JSONL with `id` or `question`, `human_true`, `human_units`; or
            the answers of `medhalbench audit` on the log (`run.audit.jsonl` beside `run.eval`).

    Raises:
        DataError: Bad human file, or fewer than 3 matched scored responses.
    """
    from scipy import stats

    log = read_log(log_path)
    if benchmark_name(log.eval.task) != registered_name(dahl):
        raise DataError("not a DAHL log", path=log_path)
    auto: dict[str, tuple[float, int]] = {}
    for sample in log.samples or []:
        score = sample.scores.get(registered_name(dahl_factuality)) if sample.scores else None
        judged = DahlScoreMetadata.model_validate((score.metadata if score else None) or {})
        if judged.status != "scored" or judged.precision is None:
            continue
        value = (judged.precision, judged.units)
        auto[str(sample.id)] = value
        auto[sample.metadata_as(DahlSampleMetadata).question.strip()] = value
    pairs: list[tuple[float, float, int, int]] = []
    unmatched = 0
    audit = str(human_path).endswith(AUDIT_SUFFIX)
    for h in audit_judgements(human_path) if audit else human_judgements(human_path):
        found = auto.get(h.id or "") or auto.get((h.question or "").strip())
        if found is None:
            unmatched += 1
            continue
        pairs.append((found[0], h.human_true / h.human_units, found[1], h.human_units))
    if len(pairs) < 3:
        raise DataError(
            f"only {len(pairs)} human judgements match scored responses in the log (need 3)",
            path=human_path,
        )
    auto_p, human_p, auto_u, human_u = (list(x) for x in zip(*pairs, strict=True))
    nan = float("nan")
    constant = [
        name for name, xs in (("automated", auto_p), ("human", human_p)) if len(set(xs)) == 1
    ]
    pearson_undefined = (
        f"the {' and '.join(constant)} precision is the same for every response"
        if constant
        else None
    )
    r, p = (nan, nan) if pearson_undefined else stats.pearsonr(auto_p, human_p)
    differences = {a - h for a, h in zip(auto_u, human_u, strict=True)}
    units_undefined = (
        "an audit checks the checker's units, it does not count units of its own"
        if audit
        else "the automated and human unit counts differ by the same amount in every pair"
        if len(differences) == 1
        else None
    )
    t, tp = (nan, nan) if units_undefined else stats.ttest_rel(auto_u, human_u)
    return Agreement(
        pairs=len(pairs),
        unmatched=unmatched,
        pearson_r=float(r),
        pearson_p=float(p),
        mean_auto_units=sum(auto_u) / len(auto_u),
        mean_human_units=sum(human_u) / len(human_u),
        units_t=float(t),
        units_p=float(tp),
        pearson_undefined=pearson_undefined,
        units_undefined=units_undefined,
    )
