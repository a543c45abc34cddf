"""`medhalbench audit LOG...`: a person checks the judge's verdicts on a local page, or
(`--summary`) the agreement of the people's answers with the judge."""

from __future__ import annotations

import getpass
import signal
import threading

import click

from medhalbench.audit import AuditSession, audit_server, audit_tables, audited_logs
from medhalbench.commands import console, print_table

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


@click.command(name="audit")
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
@click.option("--bootstrap", type=click.IntRange(min=0), default=1000, show_default=True,
              help="Bootstrap resamples (over items) of the summary's 95% intervals.")  # fmt: skip
def audit_command(
    logs: tuple[str, ...],
    annotator: str,
    items_per_log: int,
    seed: int,
    port: int,
    summary: bool,
    bootstrap: int,
) -> None:
    """Check a judge's verdicts by hand: a local page shows judged items one at a time (DAHL:
    an atomic unit with its question and answer; MedHallu: a detector's reply with the verdict
    read from it; MedHal: a statement with the model's verdict and explanation), and you answer
    agree / disagree / cannot tell (keys a, d, c). Answers are saved as given, beside each log
    (<log>.audit.jsonl); starting again continues where you stopped."""
    found = audited_logs(logs)
    if summary:
        tables = audit_tables(found, resamples=bootstrap)
        if not tables:
            console.print("No answers yet: start the page without --summary to audit.")
        for table in tables:
            print_table(console, table)
        return
    session = AuditSession(found, annotator, items_per_log, seed)
    if not session.drawn:
        raise click.BadParameter("these logs hold no judged item to audit", param_hint="LOGS")
    server = audit_server(session, port)
    console.print(
        f"Auditing {len(session.drawn)} items as {annotator} at "
        f"[bold]http://127.0.0.1:{server.server_port}/[/bold] ({len(session.answers())} "
        "answered before; Ctrl-C stops, nothing is lost)",
        highlight=False,
    )
    # The signal only sets a flag: the server stops between requests, never inside one
    # (an interrupt raised within a request could leave a thread half started).
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in STOP_SIGNALS}
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    try:
        while not stop.wait(0.5):
            pass
    finally:
        server.shutdown()
        server.server_close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    answered = len(session.answers())
    console.print(f"Stopped: {answered} of {len(session.drawn)} answered, saved beside the logs.")
