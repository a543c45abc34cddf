"""Writing the report: one self-contained HTML page, or the tables as CSV or Markdown."""

from __future__ import annotations

import csv
import math
import tempfile
from collections.abc import Callable, Sequence
from html import escape
from itertools import combinations
from pathlib import Path
from typing import Literal

from medhalbench import __version__
from medhalbench._errors import DataError
from medhalbench.registry import benchmark, benchmarks
from medhalbench.report._collect import CollectedResults, collect
from medhalbench.report._compare import compare_logs, comparison_table
from medhalbench.results import (
    UNDEFINED,
    Estimate,
    ResultTable,
    RunResult,
    calibration_table,
    token_table,
)

ReportFormat = Literal["html", "csv", "markdown"]

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; max-width: 1400px; }
h1 { margin-bottom: 0.2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ccc; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.85rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; } th { background: #f2f2f2; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.text { max-width: 18rem; overflow-wrap: anywhere; }
tr.published td { background: #f7f7fb; color: #444; font-style: italic; }
.note { color: #555; font-size: 0.85rem; } .charts svg { margin: 0.5rem 1rem 0.5rem 0; }
code { background: #f5f5f5; padding: 0 0.2rem; }
#provenance { font-size: 0.8rem; } #provenance td { overflow-wrap: anywhere; max-width: 22rem; }
"""


def tables(results: CollectedResults, *, published: bool = True) -> list[ResultTable]:
    """Every table the results support, in report order; `published` adds the papers'
    figures as reference rows."""
    found = []
    for entry in benchmarks():
        runs = results.of(entry.name)
        if runs:
            found += entry.tables(runs, entry.published() if published else [])
    for extra in (calibration_table(results.runs), token_table(results.runs)):
        if extra is not None:
            found.append(extra)
    return found


def comparable_pairs(runs: Sequence[RunResult]) -> list[tuple[RunResult, RunResult]]:
    """Pairs of runs of one benchmark on the same samples (same data and sample settings)."""
    groups: dict[tuple[object, ...], list[RunResult]] = {}
    for run in runs:
        same = benchmark(run.system).same_samples
        key = (run.system, *(str(run.settings.get(k)) for k in same))
        groups.setdefault(key, []).append(run)
    return [pair for group in groups.values() for pair in combinations(group, 2)]


def comparison_tables(results: CollectedResults) -> list[ResultTable]:
    """A paired comparison of every two runs of one benchmark on the same samples."""
    found = []
    for i, (a, b) in enumerate(comparable_pairs(results.runs), start=1):
        table = comparison_table(compare_logs(a.log, b.log))
        table.slug = f"{table.slug}_{i}"
        found.append(table)
    return found


def html_table(table: ResultTable) -> str:
    """A table as HTML; each cell carries its column name for machine reading, an undefined
    cell its reason, a published row its source."""
    head = "".join(f"<th>{escape(c.name)}</th>" for c in table.columns)
    body = []
    for row, source in zip(table.rows, table.published, strict=True):
        cells = []
        for column, value, text in zip(table.columns, row, table.formatted(row), strict=True):
            numeric = isinstance(value, float | Estimate)
            title = f' title="undefined: {escape(column.undefined)}"' if text == UNDEFINED else ""
            cells.append(
                f'<td class="{"num" if numeric else "text"}" data-column="{escape(column.name)}"{title}>{escape(text)}</td>'
            )
        marker = f' class="published" title="{escape(source)}"' if source else ""
        body.append(f"<tr{marker}>{''.join(cells)}</tr>")
    notes = table.undefined_notes()
    legend = (
        f'<p class="note">{UNDEFINED} undefined: ' + "; ".join(escape(n) for n in notes) + ".</p>"
        if notes
        else ""
    )
    return (
        f'<div class="scroll"><table id="{table.slug}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>{legend}"
    )


def charts(results: CollectedResults) -> list[str]:
    """The papers' figures as inline SVG."""
    svgs = []
    for entry in benchmarks():
        runs = results.of(entry.name)
        if runs:
            svgs += entry.charts(runs)
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
        for h in ("System", "Model", "Roles", "Dataset", "Dataset SHA-256", "Prompt SHA-256", "Settings", "Log", "Created")
    )  # fmt: skip
    return (
        f'<div class="scroll"><table id="provenance"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def render_html(results: CollectedResults, *, published: bool = True) -> str:
    """The whole report as one self-contained HTML page (no scripts, no external files)."""
    sections = [
        f"<h2>{escape(t.title)}</h2>{html_table(t)}" for t in tables(results, published=published)
    ]
    compared = comparison_tables(results)
    figures = charts(results)
    skipped = "".join(f"<li>{escape(s)}</li>" for s in [*results.unreadable, *results.skipped])
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>medhalbench report</title>'
        f"<style>{STYLE}</style></head><body><h1>medhalbench report</h1>"
        f'<p class="note">medhalbench {__version__}. Numbers are read from the inspect logs listed at the end; '
        "open them with <code>inspect view</code> for every sample. Brackets hold 95% bootstrap intervals "
        f"(over MedHallu rows, DAHL questions, MedHal source items); {UNDEFINED} marks an undefined figure "
        "(hover it for the reason); an empty cell, a figure the run did not compute. Rows in italics are the papers' "
        "published figures, in the columns of the papers' own protocol. Results of the embedded SmolLM2-135M "
        "model show that a pipeline runs, not model quality.</p>"
        + "".join(sections)
        + (
            "<h2>Paired comparisons (runs on the same samples)</h2>"
            '<p class="note">A - B with its 95% paired-bootstrap interval; p from a paired permutation test '
            "(McNemar's exact test for per-sample correctness).</p>"
            + "".join(f"<h3>{escape(t.title)}</h3>{html_table(t)}" for t in compared)
            if compared
            else ""
        )
        + (f'<h2>Figures</h2><div class="charts">{"".join(figures)}</div>' if figures else "")
        + f"<h2>Provenance</h2>{provenance_html(results)}"
        + (f"<h2>Logs not included</h2><ul>{skipped}</ul>" if skipped else "")
        + "</body></html>"
    )


def render_markdown(results: CollectedResults, *, published: bool = True) -> str:
    """The tables as Markdown."""
    parts = []
    for t in [*tables(results, published=published), *comparison_tables(results)]:
        parts.append(f"### {t.title}\n")
        parts.append("| " + " | ".join(c.name for c in t.columns) + " |")
        parts.append("|" + "|".join("---" for _ in t.columns) + "|")
        parts += ["| " + " | ".join(t.formatted(row)) + " |" for row in t.rows]
        notes = t.undefined_notes()
        if notes:
            parts.append(f"\n{UNDEFINED} undefined: " + "; ".join(notes) + ".")
        parts.append("")
    return "\n".join(parts)


def _csv_text(value: object) -> str:
    # NaN, not "–", so that CSV readers see a missing number.
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else f"{value:.6f}"
    return "" if value is None else str(value)


def _csv_cells(table: ResultTable, row: Sequence[object]) -> list[str]:
    cells: list[str] = []
    for column, value in zip(table.columns, row, strict=True):
        if isinstance(value, Estimate):
            cells.append(_csv_text(value.value))
            if column.interval:
                cells += [_csv_text(value.low), _csv_text(value.high)]
        else:
            cells.append(_csv_text(value))
            if column.interval:
                cells += ["", ""]
    return cells


def write_report(
    logs: Sequence[str | Path],
    out: str | Path,
    fmt: ReportFormat = "html",
    *,
    published: bool = True,
    warn: Callable[[str], None] | None = None,
) -> list[Path]:
    """Write the report of the given logs (files or folders).

    Args:
        logs: Log files or folders of logs.
        out: Output file (for CSV, the stem of one file per table: `OUT_<table>.csv`).
        fmt: `html`, `csv` or `markdown`.
        published: Add the papers' published figures as reference rows.
        warn: Told of each file that is no readable log (it is left out).

    Returns:
        The files written.

    Raises:
        DataError: No finished run to report, or the report cannot be written.
    """
    target = Path(out)
    try:
        _check_writable(target)
    except OSError as ex:
        raise DataError(f"cannot write the report ({ex.strerror or ex})", path=target) from None
    results = collect(logs)
    if not results.runs:
        raise DataError(
            "no finished run of a medhalbench benchmark to report"
            + (
                f" (left out: {'; '.join([*results.unreadable, *results.skipped])})"
                if results.unreadable or results.skipped
                else ""
            ),
            path=", ".join(map(str, logs)),
        )
    for left_out in results.unreadable:
        if warn is not None:
            warn(f"left out {left_out}")
    try:
        return _write(results, target, fmt, published=published)
    except OSError as ex:
        raise DataError(f"cannot write the report ({ex.strerror or ex})", path=target) from None


def _check_writable(target: Path) -> None:
    """Raise OSError when the report cannot be written there (checked before reading logs)."""
    if target.is_dir():
        raise IsADirectoryError(21, "a folder is there, not a file")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=target.parent):
        pass


def _write(
    results: CollectedResults, target: Path, fmt: ReportFormat, *, published: bool
) -> list[Path]:
    if fmt == "html":
        target.write_text(render_html(results, published=published), encoding="utf-8")
        return [target]
    if fmt == "markdown":
        target.write_text(render_markdown(results, published=published), encoding="utf-8")
        return [target]
    written = []
    for t in [*tables(results, published=published), *comparison_tables(results)]:
        path = target.with_name(f"{target.stem}_{t.slug}.csv")
        with path.open("w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            header = []
            for c in t.columns:
                header += (
                    [c.name, f"{c.name} CI low", f"{c.name} CI high"] if c.interval else [c.name]
                )
            writer.writerow([*header, "Published"])
            writer.writerows(
                [*_csv_cells(t, row), source or ""]
                for row, source in zip(t.rows, t.published, strict=True)
            )
        written.append(path)
    return written
