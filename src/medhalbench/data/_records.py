"""Typed records that keep the published datasets' field names on import and export."""

from __future__ import annotations

import ast
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")

FinalDecision = Literal["yes", "no", "maybe"]


def _text_list(value: Any) -> Any:
    """Accept a list of strings, a string holding a Python/JSON list, or a plain string."""
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            try:
                parsed = ast.literal_eval(stripped)
            except (ValueError, SyntaxError):
                return [value]
            if isinstance(parsed, list):
                return parsed
        return [value]
    if value is not None and not isinstance(value, list) and hasattr(value, "tolist"):
        return value.tolist()  # numpy arrays from Parquet
    return value


class _Record(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="allow", str_strip_whitespace=True)

    def to_published(self) -> dict[str, Any]:
        """The record as a dict with the published field names (extras kept)."""
        return self.model_dump(by_alias=True, exclude_none=True)


class MedHalluRecord(_Record):
    """A MedHallu row: a PubMedQA question with its true and hallucinated answers."""

    question: str = Field(alias="Question", min_length=1)
    knowledge: list[str] = Field(alias="Knowledge")
    ground_truth: str = Field(alias="Ground Truth", min_length=1)
    difficulty: Difficulty = Field(alias="Difficulty Level")
    hallucinated_answer: str = Field(alias="Hallucinated Answer", min_length=1)
    category: str = Field(alias="Category of Hallucination", min_length=1)
    pubid: str | None = None

    @field_validator("knowledge", mode="before")
    @classmethod
    def _knowledge_list(cls, value: Any) -> Any:
        return _text_list(value)

    @field_validator("difficulty", mode="before")
    @classmethod
    def _difficulty_lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("pubid", mode="before")
    @classmethod
    def _pubid_text(cls, value: Any) -> Any:
        return str(value) if value is not None else None

    @property
    def knowledge_text(self) -> str:
        """The knowledge passages joined into one context."""
        return "\n".join(k for k in self.knowledge if k)


class PubMedQARecord(_Record):
    """A PubMedQA PQA-L entry, with the field names of `ori_pqal.json`."""

    pubid: str
    question: str = Field(alias="QUESTION", min_length=1)
    contexts: list[str] = Field(alias="CONTEXTS", min_length=1)
    labels: list[str] = Field(alias="LABELS", default_factory=list)
    meshes: list[str] = Field(alias="MESHES", default_factory=list)
    year: str | None = Field(alias="YEAR", default=None)
    final_decision: FinalDecision = Field(alias="final_decision")
    long_answer: str = Field(alias="LONG_ANSWER", min_length=1)

    @field_validator("contexts", "labels", "meshes", mode="before")
    @classmethod
    def _lists(cls, value: Any) -> Any:
        return _text_list(value)

    @field_validator("pubid", "year", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        return str(value) if value is not None else None

    @field_validator("final_decision", mode="before")
    @classmethod
    def _decision_lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @property
    def context_text(self) -> str:
        """The abstract's context passages joined into one text."""
        return "\n".join(self.contexts)


class DahlQuestion(_Record):
    """A DAHL benchmark question (`question, category`), optionally with the paper it came from."""

    question: str = Field(min_length=1)
    category: str = Field(min_length=1)
    paper_id: str | None = None

    @field_validator("category", mode="before")
    @classmethod
    def _category_lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("paper_id", mode="before")
    @classmethod
    def _paper_text(cls, value: Any) -> Any:
        return str(value) if value not in (None, "") else None


class DahlResponse(_Record):
    """An answer to a DAHL question written elsewhere, to be scored without generating."""

    question: str = Field(min_length=1)
    response: str
    category: str | None = None
    id: str | None = None

    @field_validator("category", "id", mode="before")
    @classmethod
    def _optional_text(cls, value: Any) -> Any:
        return str(value).strip().lower() if value not in (None, "") else None


class MedHalRecord(_Record):
    """A MedHal sample: is `statement` factual, given the optional `context`, and if not, why?

    `label` is True for a factual statement. `synthetic` marks statements written by a model.
    """

    id: str = Field(min_length=1)
    context: str | None = None
    statement: str = Field(min_length=1)
    label: bool
    explanation: str | None = None
    inner_id: str | None = None
    source: str = Field(min_length=1)
    synthetic: bool = False

    @field_validator("inner_id", mode="before")
    @classmethod
    def _inner_text(cls, value: Any) -> Any:
        return str(value) if value is not None else None

    @field_validator("context", "explanation", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value
