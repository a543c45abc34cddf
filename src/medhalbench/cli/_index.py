"""`medhalbench index CORPUS... --out DIR [--dense]`: a local corpus cut into passages and
indexed (BM25, and passage vectors with `--dense`) for evidence-grounded checking (`eval dahl
--evidence DIR`, `eval medhallu --knowledge --evidence DIR`)."""

from __future__ import annotations

from medhalbench._lazy import by_name
from medhalbench.cli._options import settings_command
from medhalbench.settings import IndexRequest

index_command = settings_command(
    "index", IndexRequest, by_name("medhalbench.commands:index_from_command_line"), whole=True
)
