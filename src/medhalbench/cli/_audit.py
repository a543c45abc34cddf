"""`medhalbench audit LOG...`: a person checks the judge's verdicts on a local page, or
(`--summary`) the agreement of the people's answers with the judge."""

from __future__ import annotations

import getpass
import os
import signal
import threading
from pathlib import Path

import click

from medhalbench._errors import DataError
from medhalbench.audit import (
    AuditSession,
    answers_path,
    audit_server,
    audit_tables,
    audited_logs,
)
from medhalbench.commands import (
    OptionError,
    bootstrap_option,
    console,
    examples_epilog,
    print_table,
    writable_folder,
)

DEFAULT_PORT = 8765
DEFAULT_ITEMS = 40
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _annotator(ctx: click.Context, param: click.Parameter, value: str | None) -> str:
    name = (value if value is not None else getpass.getuser()).strip()
    if not name or any(c.isspace() for c in name):
        raise click.BadParameter(
            f"{value!r}: expected a name without spaces", param_hint="--annotator"
        )
    return name


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


@click.command(
    name="audit",
    epilog=examples_epilog(
        ["medhalbench audit logs/ --items 50", "medhalbench audit logs/run.eval --summary"]
    ),
)
@click.argument("logs", nargs=-1, required=True)
@click.option("--annotator", default=None, callback=_annotator,
              help="Your name, kept with each answer (default: your user name); several people "
              "audit the same logs under their own names.")  # fmt: skip
@click.option("--items", "items_per_log", type=click.IntRange(min=1), default=DEFAULT_ITEMS,
              show_default=True, help="Items drawn from each log, stratified by the judge's verdict.")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the draw (the same seed and logs draw the same items).")  # fmt: skip
@click.option("--port", type=click.IntRange(min=0, max=65535), default=DEFAULT_PORT,
              show_default=True, help="Port of the page on 127.0.0.1 (0: any free port).")  # fmt: skip
@click.option("--summary", is_flag=True,
              help="Print the agreement of the answers given so far with the judge, and exit.")  # fmt: skip
@bootstrap_option(least=0, help="Bootstrap resamples (over items) of the summary's 95% intervals.")
@click.option("--unblind", is_flag=True,
              help="Show the judge's reading beside each item before you answer (the answers "
              "are marked as not blind); by default it is shown only after.")  # fmt: skip
def audit_command(
    logs: tuple[str, ...],
    annotator: str,
    items_per_log: int,
    seed: int,
    port: int,
    summary: bool,
    bootstrap: int,
    unblind: bool,
) -> None:
    """Check the judges of runs by hand, blind: a local page shows one judged item at a time
    and asks you what the judge was asked, before showing its answer and the dataset's label.
    Each role is audited: the reader of verdicts (which verdict does a reply state? unread
    replies included), the extractor, DAHL's splitter (is the unit stated in the answer? one
    fact? a repeat?) and checker (is the unit true?), and the model under test as a detector
    (is the answer hallucinated? is the statement factual?). Keys 1-9 answer, Enter sends,
    arrows move. Answers are saved as given, beside each log (<log>.audit.jsonl); starting
    again continues where you stopped; --summary prints each role's agreement."""
    found = audited_logs(logs)
    if summary:
        tables = audit_tables(found, resamples=bootstrap)
        if not tables:
            console.print("No answers yet: start the page without --summary to audit.")
        for table in tables:
            print_table(console, table)
        return
    session = AuditSession(found, annotator, items_per_log, seed, blind=not unblind)
    if not session.drawn:
        raise click.BadParameter("these logs hold no judged item to audit", param_hint="LOGS")
    try:
        before = len(session.answers())
    except DataError as ex:  # a line the page could not read: named, before serving
        raise DataError(f"{ex}; fix or remove that line, and start again") from None
    for log in session.logs:  # an answer that cannot be saved is found now, not at the first
        _writable(answers_path(log.path))
    server = audit_server(session, port)
    # The signal only sets a flag: the server stops between requests, never inside one.
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in STOP_SIGNALS}
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
