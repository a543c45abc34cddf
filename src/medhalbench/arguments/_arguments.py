"""The arguments of a task, a builder's settings or a tool, read from its signature (types,
defaults, `Literal` choices, ranges) and its docstring (help): the one definition from which
the command line, suites and `inspect eval -T` are derived, and against which every value
is checked, whichever way it came."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar, get_args, get_origin

import docstring_parser

from medhalbench._errors import MedhalbenchError
from medhalbench.arguments._marks import (
    ByProtocol,
    Internal,
    LocalPath,
    Meaning,
    Means,
    NotTaken,
    Parse,
    Qualifies,
    Range,
    Spelling,
)

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

REQUIRED: Any = inspect.Parameter.empty
"""The default of an argument that has none."""
SETTINGS_TYPE = "settings_type"
"""The attribute a task function made from a settings record (`registry.benchmark_task`)
names the record's class by."""

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


class ArgumentError(MedhalbenchError, ValueError):
    """A value an argument does not take, or an argument that does not exist.

    Attributes:
        argument: The argument's name.
        reason: What is wrong with the value.
    """

    def __init__(self, argument: str, reason: str) -> None:
        self.argument = argument
        self.reason = reason
        super().__init__(f"argument '{argument}': {reason}")


@dataclass(frozen=True)
class Argument:
    """One argument: its type, default, allowed values, help and command-line spelling.

    Attributes:
        name: The parameter's (or field's) name.
        kind: `bool`, `int`, `float` or `str` (of each item, for `many`).
        default: The default (`REQUIRED` when there is none).
        help: The docstring's description, on one line.
        optional: None is a value (the type admits None).
        many: A list of values (a repeated option, or comma-separated text).
        choices: The allowed values (a `Literal`).
        range: The allowed numbers.
        path: May name a local file or folder.
        spelling: How the command line spells it.
        parse: How a text value is read, when it has a form of its own.
        group: The nested settings (a dataclass field of a dataclass type) it belongs to.
        means: What it means when runs are set side by side (a run's settings).
        qualifies: The setting it qualifies, where it means nothing without it.
        annotation: Its declared type, marks included.
    """

    name: str
    kind: type
    default: Any = REQUIRED
    help: str = ""
    optional: bool = False
    many: bool = False
    choices: tuple[Any, ...] | None = None
    range: Range | None = None
    path: LocalPath | None = None
    spelling: Spelling = Spelling()
    parse: Parse | None = None
    group: str | None = None
    means: Meaning | None = None
    qualifies: str | None = None
    annotation: Any = None

    @property
    def required(self) -> bool:
        """Whether a value must be given."""
        return self.default is REQUIRED

    @property
    def flag(self) -> str:
        """The command-line option (`--max-tokens`)."""
        return self.spelling.flag or "--" + self.name.replace("_", "-")

    def check(self, value: Any) -> Any:
        """The value, converted to the argument's type (text is read as the command line
        gives it) and checked against its choices and range.

        Raises:
            ArgumentError: The value is not one this argument takes.
        """
        if value is None:
            if self.optional or self.default is None:
                return None
            raise ArgumentError(self.name, "needs a value")
        if self.many:
            items = (
                [v.strip() for v in value.split(",")]
                if isinstance(value, str) and self.parse is None
                else [value]
                if isinstance(value, str)
                else value
            )
            if not isinstance(items, list | tuple):
                raise ArgumentError(self.name, f"expected a list, got {value!r}")
            return [self.check_item(item) for item in items if item != ""]
        return self.check_item(value)

    def check_item(self, value: Any) -> Any:
        """One value (one item of a list), converted and checked as `check` does."""
        if self.parse is not None:
            if not isinstance(value, str):
                raise ArgumentError(
                    self.name, f"expected text of the form {self.parse.metavar}, got {value!r}"
                )
            try:
                return self.parse.read(value)
            except ValueError as ex:
                raise ArgumentError(self.name, str(ex)) from None
        converted = _convert(self.kind, value)
        if converted is None:
            expected = {
                bool: "true or false",
                int: "a whole number",
                float: "a number",
                str: "text",
            }.get(self.kind, self.kind.__name__)
            raise ArgumentError(self.name, f"expected {expected}, got {value!r}")
        if isinstance(converted, float) and not math.isfinite(converted):
            raise ArgumentError(self.name, f"expected a finite number, got {value!r}")
        if self.choices is not None and converted not in self.choices:
            raise ArgumentError(
                self.name,
                f"{converted!r} is not one of {', '.join(map(str, self.choices))}",
            )
        if self.range is not None and not self.range.admits(converted):
            raise ArgumentError(self.name, f"{converted!r} is not in the range {self.range}")
        return converted


def _convert(kind: type, value: Any) -> Any:
    """A value as `kind`, or None when it is not one (text read as the command line gives it)."""
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in (*_TRUE, *_FALSE):
            return value.strip().lower() in _TRUE
        return None
    if isinstance(value, bool):
        return None  # YAML's `true` is not a number or a name
    if kind is int:
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        try:
            return int(str(value).strip()) if isinstance(value, str) else None
        except ValueError:
            return None
    if kind is float:
        if isinstance(value, int | float):
            return float(value)
        try:
            return float(value.strip()) if isinstance(value, str) else None
        except ValueError:
            return None
    return value if isinstance(value, str) else None


def _unwrap(annotation: Any) -> tuple[Any, bool, list[Any]]:
    """The annotation without `Annotated` and `None`: (type, admits None, marks)."""
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


def _argument(
    name: str, annotation: Any, default: Any, help: str, group: str | None
) -> Argument | None:
    base, optional, marks = _unwrap(annotation)
    if any(isinstance(m, Internal) for m in marks):
        return None
    many = get_origin(base) in (list, Sequence)
    if many:
        base, _, inner_marks = _unwrap(get_args(base)[0])
        marks += inner_marks
    choices = None
    if get_origin(base) is Literal:
        choices = get_args(base)
        base = type(choices[0])
    parse = next((m for m in marks if isinstance(m, Parse)), None)
    if parse is None and base not in (bool, int, float, str):
        raise TypeError(f"argument {name}: unsupported type {base!r}")
    by_protocol = next((m for m in marks if isinstance(m, ByProtocol)), None)
    if by_protocol is not None:
        help = f"{help} {by_protocol.describe()}".strip()
    return Argument(
        name=name,
        kind=base if parse is None else object,
        default=default,
        help=help,
        optional=optional,
        many=many,
        choices=choices,
        range=next((m for m in marks if isinstance(m, Range)), None),
        path=next((m for m in marks if isinstance(m, LocalPath)), None),
        spelling=next((m for m in marks if isinstance(m, Spelling)), Spelling()),
        parse=parse,
        group=group,
        means=next((m.meaning for m in marks if isinstance(m, Means)), None),
        qualifies=next((m.setting for m in marks if isinstance(m, Qualifies)), None),
        annotation=annotation,
    )


def _helps(owner: Any) -> dict[str, str]:
    """Each argument's help from the docstring's Args or Attributes (a settings class's
    own, then its bases', for the fields it inherits)."""
    found: dict[str, str] = {}
    for source in reversed(getattr(owner, "__mro__", (owner,))):
        if source is object:
            continue
        doc = docstring_parser.parse(inspect.getdoc(source) or "")
        found |= {p.arg_name: " ".join((p.description or "").split()) for p in doc.params}
    return found


def _first_line(owner: Any) -> str:
    doc = docstring_parser.parse(inspect.getdoc(owner) or "")
    return " ".join((doc.short_description or "").split())


@functools.cache
def arguments_of(owner: Callable[..., Any] | type) -> tuple[Argument, ...]:
    """The arguments of a function (its parameters) or a dataclass (its fields), help from
    the docstring's Args (or Attributes); a field whose type is a dataclass stands for that
    dataclass's own fields (grouped under the field's name).

    Raises:
        TypeError: A parameter of a type that no command line can give (a mistake in a
            declaration, not in a user's input).
    """
    helps = _helps(owner)
    found: list[Argument] = []
    if dataclasses.is_dataclass(owner):
        hints = typing.get_type_hints(owner, include_extras=True)
        for f in dataclasses.fields(owner):
            if not f.init:
                continue
            default = (
                f.default
                if f.default is not dataclasses.MISSING
                else f.default_factory()
                if f.default_factory is not dataclasses.MISSING
                else REQUIRED
            )
            annotation = hints[f.name]
            if dataclasses.is_dataclass(_unwrap(annotation)[0]):
                # A group's defaults are those of the field's default (a benchmark's own
                # values for a shared group), else the group's.
                found += [
                    dataclasses.replace(
                        a,
                        group=f.name,
                        default=getattr(default, a.name, a.default)
                        if default is not REQUIRED
                        else a.default,
                    )
                    for a in arguments_of(_unwrap(annotation)[0])
                ]
                continue
            argument = _argument(f.name, annotation, default, helps.get(f.name, ""), None)
            found += [argument] if argument else []
        return tuple(found)
    declared = getattr(owner, SETTINGS_TYPE, None)
    if declared is not None:  # a task whose arguments are its settings record's fields
        return arguments_of(declared)
    function = inspect.unwrap(owner)
    hints = typing.get_type_hints(function, include_extras=True)
    for name, parameter in inspect.signature(function).parameters.items():
        argument = _argument(name, hints[name], parameter.default, helps.get(name, ""), None)
        found += [argument] if argument else []
    return tuple(found)


def description(owner: Callable[..., Any] | type) -> str:
    """The first line of a function's or a dataclass's docstring."""
    return _first_line(inspect.unwrap(owner) if callable(owner) else owner)


def usage_examples(owner: Callable[..., Any] | type) -> list[str]:
    """The command lines of a function's or a dataclass's docstring `Examples:` section."""
    owner = inspect.unwrap(owner) if callable(owner) else owner
    doc = docstring_parser.parse(inspect.getdoc(owner) or "")
    return [
        line.strip()
        for example in doc.examples
        for line in (example.description or "").splitlines()
        if line.strip()
    ]


def check_arguments(owner: Callable[..., Any] | type, values: Mapping[str, Any]) -> dict[str, Any]:
    """Values for an owner's arguments, each converted and checked.

    Raises:
        ArgumentError: An argument the owner does not take, a required one missing, or a
            value an argument does not take.
    """
    known = {a.name: a for a in arguments_of(owner)}
    unknown = [name for name in values if name not in known]
    if unknown:
        raise ArgumentError(unknown[0], f"no such argument (it takes {', '.join(known) or 'none'})")
    checked = {name: known[name].check(value) for name, value in values.items()}
    missing = [a.name for a in known.values() if a.required and a.name not in checked]
    if missing:
        raise ArgumentError(missing[0], "is required")
    return checked


def construct(cls: type[T], values: Mapping[str, Any]) -> T:
    """A settings dataclass from checked values by argument name (nested settings built from
    their own arguments; arguments not given keep their defaults).

    Raises:
        ArgumentError: As `check_arguments`.
    """
    checked = check_arguments(typing.cast(type, cls), values)
    hints = typing.get_type_hints(cls, include_extras=True)
    fields: dict[str, Any] = {}
    groups: dict[str, dict[str, Any]] = {}
    by_name = {a.name: a for a in arguments_of(typing.cast(type, cls))}
    for name, value in checked.items():
        group = by_name[name].group
        if group is None:
            fields[name] = value
        else:
            groups.setdefault(group, {})[name] = value
    defaults = {
        f.name: f.default_factory()
        for f in dataclasses.fields(typing.cast(type, cls))
        if f.name in groups and f.default_factory is not dataclasses.MISSING
    }
    for group, grouped in groups.items():
        if group in defaults:  # the field's default, with the values given
            fields[group] = dataclasses.replace(defaults[group], **grouped)
        else:
            fields[group] = construct(_unwrap(hints[group])[0], grouped)
    return cls(**fields)


def resolved(value: T | None) -> T:
    """A knob's value once its protocol's is in (`resolve_protocol`).

    Raises:
        ValueError: The knob was left unset and its settings not resolved: a mistake in
            the code that uses them, not in a user's input.
    """
    if value is None:
        raise ValueError("a knob left unset was used before resolve_protocol()")
    return value


def resolve_protocol(settings: T, protocol: str | None = None) -> T:
    """Settings with every knob left unset (None) that depends on the build protocol
    (`ByProtocol`) set to the protocol's value, in nested settings too; the protocol is the
    settings' own `protocol` unless given.

    Raises:
        ArgumentError: A knob was given that the protocol does not use (`NotTaken`).
    """
    protocol = protocol or getattr(settings, "protocol", None)
    if protocol is None or not dataclasses.is_dataclass(settings):
        return settings
    hints = typing.get_type_hints(type(settings), include_extras=True)
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        base, _, marks = _unwrap(hints[f.name])
        if dataclasses.is_dataclass(base) and value is not None:
            changes[f.name] = resolve_protocol(value, protocol)
            continue
        mark = next((m for m in marks if isinstance(m, ByProtocol)), None)
        if mark is None:
            continue
        wanted = mark.value(protocol)
        if isinstance(wanted, NotTaken):
            if value is not None:
                raise ArgumentError(f.name, f"not taken by --protocol {protocol}: {wanted.why}")
        elif value is None:
            changes[f.name] = wanted
    return dataclasses.replace(settings, **changes) if changes else settings  # type: ignore[type-var]


def checked(function: F) -> F:
    """Check every argument a function is called with against its declaration (see
    `Argument.check`) before it runs: a task so wrapped refuses `limit=-4` or
    `temperature="hot"` from the command line, a suite and `inspect eval -T` alike."""
    signature = inspect.signature(function)
    by_name = {a.name: a for a in arguments_of(function)}

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        for name, value in bound.arguments.items():
            if name in by_name:
                bound.arguments[name] = by_name[name].check(value)
        return function(*bound.args, **bound.kwargs)

    return typing.cast(F, wrapper)
