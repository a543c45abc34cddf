"""The papers' results tables, as data: built once, rendered to a terminal, HTML, CSV or Markdown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from medhalbench.dahl._results import DahlResult
from medhalbench.medhal._results import MedHalResult
from medhalbench.medhallu._results import DetectionResult

Cell = str | float | None


@dataclass
class ResultTable:
    """A titled table: `columns` names, `rows` of cells (numbers stay numbers), and the
    number of digits to show per column (0 for counts)."""

    title: str
    slug: str
    columns: list[str]
    rows: list[list[Cell]] = field(default_factory=list)
    digits: dict[str, int] = field(default_factory=dict)

    def formatted(self, row: Sequence[Cell]) -> list[str]:
        """A row's cells as text."""
        return [
            format_cell(v, self.digits.get(c, 3)) for c, v in zip(self.columns, row, strict=True)
        ]


def format_cell(value: Cell, digits: int = 3) -> str:
    """A cell as text: numbers rounded, missing values as '-'."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def detection_table(results: Sequence[DetectionResult]) -> ResultTable:
    """MedHallu's results table: one row per model and setting."""
    table = ResultTable(
        "MedHallu detection (hallucinated = positive)",
        "medhallu",
        [
            "Model",
            "Knowledge",
            "Not sure",
            "Overall F1",
            "Precision",
            "Easy F1",
            "Medium F1",
            "Hard F1",
            "Response rate",
            "Answered F1",
            "Samples",
            "Unparseable",
        ],
        digits={"Samples": 0, "Unparseable": 0},
    )
    for r in results:
        m = r.metrics
        table.rows.append(
            [
                r.model, "yes" if r.knowledge else "no", "yes" if r.not_sure else "no",
                m.get("f1"), m.get("precision"), m.get("easy_f1"), m.get("medium_f1"), m.get("hard_f1"),
                m.get("response_rate") if r.not_sure else None, m.get("answered_f1") if r.not_sure else None,
                m.get("samples"), m.get("unparseable"),
            ]
        )  # fmt: skip
    return table


def dahl_table(results: Sequence[DahlResult]) -> ResultTable:
    """DAHL's results table: score, responses scored and excluded, units and length."""
    counts = [
        "Scored",
        "Excluded",
        "Declined",
        "Unknown unit",
        "No units",
        "Mismatch",
        "Mean length",
    ]
    table = ResultTable(
        "DAHL (mean factual precision of atomic units)",
        "dahl",
        ["Model", "Temperature", "DAHL score", *counts[:6], "Mean units", "Mean length"],
        digits={**dict.fromkeys(counts, 0), "Temperature": 2, "Mean units": 1},
    )
    for r in results:
        m = r.metrics
        table.rows.append(
            [
                r.model, r.temperature, m.get("dahl_score"), m.get("scored"), m.get("excluded"),
                m.get("excluded_declined"), m.get("excluded_unknown_unit"), m.get("excluded_no_units"),
                m.get("excluded_mismatch"), m.get("mean_units"), m.get("mean_length"),
            ]
        )  # fmt: skip
    return table


def dahl_category_table(results: Sequence[DahlResult]) -> ResultTable:
    """DAHL score per category (rows) and model at temperature (columns)."""
    table = ResultTable(
        "DAHL score by category",
        "dahl_categories",
        ["Category", *(f"{r.model} @ {r.temperature:g}" for r in results)],
    )
    for category in sorted({c for r in results for c in r.categories}):
        table.rows.append([category, *(r.categories.get(category) for r in results)])
    return table


def dahl_sweep_table(results: Sequence[DahlResult]) -> ResultTable:
    """DAHL score by answering temperature (rows) and model (columns)."""
    models = list(dict.fromkeys(r.model for r in results))
    table = ResultTable(
        "DAHL score by temperature",
        "dahl_temperatures",
        ["Temperature", *models],
        digits={"Temperature": 2},
    )
    for temperature in sorted({r.temperature for r in results}):
        by_model = {r.model: r for r in results if r.temperature == temperature}
        table.rows.append(
            [
                temperature,
                *(by_model[m].metrics.get("dahl_score") if m in by_model else None for m in models),
            ]
        )
    return table


def medhal_table(results: Sequence[MedHalResult]) -> ResultTable:
    """MedHal results per model and source (and overall)."""
    table = ResultTable(
        "MedHal (non-factual = positive; FM = the authors' factual-positive figures on format-matching replies)",
        "medhal",
        [
            "Model",
            "Dataset",
            "Source",
            "Precision",
            "Recall",
            "F1",
            "Accuracy",
            "FM F1",
            "BLEU",
            "ROUGE-1",
            "ROUGE-2",
            "Samples",
            "Unparseable",
        ],
        digits={"BLEU": 2, "Samples": 0, "Unparseable": 0},
    )
    for r in results:
        m = r.metrics
        for source in ["all", *r.sources]:
            prefix = "" if source == "all" else f"source/{source}/"
            table.rows.append(
                [
                    r.model, f"{r.dataset} ({r.split})", source,
                    *(m.get(prefix + name) for name in ("precision", "recall", "f1", "accuracy")),
                    m.get("format_matching_f1") if source == "all" else None,
                    *(m.get(prefix + name) for name in ("bleu", "rouge1", "rouge2", "samples", "unparseable")),
                ]
            )  # fmt: skip
    return table
