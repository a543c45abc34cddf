"""Suites: a grid of models and benchmark runs in one YAML file (the README's "Suites"), run
through inspect's `eval_set` (a rerun finishes only what is missing), with one log folder and
one report. A setting, a task argument and a role pass the same checks as on the command
line: they are validated by the same models (`SuiteSettings`, the benchmark's settings, the
roles)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
from inspect_ai import Task, task_with
from inspect_ai.log import EvalLog
from inspect_ai.model import Model
from pydantic import ValidationError

from medhalbench._errors import DataError, MedhalbenchError
from medhalbench.commands._models import (
    OptionError,
    check_model_name,
    checked_base_url,
    connection,
    normalise_model_name,
    parse_model_args,
    resolve_model,
    role_connection,
)
from medhalbench.commands._prechecks import check_before_work
from medhalbench.commands._resume import changed_inputs
from medhalbench.commands._roles import role_names
from medhalbench.data import located, read_settings_file
from medhalbench.examples import illustrative
from medhalbench.planning import Plan
from medhalbench.registry import Benchmark, benchmark, benchmark_of
from medhalbench.results import RunFacts, local_path, log_headers
from medhalbench.settings import (
    SETTINGS_KEY,
    ModelOptions,
    Problem,
    SettingsError,
    SuiteFile,
    SuiteModel,
    SuiteRun,
    SuiteSettings,
    anchored,
    as_commanded,
    suite_problems,
)

SHARED_ROLE = "judge"
"""A suite model's role that names every judge role not named (as `--judge`)."""


@dataclass
class Suite:
    """A suite file, read and checked."""

    path: Path
    log_dir: str
    models: list[SuiteModel]
    runs: list[SuiteRun]
    settings: SuiteSettings = field(default_factory=SuiteSettings)

    def options(self, model: SuiteModel) -> ModelOptions:
        """How a model of the suite is reached, as the command line would give it."""
        return ModelOptions.among(
            {**self.settings.model_dump(), "model_args": self.model_args(model)}
        )

    @staticmethod
    def model_args(model: SuiteModel) -> list[str]:
        """A model's provider arguments as `-M` takes them (`NAME=VALUE`)."""
        return [f"{k}={v}" for k, v in model.args.items()]


def suite_path(name: str) -> Path:
    """A suite file, or a suite shipped in `medhalbench.examples` by name (`demo`)."""
    if Path(name).exists() or name.endswith((".yaml", ".yml")):
        return Path(name)
    return Path(illustrative(f"{name}.yaml"))


def _refusal(problems: Sequence[Problem], path: str | Path, where: str = "") -> DataError:
    """A suite's values refused, naming each field at fault (never a value: an argument may
    hold a key)."""
    fields = ", ".join(f"{where}{p.setting}" for p in problems)
    return located(DataError("; ".join(p.reason for p in problems), path=path, field=fields))


def read_suite(path: str | Path) -> Suite:
    """Read a suite file: its fields as `SuiteFile` takes them, each model's arguments as
    `-M` takes them, each run's benchmark registered and each role one of its runs'.

    Raises:
        DataError: The file cannot be read, or a field is missing, misspelt or of the wrong
            kind, or names an unknown benchmark or role (naming every field at fault and
            the line of the first).
    """
    try:
        return _read_suite(Path(path))
    except DataError as ex:
        raise located(ex) from None


def _read_suite(file: Path) -> Suite:
    path = file
    try:
        read = SuiteFile.model_validate(read_settings_file(file, what="suite file"))
    except ValidationError as ex:
        raise _refusal(suite_problems(ex), path) from None
    where = "settings.model_base_url"
    try:
        checked_base_url(read.settings.model_base_url, where)
    except OptionError as ex:
        raise DataError(str(ex).removeprefix(f"{where}: "), path=path, field=where) from None
    for i, run in enumerate(read.runs, start=1):
        try:
            benchmark(run.benchmark)
        except MedhalbenchError as ex:  # an unknown name, with the known ones listed
            raise DataError(str(ex), path=file, field=f"runs[{i}].benchmark") from None
    roles = {r.name for run in read.runs for r in benchmark(run.benchmark).roles}
    for i, model in enumerate(read.models, start=1):
        try:
            parse_model_args(Suite.model_args(model), f"models[{i}].args")
        except click.BadParameter as ex:
            raise DataError(ex.message, path=file, field=f"models[{i}].args") from None
        for j, run in enumerate(read.runs, start=1):
            if both := sorted(set(run.args) & set(model.run_args)):
                raise DataError(
                    f"{', '.join(both)}: given by the model's run_args and by runs[{j}].args",
                    path=path,
                    field=f"models[{i}].run_args",
                )
        if unknown := set(model.roles) - roles - {SHARED_ROLE}:
            raise DataError(
                f"no run of the suite has the role(s) {', '.join(sorted(unknown))} "
                f"(roles: {', '.join(sorted(roles | {SHARED_ROLE}))})",
                path=path,
                field=f"models[{i}].roles",
            )
    log_dir = read.log_dir or str(Path("logs") / file.stem)
    return Suite(file, log_dir, read.models, read.runs, read.settings)


def _task_args(run: SuiteRun, suite: Suite, model: SuiteModel) -> dict[str, Any]:
    """A run's task arguments with those its model gives every run (`run_args`), each local
    path (a setting that names one) relative to the suite file made absolute, so that a
    rerun from elsewhere finds it."""
    given = {**run.args, **model.run_args}
    return anchored(benchmark(run.benchmark).settings, given, suite.path.parent)


@dataclass(frozen=True)
class SuiteTask:
    """One run of a suite on one model: its benchmark, its task, the model, each role's
    model, and the task's arguments."""

    benchmark: str
    task: Task
    model: SuiteModel
    roles: dict[str, str]
    args: dict[str, Any] = field(default_factory=dict)


def _roles(suite: Suite, entry: Benchmark, model: SuiteModel) -> dict[str, str]:
    try:
        names = role_names(
            entry.roles,
            {r.name: [model.roles[r.name]] for r in entry.roles if r.name in model.roles},
            under_test=[model.name],
            shared=model.roles.get(SHARED_ROLE),
            shared_option=f"roles.{SHARED_ROLE}",
            role_option="roles.",
        )
    except OptionError as ex:
        raise DataError(str(ex), path=suite.path, field=f"models.{model.name}.roles") from None
    return {role: listed[0] for role, listed in names.items()}


def suite_tasks(suite: Suite, *, resolve: bool = True) -> list[SuiteTask]:
    """Every run on every model, as tasks bound to their model and role models.

    Args:
        suite: The suite.
        resolve: Resolve the models now (checking names and keys); False for plans.

    Raises:
        DataError: A task argument the run's task does not take, or a value it does not
            take; a judge role without a model where a real model is under test.
    """
    found = []
    for i, run in enumerate(suite.runs, start=1):
        entry = benchmark(run.benchmark)
        for model in suite.models:
            args = _task_args(run, suite, model)
            roles = _roles(suite, entry, model)
            try:
                with as_commanded(roles):
                    task = entry.implementation.make_task(args)
            except SettingsError as ex:
                raise _refusal(ex.problems, suite.path, f"runs[{i}].args.") from None
            except DataError as ex:  # a file a run names: said where the suite names it
                named = next((k for k, v in args.items() if str(v) == ex.path), None)
                if named is None:
                    raise
                raise located(
                    DataError(str(ex), path=suite.path, field=f"runs[{i}].args.{named}")
                ) from None
            main = _model(suite, model, None, model.name, resolve)
            role_models = {
                role: _model(suite, model, role, n, resolve) for role, n in roles.items()
            }
            if resolve:
                task = (
                    task_with(task, model=main, model_roles=role_models)
                    if role_models
                    else task_with(task, model=main)
                )
            found.append(SuiteTask(run.benchmark, task, model, roles, args))
    return found


def _model(
    suite: Suite, model: SuiteModel, role: str | None, name: str, resolve: bool
) -> str | Model:
    """A model of a suite's run (the one under test, or a role's), resolved, or only
    checked as a plan checks it (`resolve` False: no key or endpoint needed).

    Raises:
        DataError: The name, a model argument or the provider's set-up is wrong, naming
            the suite's field.
    """
    options = suite.options(model)
    via = connection(options) if role is None else role_connection(role, name, options, model.name)
    where = "name" if role is None else f"roles.{role}"
    try:
        if resolve:
            return resolve_model(name, via, option=where)
        check_model_name(name, via, option=where)
        return name
    except OptionError as ex:
        raise DataError(str(ex), path=suite.path, field=f"models.{model.name}") from None


@dataclass(frozen=True)
class StaleLog:
    """A log in a suite's folder of a run whose inputs changed since it was made."""

    path: str
    changed: list[str]


def _run_of(header: EvalLog, tasks: Sequence[SuiteTask]) -> SuiteTask | None:
    """The suite's run a log is of (same benchmark, model and settings), if any."""
    entry = benchmark_of(header)
    kept = (header.eval.metadata or {}).get(SETTINGS_KEY)
    return next(
        (
            run
            for run in tasks
            if entry is not None
            and benchmark_of(run.task) is entry
            and header.eval.model == normalise_model_name(run.model.name)
            and kept == (run.task.metadata or {}).get(SETTINGS_KEY)
        ),
        None,
    )


def _headers(suite: Suite) -> list[EvalLog]:
    return log_headers(suite.log_dir) if Path(suite.log_dir).is_dir() else []


def stale_logs(suite: Suite, tasks: Sequence[SuiteTask]) -> list[StaleLog]:
    """The logs in the suite's folder of its runs (same benchmark, model and settings)
    whose data, prompts or templates changed since they were made: rerunning the suite
    would keep their finished samples beside new ones."""
    stale = []
    for header in _headers(suite):
        run = _run_of(header, tasks)
        if run is None:
            continue
        changed = changed_inputs(
            RunFacts.of(header.eval.metadata), RunFacts.of(run.task.metadata), run.args
        )
        if changed:
            stale.append(StaleLog(local_path(header.location), changed))
    return stale


def finished_runs(
    suite: Suite, tasks: Sequence[SuiteTask], again: Collection[str] = ()
) -> list[SuiteTask]:
    """The suite's runs with a finished log in its folder (running the suite skips them),
    but for the logs `again` names (by path: stale ones, set aside to run again)."""
    done = {
        id(run)
        for h in _headers(suite)
        if h.status == "success"
        and local_path(h.location) not in again
        and (run := _run_of(h, tasks))
    }
    return [run for run in tasks if id(run) in done]


def check_suite_contexts(suite: Suite, tasks: Sequence[SuiteTask], plans: Sequence[Plan]) -> None:
    """Refuse, before any work, an embedded model of the suite whose context (`n_ctx` in its
    args) cannot hold its prompts and replies (see `check_before_work`).

    Raises:
        DataError: Naming the suite's model and the size needed.
    """
    for run, plan in zip(tasks, plans, strict=True):
        options = suite.options(run.model)
        try:
            check_before_work(
                [run.task],
                [plan],
                {run.model.name: connection(options)},
                {
                    role: (name, role_connection(role, name, options, run.model.name))
                    for role, name in run.roles.items()
                },
            )
        except OptionError as ex:
            raise DataError(str(ex), path=suite.path, field=f"models.{run.model.name}") from None
