"""`medhalbench build NAME` and the benchmarks' other commands (`merge`, `analyze clusters`,
...) run from their values: each validated by its settings model, a build run so that a stop
loses nothing."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Awaitable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from medhalbench._errors import MedhalbenchError
from medhalbench.commands._derive import command_settings, settings_from
from medhalbench.commands._errors import fail, interruptible, leaf, stop_code, traceback_file
from medhalbench.commands._failures import classify_exception
from medhalbench.commands._folders import made_for_output, writable_folder
from medhalbench.commands._models import check_model_name, resolve_model, role_connection
from medhalbench.commands._plans import print_plans
from medhalbench.commands._roles import is_embedded, role_names
from medhalbench.commands._run import console
from medhalbench.commands._tables import print_table
from medhalbench.registry import Outcome, Role, RoleModels, benchmark
from medhalbench.results import ResultTable
from medhalbench.settings import (
    DEFAULT_MODEL,
    ModelOptions,
    RunOptions,
    Settings,
    options_of,
)

T = TypeVar("T")


def run_build(build: Awaitable[T], out_dir: str) -> T:
    """Run a builder; when a model call fails for good or the user stops it, say so in one
    line (the work finished so far is already on disk, and a rerun does only the rest)."""
    rest = f"finished work is saved in {out_dir}; rerun the same command to finish the rest"
    stopped = f"stopped by the user; {rest}"
    try:
        with interruptible(stopped, samples=False):
            return asyncio.run(build)  # type: ignore[arg-type]
    except MedhalbenchError:
        raise
    except KeyboardInterrupt as ex:
        fail(stopped, stop_code(ex))
        raise
    except Exception as ex:
        # Exit code 2 for a model server that failed or misbehaves (or bad input met on the
        # way), 1 with the traceback in a file for a bug of ours.
        cause = leaf(ex)
        kind, reason = classify_exception(cause, out_dir)
        if kind == "bug":
            fail(
                f"the build stopped: {reason} (full traceback: {traceback_file(cause)}); {rest}", 1
            )
        fail(f"the build stopped: {reason}; {rest}")
        raise


def role_models(
    names: dict[str, list[str]], options: ModelOptions, shared: str | None
) -> RoleModels:
    """The roles' models reached as the command's options say, resolved when first used
    (`RoleModels.check` resolves them all)."""
    resolved: dict[tuple[str, str], Any] = {}

    def resolver(role: str, name: str) -> Any:
        if (role, name) not in resolved:
            via = role_connection(role, name, options, None)
            resolved[(role, name)] = resolve_model(name, via, option=f"--{role}")
        return resolved[(role, name)]

    real = [n for listed in names.values() for n in listed if not is_embedded(n)]
    return RoleModels(names, resolver, fallback=shared or (None if real else DEFAULT_MODEL))


@contextlib.contextmanager
def made_for_outputs(settings: Settings) -> Iterator[None]:
    """`made_for_output` for every output (`LocalPath(writes=True)`) of a command's settings."""
    folders = [o.name for o in options_of(type(settings)) if o.path is not None and o.path.writes]
    with contextlib.ExitStack() as stack:
        for name in folders:
            if getattr(settings, name, None):
                stack.enter_context(made_for_output(getattr(settings, name)))
        yield


def print_outcome(outcome: Outcome) -> None:
    """Print what a build or a tool reports."""
    for item in outcome.summary():
        if isinstance(item, ResultTable):
            print_table(console, item)
        else:
            console.print(item, markup=False, highlight=False)


def _names(
    roles: Sequence[Role], values: dict[str, Any]
) -> tuple[dict[str, list[str]], str | None]:
    shared = values.pop("shared_model", None)
    given = {
        r.name: list(v) if r.many else [v] for r in roles if r.option and (v := values.pop(r.name))
    }
    return role_names(
        roles, given, under_test=[], shared=shared, shared_option="--model", shared_covers_all=True
    ), shared


def _announce(names: Mapping[str, list[str]]) -> None:
    for role, listed in names.items():
        console.print(f"{role.capitalize()}: {', '.join(listed)}", markup=False, highlight=False)


def run_build_command(entry_name: str, **values: Any) -> None:
    """`medhalbench build NAME`: a benchmark's build (or its plan, with `--dry-run`), from
    the command's values."""
    entry = benchmark(entry_name)
    builder = entry.builder
    assert builder is not None
    settings = settings_from(builder.settings, values)
    names, shared = _names(builder.roles, values)
    options = command_settings(RunOptions, values)
    models = role_models(names, options, shared)
    implementation = entry.implementation
    if options.dry_run:
        for role, listed in names.items():
            for model in listed:
                via = role_connection(role, model, options, None)
                check_model_name(model, via, option=f"--{role}")
        plan = implementation.plans[builder.settings](settings, models)
        print_plans(console, [plan], options.prices)
        return
    writable_folder(settings.out, "--out")
    _announce(names)
    with made_for_outputs(settings):
        models.check()
        build = implementation.commands[builder.settings](settings, models)
        print_outcome(run_build(build, settings.out))


def run_tool_command(entry_name: str, request: str, **values: Any) -> None:
    """A benchmark's tool (`medhalbench dahl filter`), from the command's values: `request`
    names its settings model."""
    entry = benchmark(entry_name)
    tool = next(t for t in entry.tools if t.request.__name__ == request)
    settings = settings_from(tool.request, values)
    models = RoleModels({})
    with made_for_outputs(settings):
        if tool.roles:
            names, shared = _names(tool.roles, values)
            _announce(names)
            models = role_models(names, command_settings(ModelOptions, values), shared)
            models.check()
        result = entry.implementation.commands[tool.request](settings, models)
        if inspect.isawaitable(result):
            result = run_build(result, "nothing (the command keeps no partial work)")
    print_outcome(result)
