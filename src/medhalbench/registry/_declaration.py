"""What a benchmark declares about itself, lightly: its name, paper, settings models, roles,
builder and tools, and where its implementation is. The command line is built from these
alone (`--help` loads no benchmark); the implementation is imported when a command runs."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

from medhalbench._lazy import load
from medhalbench.settings import BuilderSettings, Settings

if TYPE_CHECKING:
    from medhalbench.registry._implementation import Implementation

DATASET = "dataset"
"""The setting that names a run's data (every benchmark's, `RunData`)."""


@dataclass(frozen=True)
class Role:
    """A model role besides the model under test.

    Attributes:
        name: The role's name (`splitter`), also its command-line option (`--splitter`).
        help: What the role's model does.
        judge: A judge of the model under test's replies: `--judge MODEL` names it, and it
            is never silently the embedded model when the model under test is a real one.
        many: Several models play it (an ensemble; the option is repeated).
        optional: Off unless named (the extractor).
        option: Named by its own option `--ROLE`; False for a role whose model a setting
            names (a builder's NLI judge), which still takes `--role-base-url`.
    """

    name: str
    help: str
    judge: bool = True
    many: bool = False
    optional: bool = False
    option: bool = True


EXTRACTOR = Role(
    "extractor",
    "Model that reads the replies the strict reader cannot, with a constrained JSON answer "
    "(off unless named); what it reads is counted apart and every figure is also given "
    "without it.",
    judge=False,
    optional=True,
)
"""The optional role every benchmark with a verdict reader has."""
NLI_JUDGE = Role("nli", "The LLM NLI judge (named by --nli llm:MODEL).", option=False)
"""A builder's LLM entailment judge, named by its `--nli` setting."""


@dataclass(frozen=True)
class Builder:
    """A benchmark's data builder (`medhalbench build NAME`); the implementation runs and
    plans it (`Implementation.commands`, `Implementation.plans`).

    Attributes:
        settings: The settings model whose fields are the builder's options (inputs, `out`:
            the folder its finished work lies in, selection, knobs).
        roles: The models it calls.
    """

    settings: type[BuilderSettings]
    roles: tuple[Role, ...]


@dataclass(frozen=True)
class Tool:
    """A command of a benchmark besides eval and build (`medhalbench medhallu merge`,
    `medhalbench medhallu analyze clusters`); the implementation runs it
    (`Implementation.commands`).

    Attributes:
        path: The command's words (`("analyze", "clusters")`).
        request: The settings model whose fields are its options; its docstring's first
            line is the command's help.
        roles: The models it calls (none for most).
        group_help: The help of the group its first word names, for a path of two words.
    """

    path: tuple[str, ...]
    request: type[Settings]
    roles: tuple[Role, ...] = ()
    group_help: str = ""


@dataclass(frozen=True)
class Sweep:
    """A setting an eval can sweep: several values, one run each (the implementation tables
    the swept runs: `Implementation.sweep_table`).

    Attributes:
        argument: The setting (`temperature`).
        flag: The option taking comma-separated values (`--temperatures`).
    """

    argument: str
    flag: str


@dataclass(frozen=True)
class KeyFigure:
    """The one figure a benchmark is read by, as the report's summary shows it.

    Attributes:
        label: Its name (`F1`).
        ours: Our metric.
        paper: The paper protocol's metric, the one the published rows give.
    """

    label: str
    ours: str
    paper: str


@dataclass(frozen=True)
class Benchmark:
    """One benchmark, as it declares itself: enough for the command line and the registry;
    the rest is its implementation, imported when first used (`implementation`).

    Attributes:
        name: Its name: the name its task is registered under and every log of it carries.
        title: As the paper names it (`MedHallu`).
        paper: The paper's citation.
        settings: Its evaluation settings model (the options of `eval NAME`).
        implementation_path: Where its `Implementation` is (`package.module:attribute`).
        key_figure: The figure its runs are summarised by.
        roles: The model roles its task uses besides the model under test.
        sweep: The setting its eval can sweep.
        plan_settings: The settings model of what its plans assume (with `--dry-run`).
        builder: Its data builder.
        tools: Its other commands.
        demo: Whether the demo runs it (`Implementation.demo`).
        paired_correctness: Whether each sample is right or wrong (McNemar's test applies).
        position: Where it comes in the demo and the report (then by name).
        paper_data: The data its paper's published figures were computed on, as `--dataset`
            names it (a hub id, read at its pinned revision) or as a local copy's fingerprint
            (`dataset_fingerprint`) gives it: a published figure stands beside a run only on
            this data.
        headline: The figures a run is read by, ours and the paper protocol's: those
            `compare` pairs, inspect's display shows and `load_runs(..., headline=True)` keeps.
    """

    name: str
    title: str
    paper: str
    settings: type[Settings]
    implementation_path: str
    key_figure: KeyFigure
    roles: tuple[Role, ...] = ()
    sweep: Sweep | None = None
    plan_settings: type[Settings] | None = None
    builder: Builder | None = None
    tools: tuple[Tool, ...] = field(default=())
    demo: bool = True
    paired_correctness: bool = False
    position: int = 100
    paper_data: tuple[str, ...] = ()
    headline: tuple[str, ...] = ()

    @functools.cached_property
    def implementation(self) -> Implementation:
        """Its implementation (task, scorer, tables, ...), imported on first use."""
        found: Implementation = load(self.implementation_path)
        return found

    @property
    def published_csv(self) -> Traversable | None:
        """The paper's published figures (see `results.read_published`): `published.csv`
        beside its implementation, if it ships one."""
        package = self.implementation_path.partition(":")[0].rpartition(".")[0]
        csv = resources.files(package).joinpath("published.csv")
        return csv if csv.is_file() else None

    @property
    def example(self) -> str | None:
        """Its packaged example (`--dataset example`), if it has one."""
        return self.settings.example
