"""Writing the report: one self-contained HTML page, or the tables as CSV or Markdown."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Literal

from medhalbench import __version__
from medhalbench.report._charts import grouped_bars, horizontal_bars, line_chart
from medhalbench.report._collect import CollectedResults, collect
from medhalbench.report._tables import (
    ResultTable,
    dahl_category_table,
    dahl_sweep_table,
    dahl_table,
    detection_table,
    format_cell,
    medhal_table,
)

ReportFormat = Literal["html", "csv", "markdown"]

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; max-width: 1200px; }
h1 { margin-bottom: 0.2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; } th { background: #f2f2f2; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.note { color: #555; font-size: 0.85rem; } .charts svg { margin: 0.5rem 1rem 0.5rem 0; }
code { background: #f5f5f5; padding: 0 0.2rem; }
#provenance { font-size: 0.8rem; } #provenance td { overflow-wrap: anywhere; max-width: 22rem; }
"""


def tables(results: CollectedResults) -> list[ResultTable]:
    """Every table the results support, in report order."""
    found = []
    if results.detection:
        found.append(detection_table(results.detection))
    if results.dahl:
        found += [dahl_table(results.dahl), dahl_category_table(results.dahl)]
        if len({r.temperature for r in results.dahl}) > 1:
            found.append(dahl_sweep_table(results.dahl))
    if results.medhal:
        found.append(medhal_table(results.medhal))
    return found


def html_table(table: ResultTable) -> str:
    """A table as HTML; each cell carries its column name for machine reading."""
    head = "".join(f"<th>{escape(c)}</th>" for c in table.columns)
    body = []
    for row in table.rows:
        cells = "".join(
            f'<td class="{"num" if isinstance(v, float) else "text"}" data-column="{escape(c)}">{escape(t)}</td>'
            for c, v, t in zip(table.columns, row, table.formatted(row), strict=True)
        )
        body.append(f"<tr>{cells}</tr>")
    return f'<table id="{table.slug}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def charts(results: CollectedResults) -> list[str]:
    """The papers' figures as inline SVG."""
    svgs = []
    if results.detection:
        series = {
            f"{r.model} ({'knowledge' if r.knowledge else 'no knowledge'}{', not sure' if r.not_sure else ''})": [
                r.metrics.get(f"{d}_f1") for d in ("easy", "medium", "hard")
            ]
            for r in results.detection
        }
        svgs.append(grouped_bars("MedHallu F1 by difficulty", ["easy", "medium", "hard"], series))
    for r in results.dahl:
        if r.categories:
            labels = sorted(r.categories)
            svgs.append(
                horizontal_bars(
                    f"DAHL score by category: {r.model} @ {r.temperature:g}",
                    labels,
                    [r.categories[c] for c in labels],
                )
            )
    if len({r.temperature for r in results.dahl}) > 1:
        curves: dict[str, list[tuple[float, float]]] = {}
        for r in results.dahl:
            curves.setdefault(r.model, []).append((r.temperature, r.metrics.get("dahl_score", 0.0)))
        svgs.append(
            line_chart("DAHL score by answering temperature", curves, x_label="temperature")
        )
    return svgs


def provenance_html(results: CollectedResults) -> str:
    """The note of models, prompts and data behind each number."""
    rows = []
    for p in results.provenance:
        prompts = ", ".join(f"{k} {v}" for k, v in sorted(p.prompts.items())) or "-"
        roles = ", ".join(f"{k}: {v}" for k, v in sorted(p.roles.items())) or "-"
        settings = ", ".join(f"{k}={v}" for k, v in sorted(p.settings.items()) if v is not None)
        rows.append(
            "<tr>" + "".join(
                f"<td>{escape(str(x))}</td>"
                for x in (p.system, p.model, roles, p.dataset or "-", p.dataset_fingerprint or "-", prompts, settings, p.log, p.created)
            ) + "</tr>"
        )  # fmt: skip
    head = "".join(
        f"<th>{h}</th>"
        for h in (
            "System",
            "Model",
            "Roles",
            "Dataset",
            "Dataset SHA-256",
            "Prompt SHA-256",
            "Settings",
            "Log",
            "Created",
        )
    )
    return f'<table id="provenance"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def render_html(results: CollectedResults) -> str:
    """The whole report as one self-contained HTML page (no scripts, no external files)."""
    sections = [f"<h2>{escape(t.title)}</h2>{html_table(t)}" for t in tables(results)]
    figures = charts(results)
    skipped = "".join(f"<li>{escape(s)}</li>" for s in results.skipped)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>medhalbench report</title>'
        f"<style>{STYLE}</style></head><body><h1>medhalbench report</h1>"
        f'<p class="note">medhalbench {__version__}. Numbers are read from the inspect logs listed at the end; '
        "open them with <code>inspect view</code> for every sample. Results of the embedded SmolLM2-135M model show that a pipeline runs, not model quality.</p>"
        + "".join(sections)
        + (f'<h2>Figures</h2><div class="charts">{"".join(figures)}</div>' if figures else "")
        + f"<h2>Provenance</h2>{provenance_html(results)}"
        + (f"<h2>Logs not included</h2><ul>{skipped}</ul>" if skipped else "")
        + "</body></html>"
    )


def render_markdown(results: CollectedResults) -> str:
    """The tables as Markdown."""
    parts = []
    for t in tables(results):
        parts.append(f"### {t.title}\n")
        parts.append("| " + " | ".join(t.columns) + " |")
        parts.append("|" + "|".join("---" for _ in t.columns) + "|")
        parts += ["| " + " | ".join(t.formatted(row)) + " |" for row in t.rows]
        parts.append("")
    return "\n".join(parts)


def write_report(
    logs: Sequence[str | Path], out: str | Path, fmt: ReportFormat = "html"
) -> list[Path]:
    """Write the report of the given logs (files or folders).

    Args:
        logs: Log files or folders of logs.
        out: Output file (for CSV, the stem of one file per table: `OUT_<table>.csv`).
        fmt: `html`, `csv` or `markdown`.

    Returns:
        The files written.
    """
    results = collect(logs)
    target = Path(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "html":
        target.write_text(render_html(results), encoding="utf-8")
        return [target]
    if fmt == "markdown":
        target.write_text(render_markdown(results), encoding="utf-8")
        return [target]
    written = []
    for t in tables(results):
        path = target.with_name(f"{target.stem}_{t.slug}.csv")
        with path.open("w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(t.columns)
            writer.writerows(
                [format_cell(v, 6) if not isinstance(v, str) else v for v in row] for row in t.rows
            )
        written.append(path)
    return written
