"""`medhalbench reproduce [NAME]`."""

from __future__ import annotations

from medhalbench._lazy import by_name
from medhalbench.cli._options import settings_command
from medhalbench.settings import ReproduceRequest

reproduce_command = settings_command(
    "reproduce",
    ReproduceRequest,
    by_name("medhalbench.commands:reproduce_from_command_line"),
    whole=True,
)
