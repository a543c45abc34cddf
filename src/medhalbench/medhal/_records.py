"""The MedHal sample, with the published field names."""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator, model_validator

from medhalbench.data import Record


class MedHalRecord(Record):
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

    @field_validator("label", mode="before")
    @classmethod
    def _label_strictly(cls, value: Any) -> Any:
        # Only what MedHal documents: true (factual) or false; in CSV the words. A "1" or
        # "yes" is refused: under MedHallu's convention 1 means hallucinated.
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise ValueError(
            f"expected true (factual) or false, got {value!r} (MedHal's label; note that 1 "
            "means hallucinated in MedHallu's convention)"
        )

    @field_validator("inner_id", mode="before")
    @classmethod
    def _inner_text(cls, value: Any) -> Any:
        return str(value) if value is not None else None

    @field_validator("context", "explanation", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value


def medhal_fields() -> tuple[str, ...]:
    """The published fields of a MedHal sample, in order (the builder's output columns)."""
    return tuple(MedHalRecord.model_fields)


def medhal_features() -> Any:
    """The `datasets` features of a MedHal sample, from the record's fields."""
    import datasets

    return datasets.Features(
        {
            name: datasets.Value("bool" if field.annotation in (bool, "bool") else "string")
            for name, field in MedHalRecord.model_fields.items()
        }
    )


class MedHalStatement(Record):
    """A statement to judge without a label (predict-only): the `statement`, its optional
    `context`, and optional `id` (default: its line) and `source`."""

    id: str | None = None
    context: str | None = None
    statement: str = Field(min_length=1)
    source: str | None = None

    @field_validator("id", "source", mode="before")
    @classmethod
    def _optional_text(cls, value: Any) -> Any:
        return str(value) if value not in (None, "") else None

    @field_validator("context", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value


class JudgeOutput(Record):
    """A judge's reply written elsewhere on one MedHal statement, named by the statement's
    `id` or its text (`statement`)."""

    id: str | None = None
    statement: str | None = None
    reply: str

    @field_validator("id", mode="before")
    @classmethod
    def _id_text(cls, value: Any) -> Any:
        return str(value) if value not in (None, "") else None

    @model_validator(mode="after")
    def _named(self) -> JudgeOutput:
        if self.id is None and not self.statement:
            raise ValueError("name the statement judged: its id or its text")
        return self


class MedHalPrediction(Record):
    """A predict-only verdict: the statement, whether the judge found it factual (None: its
    reply could not be read), its explanation, and its reply as written."""

    id: str
    statement: str
    context: str | None = None
    source: str | None = None
    factual: bool | None
    explanation: str | None = None
    read_by: str | None = None
    reply: str
