"""`medhalbench audit LOG...`: a person checks the judge's verdicts on a local page, or
(`--summary`) the agreement of the people's answers with the judge."""

from __future__ import annotations

import getpass
from typing import Any

import click

from medhalbench._lazy import by_name
from medhalbench.cli._options import NAME, bootstrap_option, examples_epilog

DEFAULT_PORT = 8765
DEFAULT_ITEMS = 40


@click.command(
    name="audit",
    epilog=examples_epilog(
        ["medhalbench audit logs/ --items 50", "medhalbench audit logs/run.eval --summary"]
    ),
)
@click.argument("logs", nargs=-1, required=True)
@click.option("--annotator", default=getpass.getuser, type=NAME, show_default="your user name",
              help="Your name, kept with each answer; several people "
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
def audit_command(**values: Any) -> None:
    """Check the judges of runs by hand, blind: a local page shows one judged item at a time
    and asks you what the judge was asked, before showing its answer and the dataset's label.
    Each role is audited: the reader of verdicts (which verdict does a reply state? unread
    replies included), the extractor, DAHL's splitter (is the unit stated in the answer? one
    fact? a repeat?) and checker (is the unit true?), and the model under test as a detector
    (is the answer hallucinated? is the statement factual?). Keys 1-9 answer, Enter sends,
    arrows move. Answers are saved as given, beside each log (<log>.audit.jsonl); starting
    again continues where you stopped; --summary prints each role's agreement."""
    by_name("medhalbench.commands:audit_from_command_line")(**values)
