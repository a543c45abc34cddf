"""The papers' tables the package reproduces: each a packaged suite (the paper's grid of
models, conditions and settings, `suites/NAME.yaml`) and the published figures it is set
beside, cell by cell."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from medhalbench._errors import MedhalbenchError


@dataclass(frozen=True)
class PaperTable:
    """A published table and the suite that reproduces it.

    Attributes:
        name: Its name on the command line (`medhallu-table2`).
        benchmark: The benchmark it is of.
        table: Where the paper prints it, as the benchmark's `published.csv` names it.
        title: What it shows.
        figures: Each published figure by our metric name (the paper protocol's, as
            `published.csv` holds it), with the figure of our own reading beside it (None:
            the paper's protocol has none of ours).
        unpublished: What of the paper's experiment is not published, and what stands in.
    """

    name: str
    benchmark: str
    table: str
    title: str
    figures: Mapping[str, str | None]
    unpublished: str

    @property
    def suite(self) -> Path:
        """Its packaged suite."""
        return Path(str(files(__package__).joinpath("suites", f"{self.name}.yaml")))


_SEEDED_DRAW = "the draw of one answer per question (theirs unpublished; ours seeded)"
_NOT_SURE = {
    "paper_f1": "f1",
    "paper_precision": "precision",
    "paper_response_rate": "response_rate",
}

PAPER_TABLES: tuple[PaperTable, ...] = (
    PaperTable(
        "medhallu-table2", "medhallu", "Table 2", "Detection without and with knowledge",
        {"paper_f1": "f1", "paper_precision": "precision", "paper_easy_f1": "easy_f1",
         "paper_medium_f1": "medium_f1", "paper_hard_f1": "hard_f1"},
        _SEEDED_DRAW,
    ),
    PaperTable(
        "medhallu-table4", "medhallu", "Table 4",
        'Detection with the "not sure" option, without knowledge', _NOT_SURE, _SEEDED_DRAW,
    ),
    PaperTable(
        "medhallu-table5", "medhallu", "Table 5",
        'Detection with the "not sure" option, with knowledge', _NOT_SURE, _SEEDED_DRAW,
    ),
    PaperTable(
        "dahl-table2", "dahl", "Table 2", "DAHL score and mean answer length",
        {"paper_dahl_score": "dahl_score", "mean_length": None},
        "the 10% sample of questions (theirs unpublished; ours seeded, of the same size and "
        "strata); their checker's model version (perplexity/sonar stands in)",
    ),
    PaperTable(
        "medhal-table6", "medhal", "Table 6", "Factuality and explanation metrics of judges",
        {"format_matching_precision": "precision", "format_matching_recall": "recall",
         "format_matching_f1": "f1", "bleu": None, "rouge1": None, "rouge2": None},
        "MedLlama-8B's checkpoint and the authors' fine-tuned MedHal-Llama (rows not run)",
    ),
)  # fmt: skip
"""Every table the package reproduces, in the order `reproduce --list` shows them."""


def paper_table(name: str) -> PaperTable:
    """A table by name.

    Raises:
        MedhalbenchError: No table has that name (the known ones named).
    """
    for table in PAPER_TABLES:
        if table.name == name:
            return table
    known = ", ".join(t.name for t in PAPER_TABLES)
    raise MedhalbenchError(f"no packaged table '{name}' (known: {known})")
