"""Declaring a benchmark's task from its settings model: the model's fields are the task's
options (the command line, suites and `inspect eval -T` give them flat, by name), each call is
validated into the record once, the task body gets the record, and the log keeps it under one
metadata key (`SETTINGS_KEY`).

Generation settings (`temperature`, `max_tokens`, ...) are kept in the record as the task was
given them, but a task passes them to its `GenerateConfig`, which inspect's own options
(`--temperature`) may override: the value a run's settings report is inspect's effective
config (`log.plan.config`), read back in one place (see `results.RunRecord`)."""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from inspect_ai import Task, task
from inspect_ai.hooks import Hooks, hooks
from inspect_ai.solver import Generate, Solver, TaskState, chain, solver

from medhalbench._call_ceiling import call_ceiling, limit_sample_calls
from medhalbench._provenance import INPUTS, input_record
from medhalbench._secrets import guard_active_models
from medhalbench.judging import reader_version
from medhalbench.outputs import PAPER_READS
from medhalbench.registry._figures_hook import EveryFigureKept
from medhalbench.registry._model_args_guard import ModelArgumentsGuard
from medhalbench.registry._registry import find_benchmark
from medhalbench.settings import SETTINGS_KEY, Settings, keep_settings, options_of

S = TypeVar("S", bound=Settings)


TASK_HOOKS: tuple[tuple[str, str, type[Hooks]], ...] = (
    (
        "medhalbench_model_arguments",
        "Keeps credentials given as model arguments out of medhalbench logs.",
        ModelArgumentsGuard,
    ),
    (
        "medhalbench_every_figure",
        "Keeps every figure of a medhalbench run in its log.",
        EveryFigureKept,
    ),
)
"""inspect hooks our tasks need on every route into them (name, description, class)."""
_registered: set[str] = set()


def _register_hooks() -> None:
    """Register `TASK_HOOKS` with inspect, once per process (task construction calls it)."""
    for name, description, hook in TASK_HOOKS:
        if name not in _registered:
            hooks(name=name, description=description)(hook)
            _registered.add(name)


@solver
def guarded_models(planned_calls: float = 1.0, max_calls: int | None = None) -> Solver:
    """Redact what the run's models hand back (`guard_active_models`) before inspect logs or
    caches it, and count each sample's calls against its ceiling (`call_ceiling`), on every
    route into a task: `inspect eval medhalbench/...`, `eval_set`, the Python API, not only
    our command line (which guards the models when it makes them).

    Args:
        planned_calls: The calls per sample of the benchmark's plan.
        max_calls: The ceiling the task's settings give (None: derived from the plan).
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        guard_active_models()  # idempotent: the models are patched once
        limit_sample_calls(call_ceiling(planned_calls, max_calls), state.sample_id)
        return state

    return solve


def benchmark_task(settings: type[S]) -> Callable[[Callable[[S], Task]], Callable[..., Task]]:
    """Register a benchmark's task with inspect (as `@task`) under the body's name, taking the
    settings model's fields as flat keyword arguments. Whichever way they come (the command
    line, a suite, `inspect eval -T`, the Python API), this is where they are validated, once,
    into the record; the body gets it, the task keeps it for the plan (`kept_settings`), and
    the log keeps it in the task's metadata beside what the body adds there itself.

    Args:
        settings: The benchmark's settings model.
    """

    def register(body: Callable[[S], Task]) -> Callable[..., Task]:
        paths = [o.name for o in options_of(settings) if o.path is not None]

        def from_arguments(**values: Any) -> Task:
            _register_hooks()
            record = settings.of(values)
            made = body(record)
            made.metadata = {
                SETTINGS_KEY: record.stored(),
                "paper_reads": PAPER_READS,
                "reader_version": reader_version(),
                **(made.metadata or {}),
            }
            # What the run read, so that a retry can tell whether it changed (and find it
            # from another folder).
            inputs = input_record(record.model_dump(), paths)
            made.metadata[INPUTS] = inputs.model_dump(mode="json")
            keep_settings(made, record)
            planned = _planned_calls(body.__name__, made)
            made.solver = chain(
                guarded_models(planned, getattr(record, "max_calls_per_sample", None)),
                made.solver,
            )
            return made

        # inspect reads a task's options from its signature (`-T`, logs' task_args).
        from_arguments.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [
                inspect.Parameter(
                    name,
                    inspect.Parameter.KEYWORD_ONLY,
                    default=inspect.Parameter.empty
                    if field.is_required()
                    else field.get_default(call_default_factory=True),
                    annotation=field.annotation,
                )
                for name, field in settings.model_fields.items()
            ],
            return_annotation=Task,
        )
        from_arguments.__name__ = from_arguments.__qualname__ = body.__name__
        from_arguments.__module__ = body.__module__
        from_arguments.__doc__ = body.__doc__
        return task(from_arguments)

    return register


def _planned_calls(name: str, made: Task) -> float:
    """The calls per sample of the benchmark's plan (the same for every sample: planned on
    the first, so that no other sample is read)."""
    entry = find_benchmark(name)
    if entry is None or not len(made.dataset):
        return 1.0
    first = copy.copy(made)
    first.dataset = made.dataset[:1]
    estimates = entry.implementation.plan(first, {}, None)
    return sum(e.upper[0] for e in estimates) / (made.epochs or 1)
