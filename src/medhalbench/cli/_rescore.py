"""`medhalbench rescore LOG`."""

from __future__ import annotations

from medhalbench._lazy import by_name
from medhalbench.cli._options import settings_command
from medhalbench.settings import RescoreRequest

rescore_command = settings_command(
    "rescore", RescoreRequest, by_name("medhalbench.commands:rescore_from_command_line"), whole=True
)
