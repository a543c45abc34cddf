"""The papers' published figures, as reference rows beside a user's own (numbers only)."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TypeVar

from medhalbench.settings import Settings

S = TypeVar("S", bound=Settings)


@dataclass(frozen=True)
class PublishedRow:
    """One published result.

    Attributes:
        system: The benchmark.
        model: The model, as the paper names it.
        settings: The run's settings as text (e.g. knowledge `yes`, not_sure `no`).
        metrics: Figures under our metric names (the papers' protocol: `paper_*`,
            `format_matching_*`).
        source: Where it is printed, e.g. "MedHallu paper, Table 2".
    """

    system: str
    model: str
    settings: dict[str, str]
    metrics: dict[str, float]
    source: str

    def settings_as(self, kind: type[S]) -> S:
        """The row's settings as a record of `kind` (a benchmark's settings record: yes/no
        read as flags; settings the row does not name keep the record's defaults)."""
        return kind.read(self.settings, where=f"the published row of {self.model}")


def read_published(source: Traversable | Path, *, system: str, paper: str) -> list[PublishedRow]:
    """Published rows from a CSV: `model`, optional `size`, `source` (table or figure), setting
    columns, and figures under our metric names.

    Args:
        source: The CSV (a benchmark ships it as `published.csv` in its package).
        system: The benchmark's registry name.
        paper: The paper's short name, for the rows' source ("MedHallu paper, Table 2").
    """
    text = source.read_text("utf-8")
    rows = []
    for row in csv.DictReader(text.splitlines()):
        metrics = {
            k: float(v)
            for k, v in row.items()
            if k.startswith(("paper_", "format_matching_", "bleu", "rouge", "mean_")) and v
        }
        settings = {
            k: v for k, v in row.items() if k not in metrics and k not in ("model", "source")
        }
        model = row["model"] + (f" {row['size']}" if row.get("size") not in (None, "", "?") else "")
        rows.append(
            PublishedRow(system, model, settings, metrics, f"{paper} paper, {row['source']}")
        )
    return rows
