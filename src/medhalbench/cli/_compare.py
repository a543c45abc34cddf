"""`medhalbench compare LOG_A LOG_B`."""

from __future__ import annotations

from medhalbench._lazy import by_name
from medhalbench.cli._options import settings_command
from medhalbench.settings import CompareRequest

compare_command = settings_command(
    "compare", CompareRequest, by_name("medhalbench.commands:compare_from_command_line"), whole=True
)
