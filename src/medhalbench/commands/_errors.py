"""How the command line reports errors: one line on stderr naming the culprit, exit code 2
for what a user can cause; an unexpected error gets one line and the path of a file with
its traceback, never the traceback itself."""

from __future__ import annotations

import atexit
import contextlib
import datetime
import errno
import gc
import importlib
import os
import re
import signal
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections.abc import Iterator
from pathlib import Path

import click

from medhalbench._errors import MedhalbenchError
from medhalbench._secrets import redact
from medhalbench.text import printable

USER_ERROR = 2
INTERNAL_ERROR = 1
INTERRUPTED = 130
TERMINATED = 143
MAX_MESSAGE_CHARS = 300
"""The longest error line: it names the culprit and quotes input only in part."""


STOP_GRACE_S = 20.0
"""Seconds a stopped command has to wind down before it is ended at once."""
JOIN_GRACE_S = 5.0
"""Seconds a stopped command waits for its threads (inspect's log writers among them)
before the interpreter is left."""


class _Stop:
    """The first stop of this process: its exit code and the watchdog that ends a wind-down
    that hangs (a second signal ends the process at once)."""

    code: int | None = None
    watchdog: threading.Timer | None = None


def _stop_now(code: int, message: str) -> None:
    click.secho(
        one_line(
            f"error: {message} (it did not wind down within {STOP_GRACE_S:.0f} s and was ended)"
        ),
        fg="red",
        err=True,
    )
    _leave(code)


def _leave(code: int) -> None:
    """End the process now, with nothing more written (no traceback of the threads cut)."""
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


def _again(signum: int, frame: object) -> None:
    """A signal after the first stop: end at once, with one line."""
    code = TERMINATED if signum == signal.SIGTERM else _Stop.code or INTERRUPTED
    with contextlib.suppress(Exception):
        os.write(2, b"error: stopped at once (a second stop); finished samples are kept\n")
    _leave(code)


def _quiet_after_stop() -> None:
    """After a stop, the tasks cut short are no one's concern: no warnings about coroutines
    never awaited, no 'Exception ignored' reports from their finalizers."""
    warnings.simplefilter("ignore")
    sys.unraisablehook = lambda unraisable: None
    threading.excepthook = lambda args: None


class Terminated(KeyboardInterrupt):
    """The process was asked to stop (SIGTERM): handled as Ctrl-C is, with exit code 143."""


SAMPLE_MODULES = (
    "inspect_ai.model._openai_responses",
    "inspect_ai.model._providers.anthropic",
)
"""Modules inspect imports at the start of every sample (seconds each: the provider SDKs'
types). A stop that lands inside such an import leaves it undone, so each sample wound down
after it imports it again: on a busy machine the wind-down then outlasts `STOP_GRACE_S`."""


def import_sample_modules() -> None:
    """Import what inspect imports lazily in each sample, before a stop can land in it."""
    for name in SAMPLE_MODULES:
        with contextlib.suppress(ImportError):  # inspect skips a provider not installed
            importlib.import_module(name)


@contextlib.contextmanager
def interruptible(
    message: str = "stopped by the user; finished samples are in the log: 'medhalbench retry "
    "LOG' finishes the run",
    *,
    samples: bool = True,
) -> Iterator[None]:
    """Let Ctrl-C and SIGTERM stop the block at once (an event loop's own SIGINT handling
    only cancels its main task, which an evaluation may not notice for minutes); a block
    that has not wound down `STOP_GRACE_S` after the signal ends with `message`, and a
    second signal ends the process at once. A block that runs inspect samples (`samples`)
    imports `SAMPLE_MODULES` first."""
    if samples:
        import_sample_modules()

    def stop(signum: int, frame: object) -> None:
        if _Stop.code is not None:
            _again(signum, frame)
        code = TERMINATED if signum == signal.SIGTERM else INTERRUPTED
        _Stop.code = code
        _quiet_after_stop()
        # An interrupt that lands inside the event loop's own machinery can leave a task
        # that never finishes cancelling; the process must end all the same.
        watchdog = threading.Timer(STOP_GRACE_S, _stop_now, args=(code, message))
        watchdog.daemon = True
        watchdog.start()
        _Stop.watchdog = watchdog
        raise Terminated if signum == signal.SIGTERM else KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            # Once stopped, a further signal (during the wind-down) ends the process at once.
            signal.signal(sig, _again if _Stop.code is not None else handler)


def stop_code(ex: BaseException) -> int:
    """The exit code of a stop: 143 for SIGTERM, 130 for Ctrl-C."""
    return TERMINATED if isinstance(ex, Terminated) else INTERRUPTED


def wind_down(code: int) -> None:
    """Before a stopped command exits: wait (briefly) for the threads still writing (the
    log writers of inspect among them) and finalize what the stop cut short, while the
    interpreter is whole; a thread that does not finish is not waited for at exit (the
    process ends without tearing its modules down under it)."""
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, _again)
    if _Stop.code is None:
        _Stop.code = code
    _quiet_after_stop()
    deadline = time.monotonic() + JOIN_GRACE_S
    others = [
        t
        for t in threading.enumerate()
        if t is not threading.current_thread() and t is not _Stop.watchdog and t.is_alive()
    ]
    for thread in others:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    gc.collect()  # coroutines the stop abandoned finish their `finally` blocks now
    if any(t.is_alive() and not t.daemon for t in others):
        # A thread that would make the interpreter wait at exit: end the process now,
        # after the exit handlers (a trace log compressed, a model server stopped).
        with contextlib.suppress(Exception):
            atexit._run_exitfuncs()
        _leave(code)
    if any(t.is_alive() for t in others):
        _leave(code)  # a daemon thread would run while the interpreter is torn down


_LINE_BREAK = re.compile(r"[ \t]*[\r\n\f\v][\s]*")


def flattened(text: str) -> str:
    """A message on one line: each line break, with the blanks around it, becomes one space;
    blanks within a line stay as they are (a field named "Ground  Truth" is named so)."""
    return _LINE_BREAK.sub(" ", text).strip()


def one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """A message on one line of at most `limit` characters (`flattened`); a longer message
    drops its asides in parentheses first (the longest first; a traceback's path and a short
    hint such as "(see --help)" are kept), then keeps its start (the culprit) and its end
    (the hint)."""
    flat = flattened(text)
    while len(flat) > limit:
        asides = [
            m
            for m in _ASIDE.finditer(flat)
            if "traceback" not in m.group() and len(m.group()) > _SHORT_HINT
        ]
        if not asides:
            break
        longest = max(asides, key=lambda m: len(m.group()))
        flat = flat[: longest.start()] + flat[longest.end() :]
    if len(flat) <= limit:
        return flat
    tail = limit // 3
    return f"{flat[: limit - tail - 5]} ... {flat[-tail:]}"


_ASIDE = re.compile(r" \([^()]*\)")
_SHORT_HINT = 24


def fail(message: str, code: int = USER_ERROR) -> None:
    """Print one error line on stderr (without secrets, at most `MAX_MESSAGE_CHARS`
    characters) and exit; a stopped command winds down first."""
    click.secho(one_line(printable(redact(f"error: {message}"))), fg="red", err=True)
    if code in (INTERRUPTED, TERMINATED):
        wind_down(code)
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
    # Escaped before it is flattened: a carriage return in a name is shown, not made a space.
    return flattened(printable(_MARKUP.sub("", text)))


def traceback_file(ex: BaseException | str) -> Path:
    """Write a full traceback (an exception's, or one as a log holds it), redacted, to a new
    file and return its path."""
    folder = Path(tempfile.gettempdir()) / "medhalbench-errors"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    path = folder / f"traceback-{stamp}.txt"
    text = ex if isinstance(ex, str) else "".join(traceback.format_exception(ex))
    path.write_text(redact(text), encoding="utf-8")
    return path


UNWRITABLE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM})
"""Errors of the disk or its rights, not ours: a full disk or quota, a read-only file
system, no right to write. Met while writing outputs or logs they are one line, exit 2."""
_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})


def unwritable_hint(number: int | None) -> str:
    """What to do about an error in `UNWRITABLE_ERRNOS`."""
    if number in _FULL_ERRNOS:
        return "free some space, or give another folder"
    return "give a folder you can write to"


def refused_request(status: int | str, reason: str) -> str:
    """How a request a server refused (a 4xx with a reason of its own) is said, from a live
    exception (`report`) or from a log's error (`_failures`) alike."""
    return f"the server refused the request with {status}: {reason}"


def _client_error(ex: BaseException) -> str | None:
    """A server's 4xx answer (an SDK's status error) as one line: the address, the status
    and the server's own reason; None for anything else."""
    status = getattr(ex, "status_code", None)
    if not isinstance(status, int) or not 400 <= status < 500 or status in (401, 408, 429):
        return None
    request = getattr(ex, "request", None) or getattr(
        getattr(ex, "response", None), "request", None
    )
    address = str(getattr(request, "url", "") or "the server")
    body = getattr(ex, "body", None)
    reason = body.get("message") if isinstance(body, dict) else None
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        reason = body["error"].get("message") or reason
    reason = reason or getattr(ex, "message", None) or str(ex)
    return f"{redact(address)}: {refused_request(status, one_line(str(reason), 200))}"


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
    if isinstance(ex, ValueError) and "null byte" in str(ex):
        fail("a path or name holds a NUL character (\\0); give it without")
    if isinstance(ex, OSError) and ex.filename and ex.strerror:
        # A file or folder the user named cannot be read or written (no right, disk full).
        fail(f"{ex.filename}: {ex.strerror}")
    if isinstance(ex, OSError) and ex.errno in UNWRITABLE_ERRNOS:
        # The disk, not us: a full or read-only disk while writing somewhere unnamed.
        reason = ex.strerror or os.strerror(ex.errno or 0)
        fail(f"{reason} while writing ({unwritable_hint(ex.errno)})")
    refused = _client_error(ex)
    if refused is not None:
        fail(refused)
    path = traceback_file(ex)
    what = "ran out of memory" if isinstance(ex, MemoryError) else f"unexpected {type(ex).__name__}"
    fail(
        f"{what}: {one_line(plain_message(ex), 150)} (full traceback: {path})",
        INTERNAL_ERROR,
    )
