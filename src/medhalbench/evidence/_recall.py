"""Measuring retrieval on one's own questions: recall@k of the document that answers each
question, and MRR@10, with 95% bootstrap intervals over questions."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from medhalbench._errors import DataError
from medhalbench.data import read_records
from medhalbench.evidence._layout import PASSAGES_FILE
from medhalbench.evidence._records import RetrievedPassage
from medhalbench.statistics import (
    BOOTSTRAP_SEED,
    DEFAULT_RESAMPLES,
    estimate,
    mean_figure,
    share_figure,
)

MRR_DEPTH = 10
"""The ranks the reciprocal rank is counted over (MRR@10)."""
_SOURCE_ID = re.compile(rb'"source_id": ("(?:[^"\\]|\\.)*")')


@dataclass(frozen=True)
class RecallQuestion:
    """A question and the document that answers it.

    Attributes:
        question: The question, as a user asks it.
        gold: The id of the document that answers it (as the corpus gives it).
        line: Where the question was read (its line).
    """

    question: str
    gold: str
    line: int | str


def document_ids(folder: str | Path) -> set[str]:
    """The ids of the documents an index folder holds passages of."""
    found: set[str] = set()
    with (Path(folder) / PASSAGES_FILE).open("rb") as f:
        for line in f:
            match = _SOURCE_ID.search(line)
            found.add(json.loads(match.group(1)) if match else json.loads(line)["source_id"])
    return found


class _QuestionRow(BaseModel):
    """A question row as a file gives it: the question and its gold document's id (a list
    of that one id reads as the id)."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    question: str = Field("", validate_default=True)
    gold: Any = Field(None, validate_default=True)

    @field_validator("question")
    @classmethod
    def _question(cls, value: str) -> str:
        if not value:
            raise ValueError(
                "no question (each row holds a question and, as gold, the id of the document "
                "that answers it)"
            )
        return value

    @field_validator("gold", mode="before")
    @classmethod
    def _gold(cls, value: Any) -> str:
        if isinstance(value, list) and len(value) == 1:
            value = value[0]
        if isinstance(value, list):
            raise ValueError(f"one gold document per question (got {len(value)})")
        if isinstance(value, bool) or not isinstance(value, str | int) or not str(value).strip():
            raise ValueError(
                "no gold document id (the id of the document that answers the question, as "
                "the corpus gives it)"
            )
        return str(value).strip()


def read_questions(
    path: str | Path, *, documents: Collection[str] | None = None
) -> list[RecallQuestion]:
    """Questions with the id of the document that answers each (`question`, `gold`), from
    JSONL, JSON, CSV or Parquet rows.

    Args:
        path: The file.
        documents: The documents the index holds: a gold id among none of them is refused.

    Raises:
        DataError: A missing or malformed file, a row without question or gold, or a gold
            id the index does not hold (naming the file, the line and the field).
    """
    questions = []
    for line, read in read_records(_QuestionRow, path):
        question, gold = read.question, read.gold
        if documents is not None and gold not in documents:
            raise DataError(
                f"gold {gold!r} is no document of the index (ids as the corpus gives them, "
                f"e.g. {min(documents)!r})"
                if documents
                else f"gold {gold!r} is no document of the index",
                path=path, line=line, field="gold",
            )  # fmt: skip
        questions.append(RecallQuestion(question, gold, line))
    return questions


def gold_ranks(
    found: Sequence[Sequence[RetrievedPassage]], gold: Sequence[str]
) -> list[int | None]:
    """The rank of each question's first passage from its gold document (None: not found)."""
    return [
        next((h.rank for h in hits if h.passage.source_id == g), None)
        for hits, g in zip(found, gold, strict=True)
    ]


def recall_figures(
    found: Sequence[Sequence[RetrievedPassage]],
    gold: Sequence[str],
    ks: Sequence[int] = (1, 5, 10),
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, float]:
    """Recall@k (the share of questions with a passage of their gold document among the k
    best) and MRR@10 (the mean of 1/rank of that passage, 0 past rank 10), each with its
    95% bootstrap interval over questions (`<name>_ci_low`, `<name>_ci_high`), and `n`.

    Args:
        found: Each question's passages, best first (at least max(ks) and 10 asked for).
        gold: Each question's gold document id.
        ks: The k of each recall.
        resamples: Bootstrap resamples (0: no intervals).
        seed: The bootstrap's seed.
    """
    ranks = gold_ranks(found, gold)
    questions = range(len(ranks))
    figures = [
        share_figure(f"recall@{k}", questions, [r is not None and r <= k for r in ranks])
        for k in ks
    ]
    reciprocal = [1.0 / r if r is not None and r <= MRR_DEPTH else 0.0 for r in ranks]
    figures.append(mean_figure(f"mrr@{MRR_DEPTH}", questions, reciprocal, [True] * len(ranks)))
    return {**estimate(figures, resamples=resamples, seed=seed), "n": float(len(ranks))}
