"""`medhalbench recall INDEX QUESTIONS`: how well an index finds the document that answers
each of a user's own questions (recall@k and MRR@10, with 95% intervals)."""

from __future__ import annotations

from medhalbench._lazy import by_name
from medhalbench.cli._options import settings_command
from medhalbench.settings import RecallSettings

recall_command = settings_command(
    "recall", RecallSettings, by_name("medhalbench.commands:recall_from_command_line"), whole=True
)
