"""Declaring a benchmark's task from its settings record: the record's fields are the task's
options (the command line, suites and `inspect eval -T` give them flat, by name), every call
is checked against them, the task body gets the record, and the log keeps it under one
metadata key (`SETTINGS_KEY`).

Generation settings (`temperature`, `max_tokens`, ...) are kept in the record as the task was
given them, but a task passes them to its `GenerateConfig`, which inspect's own options
(`--temperature`) may override: the value a run's settings report is inspect's effective
config (`log.plan.config`), read back in one place (see `results.run_settings`)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, TypeVar, cast

from inspect_ai import Task, task
from inspect_ai.solver import Generate, Solver, TaskState, chain, solver

from medhalbench._provenance import INPUTS, input_record
from medhalbench._secrets import guard_active_models
from medhalbench.arguments import (
    REQUIRED,
    SETTINGS_KEY,
    SETTINGS_TYPE,
    arguments_of,
    check_arguments,
    construct,
    setting_value,
    stored,
)
from medhalbench.registry._model_args_guard import guard_model_arguments

S = TypeVar("S")


@solver
def guarded_models() -> Solver:
    """Redact what the run's models hand back (`guard_active_models`) before inspect logs or
    caches it, on every route into a task: `inspect eval medhalbench/...`, `eval_set`, the
    Python API, not only our command line (which guards them when it makes them)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        guard_active_models()  # idempotent: the models are patched once
        return state

    return solve


def benchmark_task(settings: type[S]) -> Callable[[Callable[[S], Task]], Callable[..., Task]]:
    """Register a benchmark's task with inspect (as `@task`) under the body's name, taking the
    settings record's fields as flat keyword arguments: each call is checked against their
    declarations (from the command line, a suite or `inspect eval -T` alike), made into the
    record, handed to the body, and kept in the task's metadata beside what the body adds
    there itself (what it computes).

    Args:
        settings: The benchmark's settings record (a frozen dataclass).
    """

    def register(body: Callable[[S], Task]) -> Callable[..., Task]:
        arguments = arguments_of(cast(type, settings))

        def from_arguments(**values: Any) -> Task:
            guard_model_arguments()
            checked = check_arguments(settings, values)
            record = construct(settings, checked)
            made = body(record)
            made.solver = chain(guarded_models(), made.solver)
            made.metadata = {SETTINGS_KEY: stored(record), **(made.metadata or {})}
            # What the run read, so that a retry can tell whether it changed (and find it
            # from another folder).
            paths = [a.name for a in arguments if a.path is not None]
            full = {a.name: setting_value(record, a) for a in arguments}
            made.metadata[INPUTS] = input_record(full, paths).model_dump(mode="json")
            return made

        # inspect reads a task's options from its signature (`-T`, logs' task_args).
        from_arguments.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [
                inspect.Parameter(
                    a.name,
                    inspect.Parameter.KEYWORD_ONLY,
                    default=inspect.Parameter.empty if a.default is REQUIRED else a.default,
                    annotation=a.annotation,
                )
                for a in arguments
            ],
            return_annotation=Task,
        )
        from_arguments.__name__ = from_arguments.__qualname__ = body.__name__
        from_arguments.__module__ = body.__module__
        from_arguments.__doc__ = body.__doc__
        setattr(from_arguments, SETTINGS_TYPE, settings)
        return task(from_arguments)

    return register
