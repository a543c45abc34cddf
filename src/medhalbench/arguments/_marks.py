"""Marks that declare, inside a type annotation (`Annotated[int, Range(min=1)]`), what a
value of an argument may be and how the command line spells it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal


@dataclass(frozen=True)
class Range:
    """The values a number may take (ends included unless open)."""

    min: float | None = None
    max: float | None = None
    min_open: bool = False
    max_open: bool = False

    def admits(self, value: float) -> bool:
        """Whether a number lies in the range."""
        if self.min is not None and (value <= self.min if self.min_open else value < self.min):
            return False
        return not (
            self.max is not None and (value >= self.max if self.max_open else value > self.max)
        )

    def __str__(self) -> str:
        def shown(end: float) -> str:
            return f"{int(end)}" if float(end).is_integer() else f"{end:g}"

        low = f"{shown(self.min)}{'<' if self.min_open else '<='}" if self.min is not None else ""
        high = f"{'<' if self.max_open else '<='}{shown(self.max)}" if self.max is not None else ""
        if self.min is not None and not high:
            return f"x{'>' if self.min_open else '>='}{shown(self.min)}"
        return f"{low}x{high}"


@dataclass(frozen=True)
class LocalPath:
    """A value that may name a local file or folder (else, e.g., a hub id): the command line
    makes an existing one absolute, so that a run resumed from another folder finds it.

    Attributes:
        dir_okay: A folder is accepted.
        file_okay: A file is accepted.
        must_exist: The path must exist.
    """

    dir_okay: bool = True
    file_okay: bool = True
    must_exist: bool = False


@dataclass(frozen=True)
class Spelling:
    """How the command line spells an argument, where its name alone does not say.

    Attributes:
        flag: The option's flag (default `--name-with-dashes`).
        positional: A command-line argument rather than an option.
        metavar: What the help shows for the value.
    """

    flag: str | None = None
    positional: bool = False
    metavar: str | None = None


@dataclass(frozen=True)
class Parse:
    """A value written as text in a form of its own (`0/4`, `medqa=PATH`): `read` turns the
    text into the value or raises ValueError with what is wrong.

    Attributes:
        read: Text to value.
        metavar: What the help shows for the value.
    """

    read: Callable[[str], Any]
    metavar: str


@dataclass(frozen=True)
class Internal:
    """Not an option: a setting that library code sets (e.g. a range of temperatures)."""


Meaning = Literal["samples", "condition", "replies", "judging", "outputs", "run"]
"""What a setting of a run means when runs are set side by side: which `samples` it judged,
the `condition` the benchmark asked about, how the model under test made its `replies`, how
they were `judging`ed, the `outputs` written elsewhere that stand for replies, or nothing
that tells runs apart (`run`: resamples, the cache)."""


@dataclass(frozen=True)
class Means:
    """What a setting means (see `Meaning`)."""

    meaning: Meaning


@dataclass(frozen=True)
class Qualifies:
    """A setting that qualifies another and means nothing without it (a closed-book run's
    `evidence_k`): no part of a run that leaves the other unset.

    Attributes:
        setting: The setting it qualifies.
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
    does not use it (`NotTaken`) refuses it when given. The settings' `protocol` decides
    (see `resolve_protocol`).

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


MAX_WHOLE = 2**31 - 1
"""The largest whole number a provider takes (a 32-bit signed integer: llama.cpp's and most
servers' token budgets and seeds)."""
Count = Annotated[int, Range(min=1, max=MAX_WHOLE)]
"""Limits, counts, token budgets, connections, seconds: a whole number of at least 1 that a
provider can take."""
NonNegative = Annotated[int, Range(min=0)]
"""Retries, resamples: a whole number of at least 0."""
Temperature = Annotated[float, Range(0.0, 2.0)]
"""A sampling temperature."""
Share = Annotated[float, Range(0.0, 1.0)]
"""Thresholds, tolerances, top-p: between 0 and 1."""
Fraction = Annotated[float, Range(0.0, 1.0, min_open=True)]
"""A sampled fraction: above 0, at most 1."""
Positive = Annotated[float, Range(0.0, min_open=True)]
"""A rate: above 0."""
DataSource = Annotated[str, LocalPath()]
"""A dataset: a local file or folder, or a hub id."""
InputFile = Annotated[str, LocalPath(dir_okay=False)]
"""A local file the run reads (a prompt, answers written elsewhere)."""
OutputFolder = Annotated[str, LocalPath(file_okay=False)]
"""A folder a builder writes to."""
BuildProtocol = Literal["ours", "paper"]
"""How a builder builds: `ours` (our rules, each difference from the authors' build code
documented in the benchmark's README) or `paper` (the authors' build code, rule by rule)."""
