"""Rich tables shaped like the papers' results tables."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from medhalbench.dahl import DahlResult
from medhalbench.medhallu._results import DetectionResult


def _fmt(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def detection_table(results: Sequence[DetectionResult]) -> Table:
    """MedHallu's results table: one row per model and setting, overall F1 and precision,
    then F1 per difficulty; response rate when "not sure" was allowed."""
    any_not_sure = any(r.not_sure for r in results)
    table = Table(title="MedHallu detection (hallucinated = positive)")
    for column in (
        "Model",
        "Knowledge",
        "Overall F1",
        "Precision",
        "Easy F1",
        "Medium F1",
        "Hard F1",
    ):
        table.add_column(column, justify="left" if column in ("Model", "Knowledge") else "right")
    if any_not_sure:
        table.add_column("Response rate", justify="right")
        table.add_column("Answered F1", justify="right")
    table.add_column("Samples", justify="right")
    table.add_column("Unparseable", justify="right")
    for r in results:
        m = r.metrics
        row = [
            r.model,
            "yes" if r.knowledge else "no",
            _fmt(m.get("f1")),
            _fmt(m.get("precision")),
            _fmt(m.get("easy_f1")),
            _fmt(m.get("medium_f1")),
            _fmt(m.get("hard_f1")),
        ]
        if any_not_sure:
            row += (
                [_fmt(m.get("response_rate")), _fmt(m.get("answered_f1"))]
                if r.not_sure
                else ["-", "-"]
            )
        row += [_fmt(m.get("samples"), 0), _fmt(m.get("unparseable"), 0)]
        table.add_row(*row)
    return table


def dahl_table(results: Sequence[DahlResult]) -> Table:
    """DAHL's results table: score, responses scored and excluded, mean units and length."""
    table = Table(title="DAHL (mean factual precision of atomic units)")
    for column in (
        "Model",
        "Temp",
        "DAHL score",
        "Scored",
        "Excluded",
        "Declined",
        "Unknown unit",
        "No units",
        "Mismatch",
        "Mean units",
        "Mean length",
    ):
        table.add_column(column, justify="left" if column == "Model" else "right")
    for r in results:
        m = r.metrics
        table.add_row(
            r.model,
            f"{r.temperature:g}",
            _fmt(m.get("dahl_score")),
            _fmt(m.get("scored"), 0),
            _fmt(m.get("excluded"), 0),
            _fmt(m.get("excluded_declined"), 0),
            _fmt(m.get("excluded_unknown_unit"), 0),
            _fmt(m.get("excluded_no_units"), 0),
            _fmt(m.get("excluded_mismatch"), 0),
            _fmt(m.get("mean_units"), 1),
            _fmt(m.get("mean_length"), 0),
        )
    return table


def dahl_category_table(results: Sequence[DahlResult]) -> Table:
    """DAHL score per category (rows) and model/temperature (columns)."""
    table = Table(title="DAHL score by category")
    table.add_column("Category")
    for r in results:
        table.add_column(f"{r.model} @ {r.temperature:g}", justify="right")
    for category in sorted({c for r in results for c in r.categories}):
        table.add_row(category, *(_fmt(r.categories.get(category)) for r in results))
    return table


def dahl_sweep_table(results: Sequence[DahlResult]) -> Table:
    """DAHL score by answering temperature (rows) and model (columns)."""
    models = list(dict.fromkeys(r.model for r in results))
    table = Table(title="DAHL score by temperature")
    table.add_column("Temperature", justify="right")
    for model in models:
        table.add_column(model, justify="right")
    for temperature in sorted({r.temperature for r in results}):
        by_model = {r.model: r for r in results if r.temperature == temperature}
        table.add_row(
            f"{temperature:g}",
            *(
                _fmt(by_model[m].metrics.get("dahl_score")) if m in by_model else "-"
                for m in models
            ),
        )
    return table


def medhal_table(results: Sequence[tuple[str, dict[str, float]]]) -> Table:
    """MedHal results: non-factual-positive P/R/F1, the authors' format-matching figures,
    explanation BLEU/ROUGE, one row per model and source (and overall)."""
    table = Table(
        title="MedHal (non-factual = positive; 'FM' = authors' factual-positive, format-matching only)"
    )
    for column in (
        "Model",
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
    ):
        table.add_column(column, justify="left" if column in ("Model", "Source") else "right")
    for model, m in results:
        sources = sorted({k.split("/")[1] for k in m if k.startswith("source/")})
        for source in ["all", *sources]:
            prefix = "" if source == "all" else f"source/{source}/"
            table.add_row(
                model, source,
                *(_fmt(m.get(prefix + name)) for name in ("precision", "recall", "f1", "accuracy")),
                _fmt(m.get("format_matching_f1")) if source == "all" else "-",
                _fmt(m.get(prefix + "bleu"), 2), _fmt(m.get(prefix + "rouge1")), _fmt(m.get(prefix + "rouge2")),
                _fmt(m.get(prefix + "samples"), 0), _fmt(m.get(prefix + "unparseable"), 0),
            )  # fmt: skip
    return table
