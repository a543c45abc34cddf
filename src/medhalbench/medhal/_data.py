"""Loading MedHal samples (our builder's output, or the published layout)."""

from __future__ import annotations

from pathlib import Path

from medhalbench.data import source_rows, validate_row
from medhalbench.medhal._records import MedHalRecord


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
    path = Path(source)
    if path.is_dir() and (path / "dataset").is_dir():
        path = path / "dataset"
    elif path.is_dir() and (path / f"{split}.jsonl").is_file():
        path = path / f"{split}.jsonl"
    records = []
    for line, row in source_rows(path if path.exists() else str(source), config=None, split=split):
        records.append(validate_row(MedHalRecord, row, path=source, line=line))
        if limit is not None and len(records) >= limit:
            break
    return records
