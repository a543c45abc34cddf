"""The MedHallu row, with the published field names."""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import Field, field_validator

from medhalbench.data import Record, text_list

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = get_args(Difficulty)


class MedHalluRecord(Record):
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
        return text_list(value)

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
