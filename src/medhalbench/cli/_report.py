"""`medhalbench report LOGS...`."""

from __future__ import annotations

from medhalbench._lazy import by_name
from medhalbench.cli._options import settings_command
from medhalbench.settings import ReportRequest

report_command = settings_command(
    "report", ReportRequest, by_name("medhalbench.commands:report_from_command_line"), whole=True
)
