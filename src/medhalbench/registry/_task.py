"""Declaring a benchmark's task: its signature and docstring are its options; every call is
checked against them, and the checked arguments go into the task's metadata, so that a log
holds the settings a run used without the task writing them again.

Generation settings (`temperature`, `max_tokens`, ...) are the exception: a task passes them
to its `GenerateConfig`, which inspect's own options (`--temperature`) may override, so the
value a log must report is inspect's effective config (`log.plan.config`), never a copy in
the metadata (see `results.run_result`)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, cast

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig

from medhalbench._provenance import INPUTS, input_record
from medhalbench.arguments import arguments_of, check_arguments

F = TypeVar("F", bound=Callable[..., Task])


def benchmark_task(function: F) -> F:
    """Register a benchmark's task with inspect (as `@task`), check every argument it is
    called with against its declaration (from the command line, a suite or `inspect eval
    -T` alike: see `medhalbench.arguments`), and put the checked arguments in the task's
    metadata beside what the task adds there itself (what it computes)."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def checked_and_recorded(*args: Any, **kwargs: Any) -> Task:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        values = check_arguments(function, dict(bound.arguments))
        made = function(**values)
        recorded = {k: v for k, v in values.items() if k not in GenerateConfig.model_fields}
        made.metadata = {**recorded, **(made.metadata or {})}
        # What the run read, so that a retry can tell whether it changed (and find it from
        # another folder).
        paths = [a.name for a in arguments_of(function) if a.path is not None]
        made.metadata[INPUTS] = input_record(values, paths)
        return made

    return cast(F, task(checked_and_recorded))
