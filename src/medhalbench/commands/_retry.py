"""`medhalbench retry LOG...`: finish runs from their logs through inspect's eval-retry, each
log held by a lock while it is resumed, checked first (see `_resume`), and an interrupted
retry named so that it can itself be finished."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path

from inspect_ai.log import EvalLog

from medhalbench._errors import DataError
from medhalbench._secrets import redact_file
from medhalbench.commands._derive import command_settings
from medhalbench.commands._errors import fail, interruptible, stop_code
from medhalbench.commands._failures import fail_on_unfinished, log_path
from medhalbench.commands._folders import log_folder
from medhalbench.commands._locks import locked
from medhalbench.commands._models import generate_config
from medhalbench.commands._progress import progress_display
from medhalbench.commands._resume import later_logs, prepare_retry
from medhalbench.commands._run import console, settled_logs, write_outputs
from medhalbench.commands._tables import show_results
from medhalbench.registry import benchmarks, find_benchmark
from medhalbench.results import benchmark_name, read_log
from medhalbench.settings import (
    ConnectionSettings,
    Display,
    parse_model_args,
    parse_role_values,
)


def _destination(path: str | Path, log_dir: str | None) -> Path:
    return Path(log_dir) if log_dir else Path(path).resolve().parent


def _latest(path: str, log_dir: str | None, force: bool) -> str:
    """The log to finish for `path`: itself, or its latest resumption when it was resumed
    (an interrupted retry is finished where it stopped).

    Raises:
        DataError: The run already finished (without `force`).
    """
    header = read_log(path, header_only=True)
    later = later_logs(path, _destination(path, log_dir))
    if later and not force:
        newest = later[-1]
        if newest.status == "success":
            raise DataError(
                f"already finished as {log_path(newest)} (use --force to run it again)", path=path
            )
        console.print(f"{path} was resumed as {log_path(newest)}: finishing that one")
        return log_path(newest)
    if header.status == "success" and not force:
        raise DataError("already finished (use --force to run it again)", path=path)
    return path


def retry_runs(
    logs: Sequence[str],
    *,
    log_dir: str | None,
    force: bool,
    model_args: Sequence[str],
    role_args: Sequence[str],
    connection: ConnectionSettings,
    display: Display | None,
) -> list[EvalLog]:
    """Finish the runs of `logs` (see `medhalbench retry --help`), then exit as
    `fail_on_unfinished` does when one did not finish.

    Raises:
        DataError: A log is not a log, already finished, or read inputs that changed.
        Busy: Another command is resuming one of the logs, or runs a suite in its folder.
    """
    from inspect_ai import eval_retry

    with log_folder(log_dir, "--log-dir"):
        given = parse_model_args(model_args)
        roles: set[str] = set()  # --role-arg names a role of one of the logs
        for path in logs:
            spec = read_log(path, header_only=True).eval
            task = spec.task
            roles.update(spec.model_roles or {})
            entry = find_benchmark(benchmark_name(task))
            if entry is None or entry.implementation.task_name != task:
                # Before any work: inspect's own eval-retry resumes other tasks' logs.
                raise DataError(
                    f"a log of {task}, no medhalbench benchmark (known: "
                    f"{', '.join(b.name for b in benchmarks())}): resume it with "
                    "'inspect eval-retry'",
                    path=path,
                )
        by_role = parse_role_values(role_args, sorted(roles), "--role-arg")
        finished: list[EvalLog] = []
        targets: list[str] = []
        again = "stopped by the user"
        try:
            with contextlib.ExitStack() as held:
                for path in logs:
                    held.enter_context(locked(path, what="the log"))
                    target = _latest(path, log_dir, force)
                    if target != path:
                        held.enter_context(locked(target, what="the log"))
                    folder = _destination(target, log_dir)
                    held.enter_context(locked(folder, what="the log folder", mode="shared"))
                    targets.append(target)
                    # A killed run could not clean its log: nothing it holds is read or kept as is.
                    redact_file(target)
                prepared = [
                    prepare_retry(t, force=force, model_args=given, role_args=by_role)
                    for t in targets
                ]
                for target, resumed in zip(targets, prepared, strict=True):
                    if resumed.rerun:
                        console.print(
                            f"{target}: {'; '.join(resumed.changed)}: every sample runs again (--force)"
                        )
                config = generate_config(connection)
                reused = {
                    r.log.eval.task_id: sum(s.error is None for s in r.log.samples or [])
                    for r in prepared
                }
                with (
                    interruptible(again),
                    progress_display(console, enabled=display is None, reused=reused),
                ):
                    for target, resumed in zip(targets, prepared, strict=True):
                        finished += settled_logs(
                            eval_retry(
                                resumed.log,
                                log_dir=str(_destination(target, log_dir)),
                                display=display or "none",
                                score_display=display not in (None, "none"),
                                max_connections=config.max_connections,
                                max_retries=config.max_retries,
                                timeout=config.timeout,
                                attempt_timeout=config.attempt_timeout,
                            )
                        )
        except KeyboardInterrupt as ex:
            # Name the log each stopped retry left, so that the retry itself can be finished.
            left = []
            for target in targets:
                later = later_logs(target, _destination(target, log_dir))
                unfinished = [log for log in later if log.status != "success"]
                if unfinished:  # named by its run, as every log a retry leaves
                    left.append(log_path(settled_logs(unfinished[-1:])[0]))
            hint = f"; finish it with: medhalbench retry {' '.join(left)}" if left else ""
            fail(f"{again}{hint}", stop_code(ex))
            raise
        show_results(console, finished)  # the finished runs' tables, as eval prints them
        write_outputs(finished)
        for log in finished:
            console.print(f"Log ({log.status}): {log_path(log)}")
        fail_on_unfinished(finished)
        return finished


def retry_from_command_line(
    logs: tuple[str, ...],
    log_dir: str | None,
    force: bool,
    model_args: tuple[str, ...],
    role_args: tuple[str, ...],
    display: Display | None,
    **connection: int | None,
) -> None:
    """`medhalbench retry`, from its options' values (see `retry_runs`)."""
    retry_runs(
        logs,
        log_dir=log_dir,
        force=force,
        model_args=model_args,
        role_args=role_args,
        connection=command_settings(ConnectionSettings, connection),
        display=display,
    )
