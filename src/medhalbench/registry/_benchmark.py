"""What a benchmark tells the rest of medhalbench about itself."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import click
from inspect_ai import Task
from inspect_ai.scorer import SampleScore

from medhalbench._errors import MedhalbenchError
from medhalbench.planning import RoleEstimate, task_plan
from medhalbench.results import PublishedRow, ResultTable, RunResult, read_published
from medhalbench.statistics import Figure

# Settings under which two runs judged the same samples (and so can be compared); a setting
# a task does not have matches as absent in both runs.
SAME_SAMPLES = ("dataset_fingerprint", "responses", "knowledge", "not_sure", "pairing",
                "difficulty", "split", "sources", "seed", "limit", "rows")  # fmt: skip


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


@dataclass(frozen=True)
class DemoRun:
    """What the demo runs for one benchmark: a title, its tasks, and model roles."""

    title: str
    tasks: list[Task]
    roles: dict[str, str] | None = None


def one_call_per_sample(
    task: Task, roles: Mapping[str, str], settings: Mapping[str, Any]
) -> list[RoleEstimate]:
    """The plan of a task whose solver calls the model under test once per sample and epoch."""
    return [task_plan(task)]


@dataclass(frozen=True)
class Benchmark:
    """One benchmark: its task, how its runs are read and shown, and its commands.

    Attributes:
        name: The registry name, also the task's `system` metadata (`medhallu`).
        title: As the paper names it (`MedHallu`).
        paper: The paper's citation.
        task: The inspect task function.
        scorer: The name of the task's scorer in a log (read by `compare`).
        headline: The figures `compare` pairs between two runs, from the sample scores of
            the samples both runs scored and run A's settings.
        paired_correctness: Whether each sample is right or wrong (McNemar's test applies).
        summary: A run's narrow table for the terminal.
        tables: The report's tables of this benchmark's runs, with published rows given.
        charts: The report's SVG charts of this benchmark's runs.
        same_samples: Settings under which two runs judged the same samples.
        published_csv: The paper's published figures (see `read_published`).
        example: A small packaged example dataset.
        demo: The demo's run of this benchmark.
        eval_command: `medhalbench eval <name>`.
        build_command: `medhalbench build <name>`.
        commands: Other top-level commands the benchmark adds.
        plan: Model calls and tokens per role of a task, given the role models and the
            benchmark's planning settings (see `medhalbench.planning`).
        position: Where the benchmark comes in the demo and the report (then by name).
    """

    name: str
    title: str
    paper: str
    task: Callable[..., Task]
    scorer: str
    headline: Callable[[Sequence[SampleScore], Mapping[str, Any]], list[Figure]]
    summary: Callable[[RunResult], ResultTable]
    tables: Callable[[Sequence[RunResult], Sequence[PublishedRow]], list[ResultTable]]
    charts: Callable[[Sequence[RunResult]], list[str]] = lambda runs: []
    paired_correctness: bool = False
    same_samples: tuple[str, ...] = SAME_SAMPLES
    published_csv: Traversable | Path | None = None
    example: str | None = None
    demo: Callable[[DemoSettings], DemoRun] | None = None
    eval_command: click.Command | None = None
    build_command: click.Command | None = None
    commands: tuple[click.Command, ...] = field(default=())
    plan: Callable[[Task, Mapping[str, str], Mapping[str, Any]], list[RoleEstimate]] = (
        one_call_per_sample
    )
    position: int = 100

    def make_task(self, arguments: Mapping[str, Any]) -> Task:
        """The benchmark's task with these arguments.

        Raises:
            MedhalbenchError: An argument the task does not take (or a required one missing),
                checked against the task's signature before it runs.
        """
        signature = inspect.signature(self.task)
        unknown = [name for name in arguments if name not in signature.parameters]
        if unknown:
            raise MedhalbenchError(
                f"the {self.name} task takes no argument {', '.join(map(repr, unknown))} "
                f"(it takes {', '.join(signature.parameters)})"
            )
        try:
            signature.bind(**arguments)
        except TypeError as ex:  # a required argument missing
            raise MedhalbenchError(f"the {self.name} task: {ex}") from None
        return self.task(**arguments)

    def published(self) -> list[PublishedRow]:
        """The paper's published rows (none when it ships no `published_csv`)."""
        if self.published_csv is None:
            return []
        return read_published(self.published_csv, system=self.name, paper=self.title)
