"""Errors that medhalbench raises for bad input and unavailable resources."""

from __future__ import annotations

from pathlib import Path


class MedhalbenchError(Exception):
    """Base class of every error medhalbench raises on purpose."""


class DataError(MedhalbenchError, ValueError):
    """Bad input data, located by file, line (or row) and field.

    Args:
        message: What is wrong.
        path: The file (or dataset name) the data came from.
        line: 1-based line number (JSONL, CSV counting the header as line 1) or row index.
        field: The field that is missing or invalid.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | Path | None = None,
        line: int | str | None = None,
        field: str | None = None,
    ) -> None:
        self.path = str(path) if path is not None else None
        self.line = line
        self.field = field
        self.reason = message
        where = []
        if self.path is not None:
            where.append(self.path)
        if line is not None:
            where.append(f"line {line}" if isinstance(line, int) else str(line))
        if field is not None:
            where.append(f"field '{field}'")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message)


class ResourceUnavailableError(MedhalbenchError, RuntimeError):
    """A model, dataset or package cannot be had on this machine (e.g. offline hub access)."""
