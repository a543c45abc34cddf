"""DAHL's data: question and answer records (`question, category`; `question, response`) and
loading the questions (the published `questions.csv` or our builder's output)."""

from __future__ import annotations

import random
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from medhalbench._errors import DataError, ResourceUnavailableError
from medhalbench.data import (
    AS_WRITTEN,
    LOWERED,
    TEXT_OR_NONE,
    Record,
    read_records,
    read_rows,
    read_url,
)
from medhalbench.outputs import GIVEN_OUTPUT


class DahlQuestion(Record):
    """A DAHL benchmark question (`question, category`), optionally with the paper it came from."""

    question: str = Field(min_length=1)
    category: Annotated[str, LOWERED] = Field(min_length=1)
    paper_id: Annotated[str | None, TEXT_OR_NONE] = None


class DahlResponse(Record):
    """An answer to a DAHL question written elsewhere, to be scored without generating."""

    question: str = Field(min_length=1)
    response: Annotated[str, AS_WRITTEN]
    category: str | None = None
    id: str | None = None

    @field_validator("category", "id", mode="before")
    @classmethod
    def _optional_text(cls, value: Any) -> Any:
        return str(value).strip().lower() if value not in (None, "") else None


class DahlSampleMetadata(BaseModel):
    """What a DAHL sample's metadata holds.

    Attributes:
        question: The question.
        category: Its category (`uncategorised` for an answer to a question the dataset
            lacks).
        paper_id: The paper it was written from, where known.
        response: An answer written elsewhere, scored instead of generating.
    """

    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)

    question: str = ""
    category: str = ""
    paper_id: str | None = None
    response: str | None = Field(default=None, alias=GIVEN_OUTPUT)

    def stored(self) -> dict[str, Any]:
        """The record as sample metadata."""
        return self.model_dump(by_alias=True, exclude_none=True)


# The authors' questions.csv is fetched at this commit unless the source names one
# (`github@COMMIT`).
DAHL_QUESTIONS_COMMIT = "7a3c67dc341f658c5b63d80625f65a41df7847e0"
DAHL_QUESTIONS_URL = "https://raw.githubusercontent.com/seemdog/DAHL/{commit}/questions.csv"
DAHL_CATEGORIES = (
    "anaesthesia", "anatomy", "bio-statistics", "biochemistry", "cardiology",
    "community medicine", "dental", "dermatology", "ent", "forensic medicine", "genetics",
    "immunology", "medicine", "microbiology", "neurology", "obstetrics gynaecology", "oncology",
    "ophthalmology", "orthopaedics", "pathology", "pediatrics", "pharmacology", "physiology",
    "preventive and social medicine", "psychiatry", "public health", "radiology", "statistics",
    "surgery",
)  # fmt: skip
"""The 29 category names used in DAHL's published questions.csv."""


def _download(url: str) -> Path:
    try:
        data = read_url(url, seconds=120, max_bytes=256 * 1024**2)
    except OSError as ex:
        raise ResourceUnavailableError(
            f"Could not download DAHL's questions from {url} ({ex}). "
            "Pass a local path to questions.csv instead."
        ) from None
    handle = tempfile.NamedTemporaryFile("wb", suffix=".csv", delete=False)
    with handle:
        handle.write(data)
    return Path(handle.name)


def stratified_sample(
    questions: Sequence[DahlQuestion], fraction: float, *, seed: int = 42
) -> list[DahlQuestion]:
    """Keep a seeded fraction of the questions with the same category distribution.

    The total is `round(len * fraction)`, shared out by largest remainder, so categories
    too small for a whole question at this fraction get one only when the remainders say so.

    Raises:
        DataError: `fraction` is not in (0, 1].
    """
    if not 0 < fraction <= 1:
        raise DataError(f"sample fraction must be in (0, 1], got {fraction}", field="sample")
    rng = random.Random(seed)
    by_category: dict[str, list[DahlQuestion]] = defaultdict(list)
    for q in questions:
        by_category[q.category].append(q)
    total = max(1, round(len(questions) * fraction))
    exact = {c: len(qs) * fraction for c, qs in by_category.items()}
    counts = {c: int(v) for c, v in exact.items()}
    order = sorted(exact, key=lambda c: (exact[c] - counts[c], rng.random()), reverse=True)
    for category in order[: total - sum(counts.values())]:
        counts[category] += 1
    chosen: list[DahlQuestion] = []
    for category in sorted(by_category):
        chosen.extend(rng.sample(by_category[category], counts[category]))
    rng.shuffle(chosen)
    return chosen


def load_dahl_questions(
    source: str | Path,
    *,
    categories: Sequence[str] | None = None,
    sample: float | None = None,
    seed: int = 42,
    limit: int | None = None,
) -> list[DahlQuestion]:
    """Load DAHL questions.

    Args:
        source: A CSV or JSONL with `question, category` (and optional `paper_id`), or
            `github` for the authors' published file at `DAHL_QUESTIONS_COMMIT` (needs the
            internet; `github@COMMIT` fetches another commit).
        categories: Keep only these categories (case-insensitive).
        sample: Keep this seeded fraction, stratified by category (the paper used 0.1).
        seed: Seed of the sample.
        limit: Keep at most this many questions (after filtering and sampling).

    Raises:
        DataError: Bad input, naming file, line and field.
        ResourceUnavailableError: `github` while offline.
    """
    name, _, commit = str(source).partition("@")
    if name == "github" and not Path(str(source)).exists():
        path = _download(DAHL_QUESTIONS_URL.format(commit=commit or DAHL_QUESTIONS_COMMIT))
    else:
        path = Path(source)
    questions = [q for _, q in read_records(DahlQuestion, source, rows=read_rows(path))]
    if categories:
        wanted = {c.strip().lower() for c in categories}
        held = sorted({q.category for q in questions if q.category})
        questions = [q for q in questions if q.category in wanted]
        if not questions:
            raise DataError(
                f"--categories {', '.join(sorted(wanted))}: no question of the file is in them "
                f"(its categories: {', '.join(held) or 'none'})",
                path=source,
            )
    if sample is not None:
        questions = stratified_sample(questions, sample, seed=seed)
    if limit is not None:
        questions = questions[:limit]
    return questions
