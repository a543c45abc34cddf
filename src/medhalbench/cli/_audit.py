"""`medhalbench audit LOG...`: a person checks the judge's verdicts on a local page, or
(`--summary`) the agreement of the people's answers with the judge."""

from __future__ import annotations

import getpass

import click

from medhalbench._lazy import by_name
from medhalbench.cli._options import NAME, settings_command
from medhalbench.settings import AuditRequest

# Not a setting: its default is whoever runs the command, known only then.
ANNOTATOR = click.Option(["--annotator"], default=getpass.getuser, type=NAME,
                         show_default="your user name", help="Your name, kept with each answer; "
                         "several people audit the same logs under their own names.")  # fmt: skip
audit_command = settings_command(
    "audit", AuditRequest, by_name("medhalbench.commands:audit_from_command_line"), whole=True
)
audit_command.params.insert(0, ANNOTATOR)  # the first option, as it always was
