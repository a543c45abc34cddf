"""Append-only JSONL output that survives interruption: builders write as they go and,
on rerun, skip what is done."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from medhalbench._errors import DataError


class ResumableJsonl:
    """A JSONL file of finished work items, each identified by the value of `key`.

    A crash can leave at most a partial last line (the record being written); it is
    discarded on open, so that item is simply redone. Any other malformed line is an error.

    Args:
        path: The file (created with its folder when missing).
        key: The field that identifies an item.
    """

    def __init__(self, path: str | Path, key: str) -> None:
        self.path = Path(path)
        self.key = key
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._records: dict[str, dict[str, Any]] = {}
        if self.path.exists():
            self._load()

    def _load(self) -> None:
        data = self.path.read_bytes()
        lines = data.split(b"\n")
        good_end = 0
        offset = 0
        for number, raw in enumerate(lines, start=1):
            end = offset + len(raw) + 1
            if raw.strip():
                try:
                    record = json.loads(raw)
                except json.JSONDecodeError:
                    if number == len(lines) or (number == len(lines) - 1 and not lines[-1]):
                        break  # the partial last line of an interrupted write
                    raise DataError(
                        "malformed JSON in a finished-work file", path=self.path, line=number
                    ) from None
                if self.key not in record:
                    raise DataError(
                        "record lacks its key", path=self.path, line=number, field=self.key
                    )
                self._records[str(record[self.key])] = record
                good_end = min(end, len(data))
            offset = end
        if good_end < len(data):
            with self.path.open("r+b") as f:
                f.truncate(good_end)

    def __contains__(self, item_key: object) -> bool:
        return str(item_key) in self._records

    def __len__(self) -> int:
        return len(self._records)

    def records(self) -> list[dict[str, Any]]:
        """The finished records, in the order they were written."""
        return list(self._records.values())

    def append(self, record: dict[str, Any]) -> None:
        """Write one finished record durably (flushed and fsynced before returning)."""
        item_key = str(record[self.key])
        if item_key in self._records:
            raise ValueError(f"{self.path}: '{item_key}' is already recorded")
        line = json.dumps(record, ensure_ascii=False) + "\n"
        with self.path.open("a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())
        self._records[item_key] = record
