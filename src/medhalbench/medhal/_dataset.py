"""MedHal's data: the sample record with the published field names (`id, context, statement,
label, explanation, source, synthetic`), the statements and outputs written elsewhere, and
loading them (files, a `save_to_disk` folder, a build folder, a folder of splits, a hub id)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from medhalbench._errors import DataError
from medhalbench.data import (
    AS_WRITTEN,
    BLANK_AS_NONE,
    TEXT_OR_NONE,
    DistinctKeys,
    Identifier,
    Record,
    is_saved_dataset,
    read_records,
    source_rows,
)


class MedHalRecord(Record):
    """A MedHal sample: is `statement` factual, given the optional `context`, and if not, why?

    `label` is True for a factual statement. `synthetic` marks statements written by a model.
    """

    id: str = Field(min_length=1)
    context: Annotated[str | None, BLANK_AS_NONE] = None
    statement: str = Field(min_length=1)
    label: bool
    explanation: Annotated[str | None, BLANK_AS_NONE] = None
    inner_id: Identifier | None = None
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

    id: Annotated[str | None, TEXT_OR_NONE] = None
    context: Annotated[str | None, BLANK_AS_NONE] = None
    statement: str = Field(min_length=1)
    source: Annotated[str | None, TEXT_OR_NONE] = None


class JudgeOutput(Record):
    """A judge's reply written elsewhere on one MedHal statement, named by the statement's
    `id` or its text (`statement`)."""

    id: Annotated[str | None, TEXT_OR_NONE] = None
    statement: str | None = None
    reply: Annotated[str, AS_WRITTEN]

    @model_validator(mode="after")
    def _named(self) -> JudgeOutput:
        if self.id is None and not self.statement:
            raise ValueError("name the statement judged: its id or its text")
        return self


class MedHalStatementMetadata(BaseModel):
    """What a sample keeps of its statement (a predict-only sample keeps only this).

    Attributes:
        statement: The statement judged (None in logs from before it was kept).
        context: Its context, if any.
        source: The dataset part it comes from, if known.
    """

    model_config = ConfigDict(frozen=True, extra="ignore")

    statement: str | None = None
    context: str | None = None
    source: str | None = None


class MedHalSampleMetadata(MedHalStatementMetadata):
    """What a labelled sample keeps: its statement and its gold answer.

    Attributes:
        label: True for a factual statement (None: a predict-only sample).
        explanation: The dataset's explanation of a non-factual statement.
        item: The source item the statement was made from (None in older logs).
        synthetic: Whether a model wrote the statement.
    """

    label: bool | None = None
    explanation: str | None = None
    item: str | None = None
    synthetic: bool = False


def sample_metadata(record: MedHalRecord | MedHalStatement) -> dict[str, Any]:
    """A sample's metadata as a log stores it (a statement without a label: no gold keys)."""
    shown = MedHalStatementMetadata(
        statement=record.statement, context=record.context, source=record.source
    )
    if isinstance(record, MedHalStatement):
        return shown.model_dump()
    return MedHalSampleMetadata(
        **shown.model_dump(),
        label=record.label,
        explanation=record.explanation,
        item=record.inner_id or record.id,
        synthetic=record.synthetic,
    ).model_dump()


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


def _resolve(source: str | Path, split: str) -> Path:
    """The file or folder a MedHal source names for a split."""
    path = Path(source)
    if path.is_dir() and (path / "dataset").is_dir():
        path = path / "dataset"
    elif path.is_dir() and (path / f"{split}.jsonl").is_file():
        path = path / f"{split}.jsonl"
    elif path.is_dir() and not is_saved_dataset(path):
        splits = sorted(p.stem for p in path.glob("*.jsonl"))
        raise DataError(
            f"no split '{split}' here"
            + (f" (split files: {', '.join(splits)}; pick one with --split)" if splits else
               " (expected a build folder, a save_to_disk folder or {split}.jsonl files)"),
            path=path,
        )  # fmt: skip
    return path


def load_medhal(
    source: str | Path, *, split: str = "test", limit: int | None = None
) -> list[MedHalRecord]:
    """Load MedHal samples.

    Args:
        source: A JSONL/CSV/Parquet file, a `save_to_disk` folder (a DatasetDict: `split`
            picks the split), a build folder (its `dataset/` is read), a folder of
            `{split}.jsonl` files, or a hub id.
        split: Split of a DatasetDict or hub dataset.
        limit: Keep at most this many samples.

    Raises:
        DataError: Bad input, naming file, line and field.
    """
    return _load(MedHalRecord, source, split, limit)


def load_statements(
    source: str | Path, *, split: str = "test", limit: int | None = None
) -> list[MedHalStatement]:
    """Load statements to judge without labels (predict-only), from the same kinds of
    source as `load_medhal`; a statement without an id is named by its line.

    Raises:
        DataError: Bad input, naming file, line and field, or an id given twice.
    """
    return _load(MedHalStatement, source, split, limit)


R = TypeVar("R", MedHalRecord, MedHalStatement)


def _load(kind: type[R], source: str | Path, split: str, limit: int | None) -> list[R]:
    """Rows of a source as `kind`, each id once (a statement without one named by its line)."""
    path = _resolve(source, split)
    rows = source_rows(path if path.exists() else str(source), config=None, split=split)
    records: list[R] = []
    ids = DistinctKeys("id", path=path)
    for line, record in read_records(kind, path, rows=rows, limit=limit):
        if record.id is None:
            record.id = f"line-{line}"
        ids.add(record.id, line)
        records.append(record)
    return records
