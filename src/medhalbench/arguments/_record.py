"""A run's settings as one typed record: a frozen dataclass per benchmark whose fields are its
task's arguments (declared once, with their types, defaults, ranges and what each means),
stored in a log under one metadata key and read back validated."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

import pydantic

from medhalbench._errors import DataError
from medhalbench.arguments._arguments import Argument, arguments_of
from medhalbench.arguments._marks import Meaning

SETTINGS_KEY = "settings"
"""The metadata key a log keeps a run's settings record under."""

R = TypeVar("R")


_ADAPTERS: dict[type, pydantic.TypeAdapter[Any]] = {}


def _adapter(cls: type) -> pydantic.TypeAdapter[Any]:
    if cls not in _ADAPTERS:
        _ADAPTERS[cls] = pydantic.TypeAdapter(cls)
    return _ADAPTERS[cls]


def stored(record: object) -> dict[str, Any]:
    """A settings record as a log stores it (JSON values)."""
    return dict(_adapter(type(record)).dump_python(record, mode="json"))


def read_record(cls: type[R], data: Mapping[str, Any], *, where: str = "the log") -> R:
    """A settings record read back and validated, from its values by setting name (a grouped
    setting beside the others, or in its group as a log stores it); settings a record does not
    declare (a log written by another version, or a record that declares only some) are left
    out, and those a log lacks keep their defaults.

    Raises:
        DataError: A value does not fit the record's declared type.
    """
    fields = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    values: dict[str, Any] = {k: v for k, v in data.items() if k in fields}
    for argument in arguments_of(cls):  # type: ignore[arg-type]
        if argument.group is not None and argument.name in data:
            group = values.setdefault(argument.group, {})
            if isinstance(group, Mapping):
                values[argument.group] = {**group, argument.name: data[argument.name]}
    try:
        return _adapter(cls).validate_python(values)
    except pydantic.ValidationError as ex:
        first = ex.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        raise DataError(
            f"its settings do not fit {cls.__name__}: {field}: {first['msg']}", path=where
        ) from None


def settings_meaning(cls: type) -> dict[str, Meaning]:
    """What each setting of a record means (see `Meaning`); unmarked ones are conditions."""
    return {a.name: a.means or "condition" for a in arguments_of(cls)}


def setting_value(record: object, argument: Argument) -> Any:
    """A setting's value in a record (in its group, for a grouped one)."""
    holder = getattr(record, argument.group) if argument.group else record
    return getattr(holder, argument.name)
