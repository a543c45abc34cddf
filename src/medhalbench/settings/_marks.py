"""Marks that declare, inside a settings field's type (`Annotated[int, Means("samples")]`),
what the field means, how the command line spells it and how pydantic reads it: each mark
is read by the one mechanism it serves (validation, the command line, the report)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from annotated_types import Ge, Gt, Le
from pydantic import BeforeValidator, GetCoreSchemaHandler, ValidationInfo
from pydantic_core import PydanticCustomError, core_schema

from medhalbench._secrets import redact

PROTOCOL = "protocol"
"""The setting whose value decides the knobs marked `ByProtocol`."""
STORED = "stored"
"""The validation context of settings read back from a log: their local paths are not
checked against this machine (a log outlives the files it names)."""


def local_path(value: str) -> Path:
    """A path as given, `~` expanded where it names a home (`~nobody` stays as written)."""
    try:
        return Path(value).expanduser()
    except RuntimeError:  # no such user's home
        return Path(value)


@dataclass(frozen=True)
class LocalPath:
    """A value that may name a local file or folder (else, e.g., a hub id): validation checks
    that one that must exist does, and that an existing one is of the kind it takes; the
    command line and suites make a relative one absolute (see `anchored`).

    Attributes:
        dir_okay: A folder is accepted.
        file_okay: A file is accepted.
        must_exist: The path must exist.
        writes: The command writes there (an output): it may not be one of its inputs.
        reads: In a folder given, the kinds of file the command reads (suffixes): an output
            of such a kind may not lie inside it.
    """

    dir_okay: bool = True
    file_okay: bool = True
    must_exist: bool = False
    writes: bool = False
    reads: tuple[str, ...] = ()

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.with_info_after_validator_function(self._check, handler(source))

    def _check(self, value: Any, info: ValidationInfo) -> Any:
        if not isinstance(value, str) or (info.context or {}).get(STORED):
            return value
        if not value.isprintable():  # a name a terminal would act on when it is shown
            raise PydanticCustomError(
                "path_control", "{path} holds control characters", {"path": ascii(value)}
            )
        # inspect writes paths where we redact nothing (its data folder); an address's
        # credentials (es:https://user:pw@host) are its own and taken as secrets.
        if "://" not in value and redact(value) != value:
            raise PydanticCustomError("path_secret", "a path holding a secret: name it otherwise")
        path = local_path(value)
        if not path.exists():
            if self.must_exist:
                raise PydanticCustomError("path_missing", "{path} does not exist", {"path": value})
            return value
        if path.is_dir() and not self.dir_okay:
            raise PydanticCustomError(
                "path_kind", "{path} is a folder, not a file", {"path": value}
            )
        if not path.is_dir() and not self.file_okay:
            raise PydanticCustomError(
                "path_kind", "{path} is a file, not a folder", {"path": value}
            )
        return value


@dataclass(frozen=True)
class Spelling:
    """How the command line spells a setting, where its name alone does not say.

    Attributes:
        flag: The option's flag (default `--name-with-dashes`); an on/off setting's own
            flag is the only one, off unless given (no `--no-` form).
        positional: A command-line argument rather than an option.
        metavar: What the help shows for the value.
    """

    flag: str | None = None
    positional: bool = False
    metavar: str | None = None


@dataclass(frozen=True)
class Internal:
    """Not an option: a setting that library code sets (e.g. a range of temperatures)."""


def _split_commas(value: Any) -> Any:
    """Text of comma-separated items (`easy,medium`), alone or repeated, as a list."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        return value
    parts = [
        part.strip() if isinstance(part, str) else part
        for item in items
        for part in (item.split(",") if isinstance(item, str) else [item])
        if not isinstance(part, str) or part.strip()
    ]
    if items and not parts:  # "--difficulty ''" picks nothing: no reading of it is right
        raise ValueError("expected one or more comma-separated values, got none")
    return parts


COMMA_SEPARATED = BeforeValidator(_split_commas)
"""A list that may be given as comma-separated text (`--difficulty easy,medium`)."""


def parsed_text(read: Callable[[str], Any]) -> BeforeValidator:
    """A value written as text in a form of its own (`0/4`, `medqa=PATH`): `read` turns the
    text into the value, or raises ValueError saying what is wrong; a value already of its
    type (read back from a log) passes as it is."""
    return BeforeValidator(lambda value: read(value) if isinstance(value, str) else value)


Meaning = Literal["samples", "condition", "replies", "judging", "outputs", "run"]
"""What a setting of a run means when runs are set side by side: which `samples` it judged,
the `condition` the benchmark asked about, how the model under test made its `replies`, how
they were `judging`ed, the `outputs` written elsewhere that stand for replies, or nothing
that tells runs apart (`run`: resamples, the cache)."""


@dataclass(frozen=True)
class Means:
    """What a setting means (see `Meaning`); an unmarked one is a condition."""

    meaning: Meaning


@dataclass(frozen=True)
class Qualifies:
    """A setting that qualifies another and means nothing without it (a closed-book run's
    `evidence_k`, `--published` without `--wide`, the batch checker's prompt in unit mode):
    refused where the other is unset (None, or a flag left off), or is not `value`.

    Attributes:
        setting: The setting it qualifies.
        value: The value it qualifies (None: any that is set).
        unset_may_be: The other left unset may come to be `value` (`--retriever` unset is
            hybrid where the index holds vectors): refused only where it is set to another.
    """

    setting: str
    value: Any = None
    unset_may_be: bool = False


@dataclass(frozen=True)
class SetBy:
    """A setting another one sets whenever it is given (`--paper-call` makes the call with the
    authors' temperature and length): given as well, it is refused, never silently replaced.

    Attributes:
        setting: The setting that sets it.
    """

    setting: str


@dataclass(frozen=True)
class ForRole:
    """A setting of one role's calls (the extractor's prompt): refused where the roles of a
    run are known (the command line, a suite) and none names a model for it.

    Attributes:
        role: The role.
    """

    role: str


@dataclass(frozen=True)
class PartOf:
    """A setting that picks a part of a source with parts (a hub dataset's config or split,
    a folder's split file): refused where the source is one local file, which has none.

    Attributes:
        setting: The source's setting.
    """

    setting: str


@dataclass(frozen=True)
class NotTaken:
    """What a protocol says of a knob it does not use: given, the knob is refused (never
    silently ignored).

    Attributes:
        why: Why the protocol does not use it.
    """

    why: str


@dataclass(frozen=True)
class ByProtocol:
    """A knob whose value, when not given (None), is its build protocol's; a protocol that
    does not use it (`NotTaken`) refuses it when given. Validation decides, from the settings'
    `protocol` (declared before the knobs: see `ProtocolSettings`).

    Attributes:
        ours: Its value under `--protocol ours`.
        paper: Its value under `--protocol paper`.
    """

    ours: Any
    paper: Any

    def value(self, protocol: str) -> Any:
        """The knob's value under a protocol (a `NotTaken` where it is not used)."""
        return self.ours if protocol == "ours" else self.paper

    def describe(self) -> str:
        """The protocols' values, for the help."""

        def shown(value: Any) -> str:
            if isinstance(value, NotTaken):
                return f"not taken ({value.why})"
            return "none" if value is None else str(value).lower()

        return f"Default: ours {shown(self.ours)}; paper {shown(self.paper)}."

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.with_info_before_validator_function(self._pick, handler(source))

    def _pick(self, value: Any, info: ValidationInfo) -> Any:
        protocol = info.data.get(PROTOCOL, "ours")
        wanted = self.value(protocol)
        if isinstance(wanted, NotTaken):
            if value is not None:
                raise PydanticCustomError(
                    "not_taken",
                    "not taken by --protocol {protocol}: {why}",
                    {"protocol": protocol, "why": wanted.why},
                )
            return None
        return wanted if value is None else value


MAX_WHOLE = 2**31 - 1
"""The largest whole number a provider takes (a 32-bit signed integer: llama.cpp's and most
servers' token budgets and seeds)."""
Count = Annotated[int, Ge(1), Le(MAX_WHOLE)]
"""Limits, counts, token budgets, connections, seconds: a whole number of at least 1 that a
provider can take."""
NonNegative = Annotated[int, Ge(0)]
"""Retries, resamples: a whole number of at least 0."""
Seed = Annotated[int, Ge(0), Le(MAX_WHOLE)]
"""A seed a provider takes."""
Temperature = Annotated[float, Ge(0.0), Le(2.0)]
"""A sampling temperature."""
Share = Annotated[float, Ge(0.0), Le(1.0)]
"""Thresholds, tolerances, top-p: between 0 and 1."""
Fraction = Annotated[float, Gt(0.0), Le(1.0)]
"""A sampled fraction: above 0, at most 1."""
Positive = Annotated[float, Gt(0.0)]
"""A rate: above 0."""
DataSource = Annotated[str, LocalPath()]
"""A dataset: a local file or folder, or a hub id."""
InputFile = Annotated[str, LocalPath(dir_okay=False)]
"""A local file the run reads (a prompt, answers written elsewhere)."""
OutputFolder = Annotated[str, LocalPath(file_okay=False, writes=True)]
"""A folder a command writes to."""
EVAL_LOG_SUFFIX = ".eval"
"""The suffix of inspect's log files: an output never replaces an existing one."""
OutputFile = Annotated[str, LocalPath(dir_okay=False, writes=True)]
"""A file a command writes."""
BuildProtocol = Literal["ours", "paper"]
"""How a builder builds: `ours` (our rules, each difference from the authors' build code
documented in the benchmark's README) or `paper` (the authors' build code, rule by rule)."""
