"""What a benchmark tells the rest of medhalbench about itself: its task (whose signature is
its evaluation options), its scorer, roles, builder, tools, tables and published rows. The
command line is derived from these; nothing here knows how options are spelt."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Protocol

from inspect_ai import Task
from inspect_ai.log import EvalLog
from inspect_ai.model import Model, get_model
from inspect_ai.scorer import SampleScore
from inspect_ai.util import registry_info

from medhalbench._errors import MedhalbenchError
from medhalbench.planning import Plan, RoleEstimate, task_plan
from medhalbench.registry._audit import JudgeAudit
from medhalbench.registry._task import SETTINGS_TYPE
from medhalbench.results import PublishedRow, ResultTable, RunRecord, RunResult, read_published
from medhalbench.settings import Settings
from medhalbench.statistics import Figure

DATASET = "dataset"
"""The setting that names a run's data (every benchmark's, `RunData`)."""


def registered_name(function: Callable[..., Any]) -> str:
    """The name inspect registered a task or scorer under, without its package
    (`medhallu` for `medhalbench/medhallu`): the name logs carry."""
    return str(registry_info(function).name).split("/")[-1]


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


@dataclass
class RoleModels:
    """The models of a command's roles, by role, resolved with the command's connection
    options (the command line checks every name before any work).

    Attributes:
        names: Each role's model names.
        resolver: Turns a role and a model name into a model.
        fallback: The model settings may refer to without naming one (a builder's `llm`
            NLI judge): the command's `--model`, or the embedded model where no role names a
            real one; None where neither applies.
    """

    names: dict[str, list[str]]
    resolver: Callable[[str, str], Model] = lambda role, name: get_model(name)
    fallback: str | None = None

    def models(self, role: str) -> list[Model]:
        """Every model of a role (none when the role is off)."""
        return [self.resolver(role, name) for name in self.names.get(role, [])]

    def model(self, role: str) -> Model:
        """The model of a role played by one model."""
        return self.models(role)[0]

    def name_for(self, role: str, name: str | None = None) -> str:
        """The model name settings give a role (e.g. a builder's LLM NLI judge), or the
        fallback model when they name none.

        Raises:
            MedhalbenchError: No name, and no fallback: a real model is involved and the
                embedded one may not stand in for it silently.
        """
        chosen = name or self.fallback
        if chosen is None:
            raise MedhalbenchError(
                f"no model is named for the {role} role: name one in its setting, or give "
                "--model MODEL for every role not named"
            )
        return chosen

    def resolve(self, role: str, name: str | None = None) -> Model:
        """The model settings give a role (see `name_for`)."""
        return self.resolver(role, self.name_for(role, name))

    def check(self) -> None:
        """Resolve every named model now, so that a bad name or key stops before any work."""
        for role, listed in self.names.items():
            for name in listed:
                self.resolver(role, name)


Printable = str | ResultTable
"""What a builder or tool reports: lines of text and tables."""


class Outcome(Protocol):
    """A build's or a tool's result, as the command line prints it."""

    def summary(self) -> Sequence[Printable]:
        """Lines and tables, in order."""
        ...


@dataclass(frozen=True)
class Builder:
    """A benchmark's data builder (`medhalbench build NAME`).

    Attributes:
        settings: The settings model whose fields are the builder's options (inputs, `out`:
            the folder its finished work lies in, selection, knobs).
        roles: The models it calls.
        run: Builds from settings with the role models (resumable: a rerun does the rest).
        plan: Calls and tokens per role from settings and the role models' names (the
            models are not resolved), calling no model.
    """

    settings: type[Settings]
    roles: tuple[Role, ...]
    run: Callable[[Any, RoleModels], Awaitable[Outcome]]
    plan: Callable[[Any, RoleModels], Plan]


@dataclass(frozen=True)
class Tool:
    """A command of a benchmark besides eval and build (`medhalbench merge`,
    `medhalbench analyze clusters`).

    Attributes:
        path: The command's words (`("analyze", "clusters")`).
        request: The settings model whose fields are its options; its docstring's first
            line is the command's help.
        run: Runs a request with the role models (a coroutine function is awaited).
        roles: The models it calls (none for most).
        group_help: The help of the group its first word names, for a path of two words.
    """

    path: tuple[str, ...]
    request: type[Settings]
    run: Callable[[Any, RoleModels], Outcome | Awaitable[Outcome]]
    roles: tuple[Role, ...] = ()
    group_help: str = ""


@dataclass(frozen=True)
class Sweep:
    """A task argument an eval can sweep: several values, one run each.

    Attributes:
        argument: The task argument (`temperature`).
        flag: The option taking comma-separated values (`--temperatures`).
        table: The table of the swept runs, printed after them.
    """

    argument: str
    flag: str
    table: Callable[[Sequence[RunResult]], ResultTable] | None = None


@dataclass(frozen=True)
class DemoSettings:
    """How the demo runs a benchmark.

    Attributes:
        data: The user's data instead of the packaged example (None: the example).
        limit: Use at most this many rows.
        structured: Constrained verdicts with probabilities (False: the papers' free text).
        cache: inspect's cache policy option as given on the command line.
    """

    data: str | None = None
    limit: int | None = None
    structured: bool = True
    cache: Any = None

    def task(self, make: Callable[..., Task], example: str | Path, **arguments: Any) -> Task:
        """A benchmark's task on the demo's data (the example unless the user gave theirs),
        limit and verdict shape, with the benchmark's own `arguments`."""
        shaped = self.structured
        data = self.data or example
        return make(
            dataset=data, limit=self.limit, structured=shaped, probabilities=shaped, **arguments
        )


@dataclass(frozen=True)
class DemoRun:
    """What the demo runs for one benchmark: a title, its tasks, and model roles."""

    title: str
    tasks: list[Task]
    roles: dict[str, str] | None = None


def one_call_per_sample(
    task: Task, roles: Mapping[str, str], planning: Settings | None
) -> list[RoleEstimate]:
    """The plan of a task whose solver calls the model under test once per sample and epoch."""
    return [task_plan(task)]


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
class Unit:
    """One judged part of a sample's output (a DAHL atomic unit).

    Attributes:
        text: The unit as judged.
        verdict: The judge's verdict (`true`, `false`, `unknown`); None where its reply
            could not be read.
        p_false: P(false) where the judge gave log-probabilities.
        unread_reason: Why the strict reader read no verdict from the judge's reply.
    """

    text: str
    verdict: str | None
    p_false: float | None = None
    unread_reason: str | None = None


def _no_settings(record: RunRecord) -> list[str]:
    return []


@dataclass(frozen=True)
class Benchmark:
    """One benchmark: its task, how its runs are read and shown, its builder and tools.

    Its name is the name its task is registered under (the name every log of it carries),
    and the name of its scorer is read from the scorer: each is written once.

    Attributes:
        title: As the paper names it (`MedHallu`).
        paper: The paper's citation.
        task: The inspect task function; its signature and docstring are the benchmark's
            evaluation options.
        scorer: The task's scorer function.
        headline: The figures `compare` pairs between two runs, from the sample scores of
            the samples both runs scored and run A's settings.
        summary: A run's narrow table for the terminal.
        tables: The report's tables of this benchmark's runs, with published rows given.
        key_figure: The figure its runs are summarised by.
        describe: What distinguishes a run, from its task settings, as short phrases
            (`["knowledge yes", "not sure no"]`): in titles, plans and run labels.
        charts: The report's SVG charts of this benchmark's runs.
        paired_correctness: Whether each sample is right or wrong (McNemar's test applies).
        roles: The model roles its task uses besides the model under test.
        sweep: The task argument its eval can sweep.
        plan: Model calls and tokens per role of a task, given the role models and the
            planning settings.
        plan_settings: The settings model of what its plans assume (with `--dry-run`).
        published_csv: The paper's published figures (see `read_published`).
        example: A small packaged example dataset (`--dataset example`, `dataset: example`).
        demo: The demo's run of this benchmark.
        builder: Its data builder.
        tools: Its other commands.
        units: The judged units a sample's score metadata holds (DAHL's atomic facts), for
            `load_units`; None for a benchmark that judges whole outputs.
        audit: How a person audits its judge (`medhalbench audit`); None: not offered.
        outputs: Files written from a finished log, beside it (MedHal's predict-only
            verdicts as JSONL); their paths.
        position: Where it comes in the demo and the report (then by name).
    """

    title: str
    paper: str
    task: Callable[..., Task]
    scorer: Callable[..., Any]
    headline: Callable[[Sequence[SampleScore], RunRecord], list[Figure]]
    summary: Callable[[RunResult], ResultTable]
    tables: Callable[[Sequence[RunResult], Sequence[PublishedRow]], list[ResultTable]]
    key_figure: KeyFigure
    describe: Callable[[RunRecord], list[str]] = _no_settings
    charts: Callable[[Sequence[RunResult]], list[str]] = lambda runs: []
    paired_correctness: bool = False
    roles: tuple[Role, ...] = ()
    sweep: Sweep | None = None
    plan: Callable[[Task, Mapping[str, str], Settings | None], list[RoleEstimate]] = (
        one_call_per_sample
    )
    plan_settings: type[Settings] | None = None
    published_csv: Traversable | Path | None = None
    example: str | None = None
    demo: Callable[[DemoSettings], DemoRun] | None = None
    builder: Builder | None = None
    tools: tuple[Tool, ...] = field(default=())
    units: Callable[[Mapping[str, Any]], list[Unit]] | None = None
    audit: JudgeAudit | None = None
    outputs: Callable[[EvalLog], list[Path]] = lambda log: []
    position: int = 100

    @property
    def name(self) -> str:
        """The registry name: the task's registered name (`medhallu`)."""
        return registered_name(self.task)

    @property
    def task_name(self) -> str:
        """The name a log of the task carries, with its package (`medhalbench/medhallu`):
        another package's task of the same short name is not this one."""
        return str(registry_info(self.task).name)

    @property
    def scorer_name(self) -> str:
        """The name the task's scores carry in a log."""
        return registered_name(self.scorer)

    @property
    def settings(self) -> type[Settings]:
        """The settings model of its task: its evaluation options."""
        model = getattr(self.task, SETTINGS_TYPE, None)
        return model if model is not None else Settings

    def make_task(self, arguments: Mapping[str, Any]) -> Task:
        """The benchmark's task with these arguments (`dataset="example"` names the packaged
        example), validated into its settings record.

        Raises:
            SettingsError: Naming every argument the task does not take.
        """
        return self.task(**arguments)

    def published(self) -> list[PublishedRow]:
        """The paper's published rows (none when it ships no `published_csv`)."""
        if self.published_csv is None:
            return []
        return read_published(self.published_csv, system=self.name, paper=self.title)
