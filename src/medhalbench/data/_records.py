"""Typed records that keep the published datasets' field names on import and export: the
shared base, and PubMedQA (read by more than one benchmark)."""

from __future__ import annotations

import ast
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)

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


def _lowered(value: Any) -> Any:
    """A string stripped and lower-cased; anything else as given (for the field's own check)."""
    return value.strip().lower() if isinstance(value, str) else value


def _as_text(value: Any) -> Any:
    """A value as its text (an id a CSV or Parquet file holds as a number); None as given."""
    return str(value) if value is not None else None


def _text_or_none(value: Any) -> Any:
    """A value as its text; None or a blank string as None (an optional id left blank)."""
    return None if value is None or (isinstance(value, str) and not value.strip()) else str(value)


def _blank_as_none(value: Any) -> Any:
    """A string of white space only as None; anything else as given."""
    return None if isinstance(value, str) and not value.strip() else value


# What a field accepts before its own check, for `Annotated[TYPE, ...]` (`Annotated[str, AS_TEXT]`).
LOWERED = BeforeValidator(_lowered)
"""A string stripped and lower-cased (a label in any case)."""
AS_TEXT = BeforeValidator(_as_text)
"""Any value as its text (an id a CSV or Parquet file holds as a number)."""


def _named(value: str) -> str:
    if not value.strip():
        raise ValueError("an empty id (give one, or leave the field out)")
    return value


Identifier = Annotated[str, AS_TEXT, AfterValidator(_named)]
"""An id: any value as its text, never empty or blank (a sample named by nothing)."""
TEXT_OR_NONE = BeforeValidator(_text_or_none)
"""Any value as its text, a blank string as None (an optional id left blank)."""
BLANK_AS_NONE = BeforeValidator(_blank_as_none)
"""A string of white space only as None (an optional text left blank)."""
TEXT_LIST = BeforeValidator(text_list)
"""A list of strings, written as one or as a string (see `text_list`)."""
AS_WRITTEN = StringConstraints(strip_whitespace=False)
"""A text kept as written, its blanks included (a reply given as a model's output: the
paper columns read it as the authors' scripts would have)."""


class Record(BaseModel):
    """A record that accepts the published field names (aliases) and keeps extra fields,
    but refuses one that is a misspelling of one of its own (`Questoin`: named as what it
    is, not read as a missing field nor left unread beside the right one)."""

    model_config = ConfigDict(populate_by_name=True, extra="allow", str_strip_whitespace=True)

    @model_validator(mode="before")
    @classmethod
    def _no_misspelt_field(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        names = {n for name, f in cls.model_fields.items() for n in (name, f.alias) if n}
        folded = {_folded(n): n for n in names}
        for given in data:
            if not isinstance(given, str) or given in names:
                continue
            near = folded.get(_folded(given)) or next(
                (n for n in sorted(names) if len(n) > 3 and _one_edit(_folded(given), _folded(n))),
                None,
            )
            if near is not None:
                raise ValueError(f"unknown field {given!r}: did you mean {near!r}?")
        return data

    def to_published(self) -> dict[str, Any]:
        """The record as a dict with the published field names (extras kept)."""
        return self.model_dump(by_alias=True, exclude_none=True)


def _one_edit(given: str, name: str) -> bool:
    """Whether one letter added, dropped, changed or swapped with its neighbour makes
    `given` `name`."""
    if abs(len(given) - len(name)) > 1 or given == name:
        return False
    if len(given) != len(name):
        longer, shorter = (given, name) if len(given) > len(name) else (name, given)
        return any(longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer)))
    differ = [i for i, (a, b) in enumerate(zip(given, name, strict=True)) if a != b]
    first, *rest = differ
    swapped = rest == [first + 1] and given[first : first + 2] == name[first : first + 2][::-1]
    return not rest or swapped


def _folded(name: str) -> str:
    """A field name without case, spaces, dashes and underscores (`Ground Truth`,
    `ground_truth`)."""
    return "".join(c for c in name.lower() if c.isalnum())


class PubMedQARecord(Record):
    """A PubMedQA PQA-L entry, with the field names of `ori_pqal.json`."""

    pubid: Identifier
    question: str = Field(alias="QUESTION", min_length=1)
    contexts: Annotated[list[str], TEXT_LIST] = Field(alias="CONTEXTS", min_length=1)
    labels: Annotated[list[str], TEXT_LIST] = Field(alias="LABELS", default_factory=list)
    meshes: Annotated[list[str], TEXT_LIST] = Field(alias="MESHES", default_factory=list)
    year: Annotated[str | None, AS_TEXT] = Field(alias="YEAR", default=None)
    final_decision: Annotated[FinalDecision, LOWERED] = Field(alias="final_decision")
    long_answer: str = Field(alias="LONG_ANSWER", min_length=1)

    @property
    def context_text(self) -> str:
        """The abstract's context passages joined into one text."""
        return "\n".join(self.contexts)
