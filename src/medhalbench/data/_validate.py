"""Turning raw rows into typed records, with errors that name file, line and field."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from medhalbench._errors import DataError
from medhalbench.data._io import Row, max_field_chars, read_rows

R = TypeVar("R", bound=BaseModel)


def _field_name(model: type[BaseModel], loc: tuple[int | str, ...]) -> str | None:
    if not loc:  # a rule of the row's fields together: its message names them
        return None
    first = loc[0]
    field = model.model_fields.get(str(first))
    name = field.alias if field is not None and field.alias else str(first)
    return ".".join([name, *(str(part) for part in loc[1:])])


EXCERPT_CHARS = 60
"""How much of an input value a message quotes."""


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """A value quoted in part, for a message: its `repr` cut to about `limit` characters
    (a message names what is wrong; it does not repeat a whole input)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 12]}...{text[-6:]} ({len(text):,} chars)"


def _describe(error: dict[str, Any]) -> str:
    kind = error.get("type", "")
    if kind == "missing":
        return "missing"
    if kind in ("string_too_short", "too_short"):
        return "empty"
    if kind == "value_error":
        return str(error.get("msg", "invalid")).removeprefix("Value error, ")[:200]
    if kind == "literal_error":
        expected = error.get("ctx", {}).get("expected", "")
        return f"invalid value {excerpt(error.get('input'))} (expected {expected})"
    return f"{error.get('msg', 'invalid')} (got {excerpt(error.get('input'))})"


def validate_row(model: type[R], row: dict[str, Any], *, path: str | Path, line: int | str) -> R:
    """Validate one raw row as `model`.

    Raises:
        DataError: Naming the file, the line or row, and the first bad field (a text field
            longer than `max_field_chars()` included).
    """
    limit = max_field_chars()
    for name, value in row.items():
        texts = value if isinstance(value, list) else [value]
        size = sum(len(t) for t in texts if isinstance(t, str))
        if size > limit:
            raise DataError(
                f"{size:,} characters, more than the limit of {limit:,} (set "
                "MEDHALBENCH_MAX_FIELD_CHARS to raise it)",
                path=path,
                line=line,
                field=str(name),
            )
    try:
        return model.model_validate(row)
    except ValidationError as ex:
        error = ex.errors()[0]
        raise DataError(
            _describe(dict(error)),
            path=path,
            line=line,
            field=_field_name(model, tuple(error["loc"])),
        ) from None


def read_records(
    model: type[R],
    source: str | Path,
    *,
    rows: Iterable[Row] | None = None,
    limit: int | None = None,
) -> Iterator[tuple[int | str, R]]:
    """The rows of `source` (or `rows`, its rows read otherwise: a hub dataset's, or put in
    the model's layout first) as `model` records, each with its line; at most `limit` of
    them (no row beyond is read).

    Raises:
        DataError: A bad file or row, naming `source`, the line and the field.
    """
    for count, (line, row) in enumerate(read_rows(source) if rows is None else rows, start=1):
        yield line, validate_row(model, row, path=source, line=line)
        if limit is not None and count >= limit:
            return


class DistinctKeys:
    """The place each key of a source was first read, so that a key read twice stops the
    read with an error naming both places (records that share a key would share their
    sample ids).

    Args:
        field: The field that holds the key, as the error names it.
        path: The source, as the error names it.
    """

    def __init__(self, field: str, *, path: str | Path) -> None:
        self.field = field
        self.path = path
        self._first: dict[str, int | str] = {}

    def add(self, key: str, line: int | str) -> None:
        """Note that `key` was read at `line` (a line number, or a row's name).

        Raises:
            DataError: The key was read before, naming where.
        """
        if key in self._first:
            where = self._first[key]
            raise DataError(
                f"the same {self.field} '{key}' as "
                f"{f'line {where}' if isinstance(where, int) else where}",
                path=self.path, line=line, field=self.field,
            )  # fmt: skip
        self._first[key] = line
