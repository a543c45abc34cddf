"""DAHL's question and answer records (`question, category`; `question, response`)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator

from medhalbench.data import Record


class DahlQuestion(Record):
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


class DahlResponse(Record):
    """An answer to a DAHL question written elsewhere, to be scored without generating."""

    question: str = Field(min_length=1)
    response: str
    category: str | None = None
    id: str | None = None

    @field_validator("category", "id", mode="before")
    @classmethod
    def _optional_text(cls, value: Any) -> Any:
        return str(value).strip().lower() if value not in (None, "") else None
