"""Declaring a benchmark's task: its signature and docstring are its options; every call is
checked against them, and the checked arguments go into the task's metadata, so that a log
holds the settings a run used without the task writing them again."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, cast

from inspect_ai import Task, task

from medhalbench.arguments import check_arguments

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
        made.metadata = {**values, **(made.metadata or {})}
        return made

    return cast(F, task(checked_and_recorded))
