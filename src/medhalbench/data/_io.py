"""Reading rows from local files, each with the place it came from for error messages."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from medhalbench._errors import DataError

Row = tuple[int | str, dict[str, Any]]
"""A raw row and its location: a 1-based line number, or a label such as "row 3"."""

TABLE_SUFFIXES = (".jsonl", ".ndjson", ".json", ".csv", ".parquet")
DEFAULT_MAX_FIELD_CHARS = 1_000_000


def max_field_chars() -> int:
    """The longest text a record's field may hold (a full-text paper is about 50,000
    characters): an absurdly large field stops the load with a clear message rather than
    exhausting memory. `MEDHALBENCH_MAX_FIELD_CHARS` sets it; a JSONL line may hold four
    times as many bytes."""
    return int(os.environ.get("MEDHALBENCH_MAX_FIELD_CHARS", DEFAULT_MAX_FIELD_CHARS))


def _not_utf8(ex: UnicodeDecodeError) -> str:
    return f"not UTF-8 text (byte 0x{ex.object[ex.start]:02x} at position {ex.start}); save the file as UTF-8"


def is_saved_dataset(path: Path) -> bool:
    """Whether `path` is a folder written by `datasets`' `save_to_disk`."""
    return path.is_dir() and (
        (path / "dataset_info.json").is_file()
        or (path / "state.json").is_file()
        or (path / "dataset_dict.json").is_file()
    )


def read_rows(path: str | Path, *, split: str | None = None) -> Iterator[Row]:
    """Yield the rows of a JSONL, JSON, CSV or Parquet file or a `save_to_disk` folder.

    Args:
        path: The file or folder.
        split: For a saved `DatasetDict`, the split to read (default: its only split, or
            `train`).

    Raises:
        DataError: The file is missing, empty, of an unknown kind, or malformed (naming
            the line).
    """
    path = Path(path)
    if not path.exists():
        raise DataError("no such file or folder", path=path)
    if path.is_dir():
        if not is_saved_dataset(path):
            raise DataError("folder is not a dataset saved with datasets' save_to_disk", path=path)
        yield from _read_saved_dataset(path, split)
        return
    if path.stat().st_size == 0:
        raise DataError("file is empty", path=path)
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        yield from _read_jsonl(path)
    elif suffix == ".json":
        yield from _read_json(path)
    elif suffix == ".csv":
        yield from _read_csv(path)
    elif suffix == ".parquet":
        yield from _read_parquet(path)
    else:
        raise DataError(
            f"unknown file type '{suffix}' (expected one of {', '.join(TABLE_SUFFIXES)} "
            "or a save_to_disk folder)",
            path=path,
        )


def _read_jsonl(path: Path) -> Iterator[Row]:
    seen = False
    with path.open("rb") as f:
        for number, raw in enumerate(f, start=1):
            if len(raw) > 4 * max_field_chars():
                raise DataError(
                    f"the line is {len(raw):,} bytes, more than the limit of "
                    f"{4 * max_field_chars():,} "
                    "(set MEDHALBENCH_MAX_FIELD_CHARS to raise it)",
                    path=path,
                    line=number,
                )
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as ex:
                raise DataError(_not_utf8(ex), path=path, line=number) from None
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as ex:
                raise DataError(f"malformed JSON ({ex.msg})", path=path, line=number) from None
            if not isinstance(value, dict):
                raise DataError(
                    f"expected a JSON object, got {type(value).__name__}", path=path, line=number
                )
            seen = True
            yield number, value
    if not seen:
        raise DataError("file holds no records", path=path)


def _read_json(path: Path) -> Iterator[Row]:
    try:
        value = json.loads(path.read_text(encoding="utf-8-sig"))
    except UnicodeDecodeError as ex:
        raise DataError(_not_utf8(ex), path=path) from None
    except json.JSONDecodeError as ex:
        raise DataError(f"malformed JSON ({ex.msg})", path=path, line=ex.lineno) from None
    if isinstance(value, dict):
        items: list[tuple[int | str, Any]] = [
            (f"entry '{k}'", {"__key__": k, **v}) if isinstance(v, dict) else (f"entry '{k}'", v)
            for k, v in value.items()
        ]
    elif isinstance(value, list):
        items = [(f"item {i}", v) for i, v in enumerate(value, start=1)]
    else:
        raise DataError("expected a JSON object or array at top level", path=path)
    if not items:
        raise DataError("file holds no records", path=path)
    for location, item in items:
        if not isinstance(item, dict):
            raise DataError(
                f"expected a JSON object, got {type(item).__name__}", path=path, line=location
            )
        yield location, item


def _read_csv(path: Path) -> Iterator[Row]:
    # A spreadsheet's UTF-8 byte-order mark is not part of the first column's name.
    csv.field_size_limit(max_field_chars())
    number = 1
    try:
        with path.open(encoding="utf-8-sig", newline="") as f:
            reader = csv.DictReader(f)
            if not reader.fieldnames:
                raise DataError("CSV file has no header", path=path)
            if len(reader.fieldnames) == 1 and (
                separator := next((c for c in ";\t|" if c in reader.fieldnames[0]), None)
            ):
                # Spreadsheets in many locales save CSV with semicolons.
                raise DataError(
                    f"the header is one column, {reader.fieldnames[0]!r}: the file is separated "
                    f"by {separator!r}, not commas; save it as comma-separated CSV",
                    path=path,
                    line=1,
                )
            seen = False
            for record in reader:
                # The header is line 1; reader.line_num is the last physical line read.
                number = reader.line_num
                if None in record:
                    raise DataError("row has more cells than the header", path=path, line=number)
                seen = True
                yield number, {k: v for k, v in record.items()}
    except UnicodeDecodeError as ex:
        raise DataError(_not_utf8(ex), path=path, line=f"after line {number}") from None
    except csv.Error as ex:
        reason = str(ex)
        if "field larger than field limit" in reason:
            reason = (
                f"a field of more than {max_field_chars():,} characters (set "
                "MEDHALBENCH_MAX_FIELD_CHARS to raise the limit)"
            )
        raise DataError(
            f"malformed CSV ({reason})", path=path, line=f"after line {number}"
        ) from None
    if not seen:
        raise DataError("CSV file has a header but no rows", path=path)


def _read_parquet(path: Path) -> Iterator[Row]:
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except Exception as ex:  # pyarrow raises several types for bad files
        raise DataError(f"unreadable Parquet file ({ex})", path=path) from None
    if table.num_rows == 0:
        raise DataError("file holds no records", path=path)
    for index, record in enumerate(table.to_pylist(), start=1):
        yield f"row {index}", record


def _empty_split(path: Path, split: str | None) -> str:
    """The message for an empty split: every split's size, and the option to pick another."""
    import datasets

    try:
        loaded = datasets.load_from_disk(str(path))
    except Exception:
        return "dataset holds no records"
    if not isinstance(loaded, datasets.DatasetDict):
        return "dataset holds no records"
    sizes = ", ".join(f"{name} {len(part)}" for name, part in loaded.items())
    filled = [name for name, part in loaded.items() if len(part)]
    hint = f"; pick another with --split (e.g. --split {filled[0]})" if filled else ""
    return f"split '{split}' holds no records (samples per split: {sizes}){hint}"


def _read_saved_dataset(path: Path, split: str | None) -> Iterator[Row]:
    import datasets

    loaded = datasets.load_from_disk(str(path))
    if isinstance(loaded, datasets.DatasetDict):
        names = list(loaded.keys())
        chosen = split or ("train" if "train" in names else names[0] if len(names) == 1 else None)
        if chosen is None or chosen not in loaded:
            raise DataError(
                f"split '{split}' not found; the saved dataset has {', '.join(names)}",
                path=path,
            )
        loaded = loaded[chosen]
    if len(loaded) == 0:
        raise DataError(_empty_split(path, split), path=path)
    for index, record in enumerate(loaded, start=1):
        yield f"row {index}", dict(record)
