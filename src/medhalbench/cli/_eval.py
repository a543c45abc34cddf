"""`medhalbench eval ...` (one command per registered benchmark) and `medhalbench retry`."""

from __future__ import annotations

from pathlib import Path

import click

from medhalbench.cli._registry_group import RegistryGroup
from medhalbench.commands import (
    DEFAULT_MAX_RETRIES,
    attempt_limit,
    connection_params,
    console,
    display_param,
    eval_command,
    fail,
    fail_on_unfinished,
    interruptible,
    progress_display,
    redacted_logs,
    stop_code,
    writable_folder,
)
from medhalbench.results import local_path


@click.group(name="eval", cls=RegistryGroup, command=eval_command)
def eval_group() -> None:
    """Evaluate models on a benchmark (logs are inspect logs)."""


@click.command(
    name="retry",
    params=[
        click.Argument(
            ["logs"], nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False)
        ),
        click.Option(
            ["--log-dir"],
            default=None,
            help="Where to write the resumed logs (default: beside each old one).",
        ),
        click.Option(
            ["--force"],
            is_flag=True,
            help="Run a log that already finished again (default: refused).",
        ),
        # A resumed run keeps its batch mode: the log holds it.
        *connection_params(leave_out=("batch", "batch_delay")),
        display_param(),
    ],
)
def retry_command(
    logs: tuple[str, ...],
    log_dir: str | None,
    force: bool,
    max_connections: int | None,
    max_retries: int | None,
    timeout: int | None,
    attempt_timeout: int | None,
    display: str | None,
) -> None:
    """Finish interrupted or failed evaluations: the samples already done are kept, only the
    rest run (inspect's eval-retry), and the resumed log is written beside the old one."""
    from inspect_ai import eval_retry
    from inspect_ai.log import list_eval_logs, read_eval_log

    if log_dir is not None:
        writable_folder(log_dir, "--log-dir")
    for path in logs:
        try:
            header = read_eval_log(path, header_only=True)
        except Exception:
            raise click.BadParameter(f"{path}: not an inspect log", param_hint="LOGS") from None
        if header.status == "success" and not force:
            raise click.BadParameter(
                f"{path} already finished (use --force to run it again)", param_hint="LOGS"
            )
        folder = log_dir or str(Path(path).resolve().parent)
        later = [
            info.name
            for info in list_eval_logs(folder)
            if Path(local_path(info.name)).resolve() != Path(path).resolve()
            and (other := read_eval_log(info, header_only=True)).eval.task_id == header.eval.task_id
            and str(other.eval.created) > str(header.eval.created)
        ]
        if later and not force:
            raise click.BadParameter(
                f"{path} was already resumed as {local_path(later[-1])}: retry that "
                "one instead (or use --force)",
                param_hint="LOGS",
            )
    options = {"timeout": timeout, "attempt_timeout": attempt_timeout}
    finished = []
    again = "stopped by the user; run the same retry again to finish the rest"
    try:
        with interruptible(again), progress_display(console, enabled=display is None):
            for path in logs:
                finished += redacted_logs(
                    eval_retry(
                        str(Path(path).resolve()),
                        log_dir=log_dir or str(Path(path).resolve().parent),
                        display=display or "none",  # type: ignore[arg-type]
                        score_display=display not in (None, "none"),
                        max_connections=max_connections,
                        max_retries=max_retries if max_retries is not None else DEFAULT_MAX_RETRIES,
                        timeout=timeout,
                        attempt_timeout=attempt_limit(options),
                    )
                )
    except KeyboardInterrupt as ex:
        fail(again, stop_code(ex))
        raise
    for log in finished:
        console.print(f"Log ({log.status}): {log.location}")
    fail_on_unfinished(finished)
