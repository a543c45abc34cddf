"""Rich tables shaped like the papers' results tables."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

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
