"""The settings model: one frozen pydantic model per benchmark, builder, tool and command,
validated once where its values enter (command line, suite, `inspect eval -T`, Python API)
and passed as that object from there on; a log keeps it (`stored`) and gives it back
(`read`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self, TypeVar

import pydantic
from pydantic import ConfigDict, ValidationError

from medhalbench._errors import DataError, MedhalbenchError
from medhalbench.settings._marks import EVAL_LOG_SUFFIX, STORED, BuildProtocol, local_path
from medhalbench.settings._options import options_of

T = TypeVar("T")
EXAMPLE_DATASET = "example"
"""The `dataset` value that names a benchmark's packaged example (`Settings.example`)."""
SETTINGS_KEY = "settings"
"""The metadata key a log keeps a run's settings record under."""


@dataclass(frozen=True)
class Problem:
    """What is wrong with one setting.

    Attributes:
        setting: The setting's name.
        reason: What is wrong with its value.
    """

    setting: str
    reason: str


class SettingProblem(ValueError):
    """Raised by a settings model's own rule (a validator) to name the settings at fault.

    Attributes:
        problems: The settings at fault, each with its reason.
    """

    def __init__(self, setting: str, reason: str, *more: Problem) -> None:
        self.problems = [Problem(setting, reason), *more]
        super().__init__("; ".join(p.reason for p in self.problems))


class SettingsError(MedhalbenchError, ValueError):
    """Values that settings do not take: every setting at fault, each with its reason.

    Attributes:
        problems: The settings at fault, in the order declared.
    """

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{p.setting}: {p.reason}" for p in problems))

    @classmethod
    def of(cls, error: ValidationError, model: type[pydantic.BaseModel]) -> SettingsError:
        """The problems of a pydantic validation error, in words a user reads."""
        problems = [p for e in error.errors(include_url=False) for p in problems_of(e, model)]
        order = {name: i for i, name in enumerate(model.model_fields)}
        return cls(sorted(problems, key=lambda p: order.get(p.setting, len(order))))


def problems_of(error: Any, model: type[pydantic.BaseModel]) -> list[Problem]:
    """The problems of one error of a pydantic validation, in words a user reads, each
    naming the setting of `model` at fault (or those its own rule names)."""
    setting = str(error["loc"][0]) if error["loc"] else "settings"
    names = list(model.model_fields)
    if error["type"] == "extra_forbidden":
        return [Problem(setting, f"no such setting (it takes {', '.join(names) or 'none'})")]
    if error["type"] == "missing":
        return [Problem(setting, "is required")]
    raised = (error.get("ctx") or {}).get("error")
    if isinstance(raised, SettingProblem):
        return raised.problems
    if error["type"] in ("model_type", "dict_type", "model_attributes_type"):
        return [Problem(setting, f"expected a mapping (got {error.get('input')!r})")]
    message = str(error["msg"]).removeprefix("Value error, ")
    if error["type"] in ("value_error", "assertion_error") or error["type"] in _OWN:
        return [Problem(setting, message)]
    given = error.get("input")
    return [Problem(setting, f"{message[:1].lower()}{message[1:]} (got {given!r})")]


@dataclass(frozen=True)
class _Commanded:
    """What a command says beyond one settings model's own values (see `as_commanded`)."""

    roles: frozenset[str] | None = None
    given: frozenset[str] = frozenset()


_COMMANDED: ContextVar[_Commanded | None] = ContextVar("commanded", default=None)


@contextlib.contextmanager
def as_commanded(roles: Mapping[str, Any], *, given: Iterable[str] = ()) -> Iterator[None]:
    """While settings are validated in the block, what the command said: the run's roles
    that name a model (a setting of another role's calls, `ForRole`, is refused) and the
    settings it gave (checked as given even at their default: `--split train` on one file
    is refused). Outside such a block (the Python API, `inspect eval -T`) neither is known:
    every role's setting is taken, and a setting at its default counts as not given."""
    named = frozenset(role for role, model in roles.items() if model)
    token = _COMMANDED.set(_Commanded(named, frozenset(given)))
    try:
        yield
    finally:
        _COMMANDED.reset(token)


_NOTHING_GENERATED = "has no effect on outputs written elsewhere (responses): nothing is generated"
_OWN = frozenset({"not_taken", "path_missing", "path_kind", "path_control", "path_secret"})
"""Error kinds of our own marks, whose message names the value already."""


class Settings(pydantic.BaseModel):
    """Base of every settings record: frozen, no setting it does not declare, no infinite
    or undefined number, every default validated (a knob set by protocol is resolved then),
    and each field's help its docstring (shared fields are documented once, on their
    type: see `settings.Outputs`, `SampleLimit`, ...)."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        allow_inf_nan=False,
        use_attribute_docstrings=True,
        validate_default=True,
        # Built when first validated, not when declared: help pages read fields, not values.
        defer_build=True,
    )

    example: ClassVar[str | None] = None
    """A packaged example the `dataset` value `example` names (None: none)."""

    @pydantic.model_validator(mode="before")
    @classmethod
    def _as_meant(cls, data: Any) -> Any:
        """Values as a user means them: `dataset: example` names the packaged example, and
        a flag is no number (YAML's `true` given for a count is refused as the text it is,
        not read as 1)."""
        if not isinstance(data, dict):
            return data
        numbers = {o.name for o in options_of(cls) if o.kind in (int, float) and not o.many}
        found = {
            k: str(v).lower() if k in numbers and isinstance(v, bool) else v
            for k, v in data.items()
        }
        if cls.example is not None and found.get("dataset") == EXAMPLE_DATASET:
            found["dataset"] = cls.example
        return found

    @pydantic.model_validator(mode="after")
    def _given_in_vain(self) -> Self:
        """Refuse a setting that would change nothing: one that qualifies another left unset
        (`Qualifies`: `evidence_k` without `evidence`), one of a role no model is named for
        (`ForRole`, where the roles are known: `as_commanded`), one another sets (`SetBy`: the
        temperature under `--paper-call`), or one of how replies are made (`Means("replies")`)
        where outputs written elsewhere are scored instead."""
        options = options_of(type(self))
        commanded = _COMMANDED.get() or _Commanded()
        written = any(o.means == "outputs" and getattr(self, o.name) for o in options)
        flags = {o.name: o.flag for o in options}
        named = commanded.roles
        found = []
        for o in options:
            if getattr(self, o.name) == o.default and o.name not in commanded.given:
                continue
            source = getattr(self, o.part_of) if o.part_of is not None else None
            wanted = o.qualifies.value if o.qualifies else None
            qualified = getattr(self, o.qualifies.setting) if o.qualifies else None
            unset = qualified in (None, False)
            if o.qualifies and (
                (unset and not o.qualifies.unset_may_be)
                or (not unset and wanted not in (None, qualified))
            ):
                value = "" if wanted is None else f" {wanted}"
                found.append(Problem(o.name, f"needs {flags[o.qualifies.setting]}{value}"))
            elif isinstance(source, str) and local_path(source).is_file():
                found.append(
                    Problem(
                        o.name, f"picks a part of a hub dataset or a folder; {source} is a file"
                    )
                )
            elif o.set_by is not None and getattr(self, o.set_by) not in (None, False):
                found.append(Problem(o.name, f"is set by {flags[o.set_by]}, as the authors set it"))
            elif o.role is not None and named is not None and o.role not in named:
                found.append(
                    Problem(o.name, f"applies only with a model for the {o.role} role (--{o.role})")
                )
            elif written and o.means == "replies":
                found.append(Problem(o.name, _NOTHING_GENERATED))
        if found:
            raise SettingProblem(found[0].setting, found[0].reason, *found[1:])
        return self

    @pydantic.model_validator(mode="after")
    def _writes_apart(self, info: pydantic.ValidationInfo) -> Self:
        """Refuse an output (`LocalPath(writes=True)`) that is one of the command's own
        inputs, of a kind it reads inside a folder it reads (`LocalPath.reads`), or an
        existing log, its own input or not: it would write over what it reads, or a run."""
        if (info.context or {}).get(STORED):
            return self
        marked = [(o, o.path) for o in options_of(type(self)) if o.path is not None]
        read = {path: (o, m) for o, m in marked if not m.writes for path in self._paths(o.name)}
        for o, mark in marked:
            for path in self._paths(o.name) if mark.writes else ():
                if path in read:
                    flag = read[path][0].flag
                    raise SettingProblem(
                        o.name, f"{path} is also its {flag}: it would write over it"
                    )
                for folder, (other, given) in read.items():
                    if path.suffix in given.reads and path.is_relative_to(folder):
                        raise SettingProblem(
                            o.name,
                            f"{path} lies in {folder}, whose {path.suffix} files are read as "
                            f"its {other.flag}: it would write over what it reads",
                        )
                if path.suffix == EVAL_LOG_SUFFIX and path.is_file():
                    raise SettingProblem(
                        o.name, f"{path} is a run's log: it would be replaced (name another file)"
                    )
        return self

    def _paths(self, name: str) -> list[Path]:
        value = getattr(self, name)
        values = value if isinstance(value, list) else [value]
        return [local_path(v).resolve() for v in values if isinstance(v, str) and v]

    @classmethod
    def of(cls, values: Mapping[str, Any] | None = None, /, **given: Any) -> Self:
        """Settings validated from values by setting name.

        Raises:
            SettingsError: Naming every setting at fault.
        """
        try:
            return cls.model_validate({**(values or {}), **given})
        except ValidationError as ex:
            raise SettingsError.of(ex, cls) from None

    def stored(self) -> dict[str, Any]:
        """The settings as a log keeps them (JSON values)."""
        return self.model_dump(mode="json")

    @classmethod
    def read(cls, stored: Mapping[str, Any], *, where: str = "the log") -> Self:
        """Settings read back from what a log kept: settings the record does not declare (a
        log of another version, or a view declaring some of them) are left out, those the
        log lacks keep their defaults, and local paths are not looked for.

        Raises:
            DataError: A value does not fit its declared type.
        """
        known = {k: v for k, v in stored.items() if k in cls.model_fields}
        try:
            return cls.model_validate(known, context={STORED: True})
        except ValidationError as ex:
            first = SettingsError.of(ex, cls).problems[0]
            raise DataError(
                f"its settings do not fit {cls.__name__}: {first.setting}: {first.reason}",
                path=where,
            ) from None


class ProtocolSettings(Settings):
    """Settings with a build protocol, declared first so that the knobs it decides
    (`ByProtocol`) are resolved by it."""

    protocol: BuildProtocol = "ours"
    """'ours' (our rules; each difference from the authors' build code is in the
    benchmark's README) or 'paper' (the authors' build code, rule by rule)."""


_KEPT = "medhalbench_settings"
"""The attribute an object (a task) keeps its settings record in."""


def keep_settings(holder: object, record: Settings) -> None:
    """Keep a settings record on what it made (a task), for what reads it later (its plan)."""
    setattr(holder, _KEPT, record)


def kept_settings(holder: object) -> Settings | None:
    """The settings record kept on an object (`keep_settings`), or None."""
    found = getattr(holder, _KEPT, None)
    return found if isinstance(found, Settings) else None


def resolved(value: T | None) -> T:
    """A knob set by protocol, which validation resolved (see `ByProtocol`).

    Raises:
        ValueError: The knob is None: the protocol does not take it, and the code that
            uses it should not have.
    """
    if value is None:
        raise ValueError("a knob its protocol does not take was used")
    return value
