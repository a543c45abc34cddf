"""What the report shows, in order, as data: a summary of every model on every benchmark
beside the papers' figures, then a section per benchmark (its tables, the published rows,
charts, comparisons), the tables that span benchmarks, and the provenance of each number.
The HTML page, CSV and Markdown are renderings of this."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from medhalbench.audit import answers_path, audit_tables, audited_logs
from medhalbench.registry import Benchmark, benchmarks
from medhalbench.report._collect import CollectedResults, Provenance
from medhalbench.report._compare import compare_logs, comparison_table
from medhalbench.report._contrasts import contrasts
from medhalbench.results import (
    Cell,
    Column,
    PublishedRow,
    ResultTable,
    RunResult,
    calibration_table,
    run_labels,
    setting_text,
    token_table,
    varying_settings,
)


@dataclass
class Section:
    """One benchmark's part of the report.

    Attributes:
        entry: The benchmark.
        tables: Its tables: our runs, then the paper's published rows.
        charts: Its charts, as inline SVG.
        comparisons: Paired comparisons of its runs that differ in one thing.
        not_compared: What it leaves uncompared, and why (empty when nothing).
        audit: The agreement of people with its judge, where its logs were audited.
    """

    entry: Benchmark
    tables: list[ResultTable]
    charts: list[str]
    comparisons: list[ResultTable]
    not_compared: str = ""
    audit: list[ResultTable] = field(default_factory=list)


@dataclass
class Page:
    """The whole report."""

    summary: ResultTable
    sections: list[Section]
    extras: list[ResultTable] = field(default_factory=list)
    provenance: list[Provenance] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)

    def tables(self) -> list[ResultTable]:
        """Every table, in page order (published rows inside their benchmark's tables)."""
        found = [self.summary]
        for s in self.sections:
            found += s.tables + s.comparisons + s.audit
        return found + self.extras


def _published_matches(row: PublishedRow, settings: dict[str, object]) -> bool:
    return all(setting_text(settings[k]) == v for k, v in row.settings.items() if k in settings)


def summary_table(results: CollectedResults, *, published: bool = True) -> ResultTable:
    """Every model (rows) on every benchmark and setting (columns): the benchmark's key
    figure, ours and the paper protocol's, with intervals; then the range of the papers'
    published figures in the same setting."""
    models = list(dict.fromkeys(r.model for r in results.runs))
    table = ResultTable("Summary", "summary", [Column("Model")])
    cells: dict[str, list[Cell]] = {m: [m] for m in models}
    ranges: list[Cell] = ["Published (the paper's models)"]
    for entry in benchmarks():
        runs = results.of(entry.name)
        variants = varying_settings(runs, entry.describe)
        key = entry.key_figure
        for variant in dict.fromkeys(variants):
            group = f"{entry.title} {key.label}" + (f" · {variant}" if variant else "")
            table.columns += [
                Column("Ours", interval=True, group=group),
                Column("Paper protocol", interval=True, group=group),
            ]
            latest = {r.model: r for r, v in zip(runs, variants, strict=True) if v == variant}
            for model in models:
                run = latest.get(model)
                cells[model] += (
                    [run.figure(key.ours), run.figure(key.paper)] if run else [None, None]
                )
            shown = next(r for r, v in zip(runs, variants, strict=True) if v == variant)
            figures = [
                row.metrics[key.paper]
                for row in (entry.published() if published else [])
                if key.paper in row.metrics and _published_matches(row, shown.settings)
            ]
            ranges += [
                None,
                f"{min(figures):.3f}–{max(figures):.3f} ({len(figures)})" if figures else None,
            ]
    for model in models:
        table.add(cells[model])
    if any(c is not None for c in ranges[1:]):
        table.add(ranges, published="the range over the paper's models in the same setting "
                  "(how many in brackets); each section lists them")  # fmt: skip
    return table


def _section(entry: Benchmark, runs: Sequence[RunResult], published: bool) -> Section:
    found = contrasts(runs)
    comparisons = []
    for i, (a, b, _) in enumerate(found.pairs, start=1):
        table = comparison_table(compare_logs(a.log, b.log))
        table.slug = f"{table.slug}_{i}"
        comparisons.append(table)
    left = [
        f"{n} {what}"
        for n, what in (
            (found.reruns, "pair(s) of identical reruns"),
            (found.confounded, "pair(s) that differ in more than one thing"),
        )
        if n
    ]
    return Section(
        entry=entry,
        tables=entry.tables(runs, entry.published() if published else []),
        charts=entry.charts(runs),
        comparisons=comparisons,
        not_compared=f"Not compared: {' and '.join(left)}." if left else "",
        audit=_audit(runs),
    )


def _audit(runs: Sequence[RunResult]) -> list[ResultTable]:
    """The judge audit of the runs whose logs people audited (answers beside the log)."""
    audited = [run.log for run in runs if answers_path(run.log).exists()]
    return audit_tables(audited_logs(audited)) if audited else []


def run_names(results: CollectedResults) -> dict[str, str]:
    """Each run's name in tables that span benchmarks (by log): the benchmark, the model and
    what sets the run apart from the benchmark's other runs."""
    names = {}
    for entry in benchmarks():
        runs = results.of(entry.name)
        for run, label in zip(runs, run_labels(runs, entry.describe), strict=True):
            names[run.log] = f"{entry.title} · {label}"
    return names


def build_page(results: CollectedResults, *, published: bool = True) -> Page:
    """The report of collected results (`published`: with the papers' figures)."""
    names = run_names(results)
    sections = [
        _section(entry, results.of(entry.name), published)
        for entry in benchmarks()
        if results.of(entry.name)
    ]
    extras = [
        t
        for t in (calibration_table(results.runs, names), token_table(results.runs, names))
        if t is not None
    ]
    return Page(
        summary=summary_table(results, published=published),
        sections=sections,
        extras=extras,
        provenance=results.provenance,
        left_out=[*results.unreadable, *results.skipped],
    )
