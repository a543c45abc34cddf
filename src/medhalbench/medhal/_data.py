"""Loading MedHal samples (our builder's output, or the published layout)."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from medhalbench._errors import DataError
from medhalbench.data import is_saved_dataset, source_rows, validate_row
from medhalbench.medhal._records import MedHalRecord, MedHalStatement


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


def _where(line: int | str) -> str:
    return f"line {line}" if isinstance(line, int) else str(line)


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
    records: list[R] = []
    first_line: dict[str, int | str] = {}
    for line, row in source_rows(path if path.exists() else str(source), config=None, split=split):
        record = validate_row(kind, row, path=path, line=line)
        if record.id is None:
            record.id = f"line-{line}"
        if record.id in first_line:
            raise DataError(
                f"the same id '{record.id}' as {_where(first_line[record.id])}",
                path=path, line=line, field="id",
            )  # fmt: skip
        first_line[record.id] = line
        records.append(record)
        if limit is not None and len(records) >= limit:
            break
    return records
