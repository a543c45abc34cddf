"""A benchmark's implementation: its task, scorer, tables, charts, planner, demo, audit and
the functions its commands run, imported when a command first needs them (the benchmark's
light declaration, `Benchmark`, says where it is)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from inspect_ai import Task
from inspect_ai.log import EvalLog
from inspect_ai.model import Model, get_model
from inspect_ai.scorer import SampleScore, Score, Scorer
from inspect_ai.util import registry_info

from medhalbench._errors import MedhalbenchError
from medhalbench.planning import Plan, RoleEstimate, task_plan
from medhalbench.registry._audit import JudgeAudit
from medhalbench.registry._declaration import Benchmark
from medhalbench.results import PublishedRow, ResultTable, RunRecord, RunResult, read_published
from medhalbench.settings import Settings
from medhalbench.statistics import Figure


def registered_name(function: Callable[..., Any]) -> str:
    """The name inspect registered a task or scorer under, without its package
    (`medhallu` for `medhalbench/medhallu`): the name logs carry."""
    return str(registry_info(function).name).split("/")[-1]


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

    def outputs_task(self, make: Callable[..., Task], example: str | Path, outputs: str) -> Task:
        """A benchmark's task scoring packaged illustrative outputs (`--responses`) on the
        example's rows, within the demo's limit."""
        return make(dataset=example, limit=self.limit, responses=outputs)


@dataclass(frozen=True)
class DemoRun:
    """What the demo runs for one benchmark: a title, its tasks, and model roles.

    Attributes:
        title: The run's heading.
        tasks: The tasks run on the models under test.
        roles: Model roles by name.
        outputs: Tasks scoring outputs written to illustrate the comparisons (not a model's),
            by the name of the system standing for them; on the packaged example only.
    """

    title: str
    tasks: list[Task]
    roles: dict[str, str] | None = None
    outputs: dict[str, Task] = field(default_factory=dict)


def one_call_per_sample(
    task: Task, roles: Mapping[str, str], planning: Settings | None
) -> list[RoleEstimate]:
    """The plan of a task whose solver calls the model under test once per sample and epoch."""
    return [task_plan(task)]


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


Run = Callable[[Any, RoleModels], Any]
"""What a builder or tool runs: its settings record and role models to an `Outcome` (or a
coroutine of one)."""


@dataclass(frozen=True)
class Implementation:
    """What a benchmark does: its task, how its runs are read and shown, and what its
    commands run.

    Attributes:
        benchmark: Its declaration.
        task: The inspect task function (`benchmark_task` of its settings model).
        scorer: The task's scorer function.
        headline: The figures `compare` pairs between two runs, from the sample scores of
            the samples both runs scored and run A's settings.
        summary: A run's narrow table for the terminal.
        tables: The report's tables of this benchmark's runs, with published rows given.
        describe: What distinguishes a run, from its task settings, as short phrases
            (`["knowledge yes", "not sure no"]`): in titles, plans and run labels.
        charts: The report's SVG charts of this benchmark's runs.
        plan: Model calls and tokens per role of a task, given the role models and what the
            plans assume.
        sweep_table: The table of swept runs (see `Benchmark.sweep`), printed after them.
        demo: The demo's run of this benchmark.
        units: The judged units a sample's score metadata holds (DAHL's atomic facts), for
            `load_units`; None for a benchmark that judges whole outputs.
        audit: How a person audits its judge (`medhalbench audit`); None: not offered.
        outputs: Files written from a finished log, beside it (MedHal's predict-only
            verdicts as JSONL); their paths.
        commands: What its builder and tools run, by their settings model.
        plans: Model calls and tokens of a build, by its settings model, from the role
            models' names (calling no model).
        rescorer: The scorer that reads a log's stored replies again with the current
            reader, calling no model (`medhalbench rescore`), from the run's record and each
            sample's score in the log by id and epoch.
    """

    benchmark: Benchmark
    task: Callable[..., Task]
    scorer: Callable[..., Any]
    headline: Callable[[Sequence[SampleScore], RunRecord], list[Figure]]
    summary: Callable[[RunResult], ResultTable]
    tables: Callable[[Sequence[RunResult], Sequence[PublishedRow]], list[ResultTable]]
    describe: Callable[[RunRecord], list[str]] = _no_settings
    charts: Callable[[Sequence[RunResult]], list[str]] = lambda runs: []
    plan: Callable[[Task, Mapping[str, str], Settings | None], list[RoleEstimate]] = (
        one_call_per_sample
    )
    sweep_table: Callable[[Sequence[RunResult]], ResultTable] | None = None
    demo: Callable[[DemoSettings], DemoRun] | None = None
    units: Callable[[Mapping[str, Any]], list[Unit]] | None = None
    audit: JudgeAudit | None = None
    outputs: Callable[[EvalLog], list[Path]] = lambda log: []
    commands: Mapping[type[Settings], Run] = field(default_factory=dict)
    plans: Mapping[type[Settings], Callable[[Any, RoleModels], Plan]] = field(default_factory=dict)
    rescorer: Callable[[RunRecord, Mapping[tuple[str | int, int], Score]], Scorer] | None = None

    @property
    def task_name(self) -> str:
        """The name a log of the task carries, with its package (`medhalbench/medhallu`):
        another package's task of the same short name is not this one."""
        return str(registry_info(self.task).name)

    @property
    def scorer_name(self) -> str:
        """The name the task's scores carry in a log."""
        return registered_name(self.scorer)

    def make_task(self, arguments: Mapping[str, Any]) -> Task:
        """The benchmark's task with these arguments (`dataset="example"` names the packaged
        example), validated into its settings record.

        Raises:
            SettingsError: Naming every argument the task does not take.
        """
        return self.task(**arguments)

    def published(self) -> list[PublishedRow]:
        """The paper's published rows (none when it ships no `published_csv`)."""
        csv = self.benchmark.published_csv
        return (
            []
            if csv is None
            else read_published(csv, system=self.benchmark.name, paper=self.benchmark.title)
        )
