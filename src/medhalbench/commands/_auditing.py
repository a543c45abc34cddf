"""`medhalbench audit` run: the page where a person checks a judge's verdicts, or the
agreement of the answers given so far."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from typing import Any

import click

from medhalbench._errors import DataError
from medhalbench.audit import (
    AuditSession,
    answers_path,
    audit_server,
    audit_tables,
    audited_logs,
)
from medhalbench.commands._derive import settings_from
from medhalbench.commands._folders import writable_folder
from medhalbench.commands._models import OptionError
from medhalbench.commands._run import console
from medhalbench.commands._tables import print_table
from medhalbench.settings import AuditRequest

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _writable(path: Path) -> None:
    """Check that answers can be appended to a file (its folder writable, no folder in its
    place).

    Raises:
        DataError: They cannot, naming the file and why.
    """
    try:
        writable_folder(path.parent, "LOGS")
        if path.exists() and (path.is_dir() or not os.access(path, os.W_OK)):
            raise DataError("cannot write the answers there (not a writable file)", path=path)
    except OptionError as ex:
        raise DataError(f"cannot save answers beside the log ({ex})", path=path) from None


def audit_from_command_line(annotator: str, **values: Any) -> None:
    """`medhalbench audit` from its options' values."""
    request = settings_from(AuditRequest, values)
    found = audited_logs(request.logs)
    if request.summary:
        tables = audit_tables(found, resamples=request.bootstrap)
        if not tables:
            console.print("No answers yet: start the page without --summary to audit.")
        for table in tables:
            print_table(console, table)
        return
    session = AuditSession(
        found, annotator, request.items_per_log, request.seed, blind=not request.unblind
    )
    if not session.drawn:
        raise click.BadParameter("these logs hold no judged item to audit", param_hint="LOGS")
    try:
        before = len(session.answers())
    except DataError as ex:  # a line the page could not read: named, before serving
        raise DataError(f"{ex}; fix or remove that line, and start again") from None
    for log in session.logs:  # an answer that cannot be saved is found now, not at the first
        _writable(answers_path(log.path))
    server = audit_server(session, request.port)
    # The signal only sets a flag: the server stops between requests, never inside one.
    stop, stopped_by = threading.Event(), []

    def stopping(signum: int, frame: object) -> None:
        stopped_by.append(signum)
        stop.set()

    previous = {sig: signal.signal(sig, stopping) for sig in STOP_SIGNALS}
    try:
        server.start()
        # Printed once the server listens, so that the address answers when it is shown.
        console.print(
            f"Auditing {len(session.drawn)} items as {annotator} at "
            f"[bold]{server.url}[/bold] ({before} answered before; Ctrl-C stops, nothing is "
            "lost). The address holds a token: the page answers no one without it.",
            highlight=False,
            soft_wrap=True,
        )
        while not stop.wait(0.5):
            pass
    finally:
        server.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    answered = len(session.answers())
    console.print(f"Stopped: {answered} of {len(session.drawn)} answered, saved beside the logs.")
    # 130 on Ctrl-C, 143 on SIGTERM: a stop, as a supervisor tells it from a clean exit.
    raise SystemExit(128 + stopped_by[0])
