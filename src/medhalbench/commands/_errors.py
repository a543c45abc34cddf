"""How the command line reports errors: one line on stderr naming the culprit, exit code 2
for what a user can cause; an unexpected error gets one line and the path of a file with
its traceback, never the traceback itself."""

from __future__ import annotations

import contextlib
import datetime
import os
import re
import signal
import sys
import tempfile
import threading
import traceback
from collections.abc import Iterator
from pathlib import Path

import click

from medhalbench._errors import MedhalbenchError
from medhalbench._secrets import redact

USER_ERROR = 2
INTERNAL_ERROR = 1
INTERRUPTED = 130
TERMINATED = 143


STOP_GRACE_S = 20.0
"""Seconds a stopped command has to wind down before it is ended at once."""


def _stop_now(code: int, message: str) -> None:
    click.secho(
        f"error: {message} (it did not wind down within {STOP_GRACE_S:.0f} s and was ended)",
        fg="red",
        err=True,
    )
    sys.stderr.flush()
    os._exit(code)


class Terminated(KeyboardInterrupt):
    """The process was asked to stop (SIGTERM): handled as Ctrl-C is, with exit code 143."""


@contextlib.contextmanager
def interruptible(
    message: str = "stopped by the user; finished samples are in the log: 'medhalbench retry "
    "LOG' finishes the run",
) -> Iterator[None]:
    """Let Ctrl-C and SIGTERM stop the block at once (an event loop's own SIGINT handling
    only cancels its main task, which an evaluation may not notice for minutes); a block
    that has not wound down `STOP_GRACE_S` after the signal ends with `message`."""

    def stop(signum: int, frame: object) -> None:
        code = TERMINATED if signum == signal.SIGTERM else INTERRUPTED
        # An interrupt that lands inside the event loop's own machinery can leave a task
        # that never finishes cancelling; the process must end all the same.
        watchdog = threading.Timer(STOP_GRACE_S, _stop_now, args=(code, message))
        watchdog.daemon = True
        watchdog.start()
        raise Terminated if signum == signal.SIGTERM else KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def stop_code(ex: BaseException) -> int:
    """The exit code of a stop: 143 for SIGTERM, 130 for Ctrl-C."""
    return TERMINATED if isinstance(ex, Terminated) else INTERRUPTED


def fail(message: str, code: int = USER_ERROR) -> None:
    """Print one error line on stderr (without secrets) and exit."""
    click.secho(redact(f"error: {message}"), fg="red", err=True)
    sys.exit(code)


def leaf(ex: BaseException) -> BaseException:
    """The first real exception inside (nested) exception groups."""
    while isinstance(ex, BaseExceptionGroup) and ex.exceptions:
        ex = ex.exceptions[0]
    return ex


# Rich console markup that inspect puts in its messages ("[bold]ERROR[/bold]").
_MARKUP = re.compile(
    r"\[/?(?:bold|b|italic|i|underline|u|dim|red|green|blue|yellow|cyan|magenta|white|black"
    r"|link|code)(?:[ =][^\]]*)?\]"
)


def plain_message(ex: BaseException) -> str:
    """An exception's message on one line, as plain text (no console markup)."""
    # inspect's PrerequisiteError carries a rich renderable in `message` (its private
    # class is matched by name, so that no private inspect module is imported).
    message = getattr(ex, "message", None) if type(ex).__name__ == "PrerequisiteError" else None
    text = str(message if message is not None else ex)
    return " ".join(_MARKUP.sub("", text).split())


def traceback_file(ex: BaseException) -> Path:
    """Write an exception's full traceback to a new file and return its path."""
    folder = Path(tempfile.gettempdir()) / "medhalbench-errors"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    path = folder / f"traceback-{stamp}.txt"
    path.write_text(redact("".join(traceback.format_exception(ex))), encoding="utf-8")
    return path


def report(ex: BaseException) -> None:
    """Report an exception that escaped a command, and exit."""
    ex = leaf(ex)
    if isinstance(ex, click.exceptions.Exit):
        sys.exit(ex.exit_code)
    if isinstance(ex, click.ClickException):
        hint = (
            f" (see {ex.ctx.command_path} --help)"
            if isinstance(ex, click.UsageError) and ex.ctx
            else ""
        )
        fail(f"{ex.format_message()}{hint}", ex.exit_code)
    if isinstance(ex, click.Abort | KeyboardInterrupt):
        fail(
            f"{'stopped (SIGTERM)' if isinstance(ex, Terminated) else 'stopped by the user'}; "
            "finished work is kept (rerun the command, or `medhalbench retry LOG`, to finish)",
            stop_code(ex),
        )
    if isinstance(ex, MedhalbenchError) or type(ex).__name__ == "PrerequisiteError":
        fail(plain_message(ex))
    path = traceback_file(ex)
    fail(
        f"unexpected {type(ex).__name__}: {plain_message(ex)} (full traceback: {path})",
        INTERNAL_ERROR,
    )
