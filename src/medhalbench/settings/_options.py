"""Each setting of a settings model as the command line, suites and the report see it: its
flag, help, default, allowed values and what it means, read off the model's fields (their
types, marks and docstrings). Nothing here checks a value: the model does."""

from __future__ import annotations

import functools
import inspect
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args, get_origin

import docstring_parser
from annotated_types import Ge, Gt, Le, Lt
from pydantic import BeforeValidator
from pydantic_core import PydanticUndefined

from medhalbench.settings._marks import (
    COMMA_SEPARATED,
    ByProtocol,
    ForRole,
    Internal,
    LocalPath,
    Meaning,
    Means,
    PartOf,
    Qualifies,
    SetBy,
    Spelling,
    local_path,
)

if TYPE_CHECKING:
    from medhalbench.settings._model import Settings

REQUIRED: Any = inspect.Parameter.empty
"""The default of a setting that has none."""


@dataclass(frozen=True)
class Option:
    """One setting as the command line gives it.

    Attributes:
        name: The field's name.
        kind: `bool`, `int`, `float` or `str` (of each item, for `many`); `object` for text
            the model reads in a form of its own (`0/4`).
        default: The default (`REQUIRED` when there is none).
        help: The field's docstring, on one line (with each protocol's value of a knob set
            by protocol).
        optional: None is a value (the type admits None).
        many: A list of values (a repeated option).
        comma_separated: Each value may list several, comma-separated.
        choices: The allowed values (a `Literal`).
        bounds: The allowed numbers, as the help shows them (`1<=x<=2147483647`).
        path: May name a local file or folder.
        spelling: How the command line spells it.
        means: What it means when runs are set side by side.
        qualifies: The setting it qualifies, where it means nothing without it (and the
            value it qualifies, where it qualifies one).
        part_of: The source setting it picks a part of (`PartOf`).
        set_by: The setting that sets it when given (`SetBy`).
        role: The role whose calls it sets (`ForRole`).
        annotation: Its declared type, marks included.
    """

    name: str
    kind: type
    default: Any = REQUIRED
    help: str = ""
    optional: bool = False
    many: bool = False
    comma_separated: bool = False
    choices: tuple[Any, ...] | None = None
    bounds: str | None = None
    path: LocalPath | None = None
    spelling: Spelling = Spelling()
    means: Meaning | None = None
    qualifies: Qualifies | None = None
    part_of: str | None = None
    set_by: str | None = None
    role: str | None = None
    annotation: Any = None

    @property
    def required(self) -> bool:
        """Whether a value must be given."""
        return self.default is REQUIRED

    @property
    def flag(self) -> str:
        """How the command line spells it: its option (`--max-tokens`), or its argument's
        name (`QUESTIONS`)."""
        if self.spelling.positional:
            return self.name.upper()
        return self.spelling.flag or "--" + self.name.replace("_", "-")


def _unwrap(annotation: Any) -> tuple[Any, bool, list[Any]]:
    """A type without `Annotated` and `None`: (type, admits None, marks)."""
    marks: list[Any] = []
    optional = False
    while True:
        if get_origin(annotation) is Annotated:
            annotation, *extra = get_args(annotation)
            marks += extra
        elif get_origin(annotation) in (typing.Union, types.UnionType):
            members = [a for a in get_args(annotation) if a is not type(None)]
            optional = optional or len(members) < len(get_args(annotation))
            if len(members) != 1:
                raise TypeError(f"unsupported union {annotation!r}")
            annotation = members[0]
        else:
            return annotation, optional, marks


def _bounds(marks: list[Any]) -> str | None:
    """The numbers a setting takes, as the help shows them (`1<=x<=2147483647`, `x>0`)."""

    def shown(end: Any) -> str:
        return f"{int(end)}" if float(end).is_integer() else f"{end:g}"

    low = next(((m.ge, "<=") for m in marks if isinstance(m, Ge)), None) or next(
        ((m.gt, "<") for m in marks if isinstance(m, Gt)), None
    )
    high = next(((m.le, "<=") for m in marks if isinstance(m, Le)), None) or next(
        ((m.lt, "<") for m in marks if isinstance(m, Lt)), None
    )
    if high is None:
        return None if low is None else f"x{low[1].replace('<', '>')}{shown(low[0])}"
    return f"{shown(low[0]) + low[1] if low else ''}x{high[1]}{shown(high[0])}"


def _option(name: str, annotation: Any, default: Any, help: str) -> Option | None:
    base, optional, marks = _unwrap(annotation)
    if any(isinstance(m, Internal) for m in marks):
        return None
    many = get_origin(base) is list
    if many:
        base, _, inner = _unwrap(get_args(base)[0])
        marks += inner
    choices = None
    if get_origin(base) is Literal:
        choices = get_args(base)
        base = type(choices[0])
    parsed = any(isinstance(m, BeforeValidator) and m is not COMMA_SEPARATED for m in marks)
    kind = base if base in (bool, int, float, str) and not parsed else object
    by_protocol = next((m for m in marks if isinstance(m, ByProtocol)), None)
    if by_protocol is not None:
        help = f"{help} {by_protocol.describe()}".strip()
    return Option(
        name=name,
        kind=kind,
        default=default,
        help=help,
        optional=optional,
        many=many,
        comma_separated=COMMA_SEPARATED in marks,
        choices=choices,
        bounds=_bounds(marks),
        path=next((m for m in marks if isinstance(m, LocalPath)), None),
        spelling=next((m for m in marks if isinstance(m, Spelling)), Spelling()),
        means=next((m.meaning for m in marks if isinstance(m, Means)), None),
        qualifies=next((m for m in marks if isinstance(m, Qualifies)), None),
        part_of=next((m.setting for m in marks if isinstance(m, PartOf)), None),
        set_by=next((m.setting for m in marks if isinstance(m, SetBy)), None),
        role=next((m.role for m in marks if isinstance(m, ForRole)), None),
        annotation=annotation,
    )


def _declared_at(model: type, name: str) -> int:
    """How far up a model's bases a field is declared (0: by the model itself)."""
    return next(
        i for i, c in enumerate(model.__mro__) if name in vars(c).get("__annotations__", {})
    )


@functools.cache
def options_of(model: type[Settings]) -> tuple[Option, ...]:
    """The settings of a model that the command line gives (those marked `Internal` left
    out): its own in the order declared, then those of its bases (shared groups such as the
    evidence, a build's protocol and knobs)."""
    found = []
    for name in sorted(model.model_fields, key=lambda n: _declared_at(model, n)):
        field = model.model_fields[name]
        default = (
            REQUIRED
            if field.is_required()
            else field.default_factory()  # type: ignore[call-arg]
            if field.default_factory is not None
            else field.default
        )
        assert default is not PydanticUndefined
        annotated = (
            Annotated[(field.annotation, *field.metadata)] if field.metadata else field.annotation
        )
        option = _option(name, annotated, default, " ".join((field.description or "").split()))
        found += [option] if option else []
    return tuple(found)


def description(model: type, *, whole: bool = False) -> str:
    """The first paragraph of a model's docstring (its command's help), or with `whole` every
    paragraph before its sections."""
    doc = docstring_parser.parse(inspect.getdoc(model) or "")
    if whole:
        return doc.description or ""
    return " ".join((doc.short_description or "").split())


def usage_examples(model: type) -> list[str]:
    """The command lines of a model's docstring `Examples:` section."""
    doc = docstring_parser.parse(inspect.getdoc(model) or "")
    return [
        line.strip()
        for example in doc.examples
        for line in (example.description or "").splitlines()
        if line.strip()
    ]


def anchored(model: type[Settings], values: dict[str, Any], folder: Path) -> dict[str, Any]:
    """Values with each relative local path (a setting marked `LocalPath`) that exists in
    `folder` made absolute, so that a run resumed elsewhere finds it: the command line's
    against the working folder, a suite's against the suite's."""
    paths = {o.name for o in options_of(model) if o.path is not None}

    def anchor(value: Any) -> Any:
        if isinstance(value, list | tuple):
            return [anchor(v) for v in value]
        if not isinstance(value, str) or not value or "\0" in value:
            return value
        found = (folder / local_path(value)).resolve()
        return str(found) if found.exists() else value

    return {k: anchor(v) if k in paths else v for k, v in values.items()}
