"""Typed records that keep the published datasets' field names on import and export: the
shared base, and PubMedQA (read by more than one benchmark)."""

from __future__ import annotations

import ast
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

FinalDecision = Literal["yes", "no", "maybe"]


def text_list(value: Any) -> Any:
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


class Record(BaseModel):
    """A record that accepts the published field names (aliases) and keeps extra fields."""

    model_config = ConfigDict(populate_by_name=True, extra="allow", str_strip_whitespace=True)

    def to_published(self) -> dict[str, Any]:
        """The record as a dict with the published field names (extras kept)."""
        return self.model_dump(by_alias=True, exclude_none=True)


class PubMedQARecord(Record):
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
        return text_list(value)

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
