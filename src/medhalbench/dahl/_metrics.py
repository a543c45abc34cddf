"""DAHL's figures: score arithmetic (atomic units, per-response factual precision and its mean,
with exclusions, the paper's own rule beside ours, intervals over questions), and the inspect
metric reporting every figure with the reducer that keeps each epoch's response (figures over
responses, intervals over questions)."""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

import pydantic
from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    ScoreReducer,
    Value,
    metric,
    score_reducer,
)

from medhalbench.dahl._benchmark import dahl_benchmark
from medhalbench.dahl._paper import PaperResponse
from medhalbench.dahl._verdicts import TruthVerdict
from medhalbench.outputs import PaperText
from medhalbench.results import FigureSet, RunRecord, chosen_figures
from medhalbench.statistics import BOOTSTRAP_SEED, DEFAULT_RESAMPLES, Figure, estimate, mean_figure
from medhalbench.text import split_sentences

ResponseStatus = Literal["scored", "declined", "no_units", "unknown_unit", "mismatch"]
EPOCHS = "epochs"
"""The score metadata key of a run of several epochs: each epoch's answer record."""
EXCLUSIONS: tuple[ResponseStatus, ...] = ("declined", "no_units", "unknown_unit", "mismatch")

_LIST_MARKER = re.compile(r"^\s*(?:[-*•]+(?=\s)|\d+[.)]|\(\d+\))\s*")
_HEADER = re.compile(r"^\s*(?:sentences|separated sentences|facts?)\s*:\s*$", re.IGNORECASE)
_MARKDOWN = re.compile(r"\*\*|__|`|^#+\s*|(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)")


@dataclass(frozen=True)
class UnitSplit:
    """The atomic units read from a splitter's reply, with what normalising them changed.

    Attributes:
        units: One fact per unit.
        markdown_stripped: Units whose markdown (`**bold**`, headers, code marks) was removed.
        sentences_split: Extra units made by splitting lines that held several sentences.
        list_intros_dropped: Lines dropped because they only introduce a list ("These
            feelings can lead to:").
    """

    units: list[str] = field(default_factory=list)
    markdown_stripped: int = 0
    sentences_split: int = 0
    list_intros_dropped: int = 0


def normalise_units(splitter_output: str, *, normalise: bool = True) -> UnitSplit:
    """Atomic units from the splitter's reply: one per non-blank line, without list markers
    or a "SENTENCES:" header. With `normalise` (the default), also without markdown; a line
    of several sentences gives one unit each; a line that only introduces a list (ends with
    ":") is no unit. Blank lines are not units."""
    units: list[str] = []
    markdown = split = intros = 0
    for line in splitter_output.splitlines():
        if not line.strip() or _HEADER.match(line):
            continue
        unit = _LIST_MARKER.sub("", line).strip()
        if not normalise:
            units += [unit] if unit else []
            continue
        plain = _MARKDOWN.sub("", unit).strip()
        markdown += plain != unit
        if not plain:
            continue
        if plain.endswith(":"):
            intros += 1
            continue
        sentences = split_sentences(plain)
        split += len(sentences) - 1
        units += sentences
    return UnitSplit(units, markdown, split, intros)


@dataclass(frozen=True)
class ResponseScore:
    """The judgement of one response.

    Attributes:
        status: `scored`, or why the response is left out of the DAHL score.
        units: Number of atomic units.
        true: Units judged true.
        false: Units judged false.
        unknown: Units judged neither.
        length: Characters in the (cleaned) response.
        category: The question's category.
    """

    status: ResponseStatus
    units: int
    true: int
    false: int
    unknown: int
    length: int
    category: str

    @property
    def precision(self) -> float | None:
        """True units over all units, for a scored response."""
        return self.true / self.units if self.status == "scored" and self.units else None


@dataclass(frozen=True)
class JudgedResponse:
    """One response's judgements: ours, the authors' (their pipeline on the same answer),
    and ours without the extractor's readings.

    Attributes:
        ours: Our judgement.
        paper: The authors' pipeline's (None when the run did not compute it).
        strict: Ours without the units only the extractor could read (None: it read none).
    """

    ours: ResponseScore
    paper: PaperResponse | None = None
    strict: ResponseScore | None = None


def judge_response(
    units: Sequence[str], verdicts: Sequence[TruthVerdict], *, length: int, category: str
) -> ResponseScore:
    """Combine a response's units and the checker's verdicts into its score."""
    true = sum(v == "true" for v in verdicts)
    false = sum(v == "false" for v in verdicts)
    unknown = len(verdicts) - true - false
    status: ResponseStatus
    if not units:
        status = "no_units"
    elif len(verdicts) != len(units):
        status = "mismatch"
    elif unknown:
        status = "unknown_unit"
    else:
        status = "scored"
    return ResponseScore(status, len(units), true, false, unknown, length, category)


def excluded_response(status: ResponseStatus, *, length: int, category: str) -> ResponseScore:
    """A response left out before any unit was checked (declined, or nothing to split)."""
    return ResponseScore(status, 0, 0, 0, 0, length, category)


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else math.nan


def _score_figure(
    name: str, questions: Sequence[Hashable], responses: Sequence[ResponseScore]
) -> Figure:
    return mean_figure(
        name, questions, [r.precision or 0.0 for r in responses],
        [r.status == "scored" for r in responses],
    )  # fmt: skip


def dahl_figures(judged: Sequence[JudgedResponse], questions: Sequence[Hashable]) -> list[Figure]:
    """The DAHL figures that get intervals over questions: `dahl_score`, `paper_dahl_score`
    (the authors' score of good responses, where computed), `strict_dahl_score` (without
    the extractor's readings, where it read any) and `category/<name>`."""
    responses = [j.ours for j in judged]
    scored = [r.status == "scored" for r in responses]
    precision = [r.precision or 0.0 for r in responses]
    figures = [_score_figure("dahl_score", questions, responses)]
    if any(j.paper is not None for j in judged):
        figures.append(
            mean_figure(
                "paper_dahl_score", questions, [j.paper.score if j.paper else 0.0 for j in judged],
                [j.paper is not None and j.paper.good for j in judged],
            )
        )  # fmt: skip
    if any(j.strict is not None for j in judged):
        figures.append(
            _score_figure("strict_dahl_score", questions, [j.strict or j.ours for j in judged])
        )
    for category in sorted({r.category for r in responses}):
        figures.append(
            mean_figure(
                f"category/{category}", questions, precision,
                [s and r.category == category for s, r in zip(scored, responses, strict=True)],
            )
        )  # fmt: skip
    return figures


class DahlScoreMetadata(pydantic.BaseModel):
    """One answer's judgement as its score's metadata keeps it (a list of them, one per epoch,
    under `epochs` for a run of several epochs): what the scorer writes and every reader of
    a DAHL log reads (metrics, units, audit).

    Attributes:
        status: `scored`, or why the answer is left out of the DAHL score.
        units: Number of atomic units.
        true: Units judged true.
        false: Units judged false.
        unknown: Units judged neither.
        length: Characters in the cleaned answer.
        category: The question's category.
        precision: True units over units, for a scored answer.
        cleaned_response: The answer after cleaning.
        removed_instruction: Whether an echo of an instruction was removed (the one the
            model was given, and the authors' with `answer_instruction.txt`).
        removed_question: Whether an echo of the question was removed.
        removed_repeats: Repeated sentences removed.
        removed_truncated: The cut-off last sentence dropped, if any.
        removed_declines: Sentences removed because they only decline.
        splitter_reply: The splitter's reply.
        units_text: The atomic units.
        verdicts: The checker's verdict on each unit.
        unit_read_by: Who read each verdict (`strict`, `extractor`, or None).
        unit_unread_reasons: Why the strict reader read no verdict from each unit's reply
            (None where it read one), kept where the extractor then read one.
        read_by_extractor: Units only the extractor could read.
        p_false: P(false) of each unit, where the checker gave log-probabilities.
        checker_replies: The checker's replies (one per unit, or one for a batch).
        units_markdown_stripped: Units whose markdown was stripped.
        units_split: Units split in two or more.
        list_intros_dropped: List introductions dropped.
        unit_passages: The passages each unit was checked against (a grounded checker).
        strict: The judgement without the extractor's readings (where it read any).
        paper: The authors' pipeline's judgement of the same answer.
        paper_cleaned_response: The answer as their cleaning leaves it.
        paper_splitter_reply: The splitter's reply to their prompt.
        paper_units: Their units.
        paper_checker_replies: The checker's replies to their prompt.
        paper_prompts: Which of their prompts were given (the rest: ours in their place).
        paper_unit_passages: The passages each of their units was checked against.
        paper_text: What their pipeline read of each reply: its text as sent, or (a reply
            whose text was not kept, None in older logs) the completion.
    """

    model_config = pydantic.ConfigDict(frozen=True, extra="ignore")

    status: ResponseStatus = "no_units"
    units: int = 0
    true: int = 0
    false: int = 0
    unknown: int = 0
    length: int = 0
    category: str = ""
    precision: float | None = None
    cleaned_response: str | None = None
    removed_instruction: bool = False
    removed_question: bool = False
    removed_repeats: int = 0
    removed_truncated: str | None = None
    removed_declines: int = 0
    splitter_reply: str | None = None
    units_text: list[str] = pydantic.Field(default_factory=list)
    verdicts: list[TruthVerdict | None] = pydantic.Field(default_factory=list)
    unit_read_by: list[str | None] = pydantic.Field(default_factory=list)
    unit_unread_reasons: list[str | None] = pydantic.Field(default_factory=list)
    read_by_extractor: int = 0
    p_false: list[float | None] | None = None
    checker_replies: list[str] = pydantic.Field(default_factory=list)
    units_markdown_stripped: int = 0
    units_split: int = 0
    list_intros_dropped: int = 0
    unit_passages: list[list[dict[str, Any]]] | None = None
    strict: ResponseScore | None = None
    paper: PaperResponse | None = None
    paper_cleaned_response: str | None = None
    paper_splitter_reply: str | None = None
    paper_units: list[str] | None = None
    paper_checker_replies: list[str] | None = None
    paper_prompts: list[str] | None = None
    paper_unit_passages: list[list[dict[str, Any]]] | None = None
    paper_text: PaperText | None = None

    @classmethod
    def of(cls, result: ResponseScore, **details: Any) -> DahlScoreMetadata:
        """An answer's record from our judgement and what else the scorer keeps (each by its
        field's name)."""
        unknown = set(details) - set(cls.model_fields)
        if unknown:  # a misspelt detail would be dropped silently on reading
            raise TypeError(f"not a field of DahlScoreMetadata: {', '.join(sorted(unknown))}")
        return cls(**asdict(result), precision=result.precision, **details)

    @property
    def judged(self) -> JudgedResponse:
        """The judgements the figures are computed from."""
        ours = ResponseScore(
            self.status, self.units, self.true, self.false, self.unknown, self.length,
            self.category,
        )  # fmt: skip
        strict = replace(self.strict, category=self.category) if self.strict else None
        return JudgedResponse(ours=ours, paper=self.paper, strict=strict)

    def stored(self) -> dict[str, Any]:
        """The record as score metadata (what is not set left out)."""
        return self.model_dump(mode="json", exclude_none=True)


def answers_of(score: Score) -> list[DahlScoreMetadata]:
    """The record of each answer behind a sample's score (one per epoch)."""
    metadata = score.metadata or {}
    kept = metadata[EPOCHS] if EPOCHS in metadata else [metadata]
    return [DahlScoreMetadata.model_validate(m) for m in kept]


def dahl_scores(
    judged: Sequence[JudgedResponse],
    questions: Sequence[Hashable] | None = None,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, float]:
    """The DAHL figures of a set of judged responses.

    Args:
        judged: The judged responses.
        questions: Each response's question (the unit resampled for intervals; several
            responses of one question, e.g. epochs, move together). Default: one each.
        resamples: Bootstrap resamples for the 95% intervals (0: none).
        seed: Seed of the resampling.

    Returns:
        `dahl_score` (mean precision over scored responses), `paper_dahl_score` (the
        authors' pipeline: mean score of its good responses, those with no unit scoring 0)
        and `strict_dahl_score` (where computed), each with `_ci_low`/`_ci_high`;
        `responses`, `scored`, `excluded` and `excluded_<kind>` counts, `paper_good`;
        `mean_units` and `mean_length` (characters) over scored responses;
        `category/<name>` scores with intervals and `category/<name>/scored` (the scored
        responses each is over). Undefined figures (nothing scored) are NaN.
    """
    responses = [j.ours for j in judged]
    clusters = list(questions) if questions is not None else list(range(len(responses)))
    values = estimate(dahl_figures(judged, clusters), resamples=resamples, seed=seed)
    kept = [r for r in responses if r.status == "scored"]
    counts: dict[str, float] = {
        "responses": float(len(responses)),
        "scored": float(len(kept)),
        "excluded": float(len(responses) - len(kept)),
    }
    for kind in EXCLUSIONS:
        counts[f"excluded_{kind}"] = float(sum(r.status == kind for r in responses))
    if any(j.paper is not None for j in judged):
        counts["paper_good"] = float(sum(j.paper is not None and j.paper.good for j in judged))
    for category in sorted({r.category for r in responses}):  # n of each category's score
        counts[f"category/{category}/scored"] = float(sum(r.category == category for r in kept))
    counts["mean_units"] = _mean([r.units for r in kept])
    counts["mean_length"] = _mean([r.length for r in kept])
    return {**counts, **values}


@score_reducer(name="dahl_epochs")
def dahl_epochs() -> ScoreReducer:
    """Keep every epoch's response: the value is the mean precision over scored epochs and
    the metadata lists each epoch's judgement, so that the metric counts every response."""

    def reduce(scores: list[Score]) -> Score:
        answers = [a for s in scores for a in answers_of(s)]
        precisions = [a.precision for a in answers if a.precision is not None]
        value = math.fsum(precisions) / len(precisions) if precisions else 0.0
        return Score(
            value=value,
            explanation=f"{len(precisions)} of {len(scores)} epochs scored",
            metadata={EPOCHS: [a.stored() for a in answers]},
        )

    return reduce


def judged_responses(scores: Sequence[SampleScore]) -> tuple[list[JudgedResponse], list[Any]]:
    """Every response behind the scores (one per epoch) and its question."""
    responses, questions = [], []
    for sample_score in scores:
        for answer in answers_of(sample_score.score):
            responses.append(answer.judged)
            questions.append(sample_score.sample_id)
    return responses, questions


def headline_figures(scores: Sequence[SampleScore], record: RunRecord) -> list[Figure]:
    """The figures a comparison of two runs reports (over questions; the same whatever the run's
    settings, `record`)."""
    responses, questions = judged_responses(scores)
    return [f for f in dahl_figures(responses, questions) if f.name in dahl_benchmark.headline]


@metric
def dahl_metrics(
    resamples: int = DEFAULT_RESAMPLES, seed: int = BOOTSTRAP_SEED, figures: FigureSet = "all"
) -> Metric:
    """DAHL score (ours and the paper's rule) with 95% intervals over questions, exclusion
    counts, mean units and length, per-category scores, and what cleaning changed: every
    figure, or the headline ones (`FigureSet`)."""

    def compute(scores: list[SampleScore]) -> Value:
        responses, questions = judged_responses(scores)
        answers = [a for s in scores for a in answers_of(s.score)]
        changes = {
            "removed_declines": float(sum(a.removed_declines for a in answers)),
            "units_markdown_stripped": float(sum(a.units_markdown_stripped for a in answers)),
            "units_split": float(sum(a.units_split for a in answers)),
            "list_intros_dropped": float(sum(a.list_intros_dropped for a in answers)),
            "read_by_extractor": float(sum(a.read_by_extractor for a in answers)),
        }
        return chosen_figures(
            figures,
            dahl_benchmark.headline,
            lambda n: {**dahl_scores(responses, questions, resamples=n, seed=seed), **changes},
            resamples,
        )

    return compute
