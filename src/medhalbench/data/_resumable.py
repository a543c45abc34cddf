"""Append-only JSONL output that survives interruption, and the loop every builder runs over
it: build what is not done yet, write each record as it finishes, skip the rest on rerun."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rich.progress import Progress

from medhalbench._errors import DataError
from medhalbench._secrets import redact, redact_bytes

T = TypeVar("T")


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
                    record = json.loads(redact_bytes(raw))  # a file an older run wrote
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
        # Every builder's output is made from these records: no secret gets past here.
        line = redact(json.dumps(record, ensure_ascii=False)) + "\n"
        with self.path.open("a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())
        self._records[item_key] = json.loads(line)


@dataclass
class ResumableRun:
    """What one run of a resumable build did: items built now, items already done."""

    processed: int = 0
    skipped: int = 0


@dataclass
class ResumedCounts:
    """What a build's resumable runs did, as its summary counts it (a build summary's base).

    Attributes:
        processed_now: Items built by this build.
        skipped_done: Items an interrupted build before it had finished (skipped).
    """

    processed_now: int = 0
    skipped_done: int = 0

    def count(self, run: ResumableRun) -> None:
        """Add one resumable run's items (a build of several parts runs one a part)."""
        self.processed_now += run.processed
        self.skipped_done += run.skipped

    def resumed(self) -> str:
        """The counts as a summary's words: `Built now: N; already done: M`."""
        return f"Built now: {self.processed_now}; already done: {self.skipped_done}"


async def run_resumable(
    items: Sequence[T],
    work: Callable[[T], Awaitable[dict[str, Any]]],
    *,
    key: Callable[[T], str],
    done: ResumableJsonl,
    progress: Progress,
    description: str,
    concurrency: int,
) -> ResumableRun:
    """Build each item not yet in `done` (at most `concurrency` at once), appending each
    record the moment it is finished, so that an interrupted build loses only the items in
    flight; one progress bar counts the items, those already done included. The first item
    that fails for good stops the build: items in flight are cancelled, none is started,
    and its exception is raised.

    Args:
        items: The work items.
        work: Builds an item's record (which holds the item's key under `done.key`).
        key: An item's key in `done`.
        done: The finished records.
        progress: The progress display to add the bar to.
        description: The bar's label.
        concurrency: Items in flight at once.
    """
    run = ResumableRun()
    todo = [item for item in items if key(item) not in done]
    run.skipped = len(items) - len(todo)
    bar = progress.add_task(description, total=len(items), completed=run.skipped)
    pending = iter(todo)

    async def worker() -> None:
        # Workers share one iterator: an item is started only by a worker whose previous
        # item succeeded, so a failure starts nothing new.
        for item in pending:
            record = await work(item)
            done.append(record)
            run.processed += 1
            progress.advance(bar)

    # A task group cancels the other workers' items in flight when one fails for good.
    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(min(concurrency, len(todo))):
                group.create_task(worker())
    except ExceptionGroup as failed:
        raise failed.exceptions[0] from None
    return run
