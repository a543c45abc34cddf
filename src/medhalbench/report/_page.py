"""What the report shows, in order, as data: a summary of every model on every benchmark
beside the papers' figures, then a section per benchmark (its tables, the published rows,
charts, comparisons), the tables that span benchmarks, and the provenance of each number.
The HTML page, CSV and Markdown are renderings of this."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from medhalbench.audit import answers_path, audit_tables, audited_logs
from medhalbench.registry import Benchmark, benchmarks
from medhalbench.report._calibration import reliability_charts
from medhalbench.report._collect import CollectedResults, Provenance
from medhalbench.report._compare import compare_logs, comparison_table, overview_table
from medhalbench.report._contrasts import contrasts
from medhalbench.report._multiple import holm
from medhalbench.report._summary import BenchmarkSummary, run_names, summary_tables
from medhalbench.results import ResultTable, RunResult, calibration_table, token_table


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
        overview: Its comparisons in one compact table (the key figure's difference),
            None when there is none.
    """

    entry: Benchmark
    tables: list[ResultTable]
    charts: list[str]
    comparisons: list[ResultTable]
    not_compared: str = ""
    audit: list[ResultTable] = field(default_factory=list)
    overview: ResultTable | None = None


@dataclass
class Page:
    """The whole report.

    Attributes:
        summary: Every benchmark's headline figures.
        sections: A section per benchmark.
        extras: The tables that span benchmarks.
        provenance: What stands behind each run's numbers.
        left_out: The logs not included, and why.
        reproduced: The papers' tables that runs of the report stand in for, cell by cell
            (published figure, ours, the difference and the verdict).
        charts: The charts shown with a table that spans benchmarks, by its slug (the
            reliability diagrams beside the calibration table).
        paths: Each local path the page shows shortened (`shown_path`), whole, by its
            shortened form: shown whole on hover.
    """

    summary: list[BenchmarkSummary]
    sections: list[Section]
    extras: list[ResultTable] = field(default_factory=list)
    provenance: list[Provenance] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    reproduced: list[ResultTable] = field(default_factory=list)
    charts: dict[str, list[str]] = field(default_factory=dict)
    paths: dict[str, str] = field(default_factory=dict)

    def tables(self) -> list[ResultTable]:
        """Every table, in page order (published rows inside their benchmark's tables)."""
        found = [t for s in self.summary for t in s.tables()] + self.reproduced
        for s in self.sections:
            found += s.tables + ([s.overview] if s.overview else []) + s.comparisons + s.audit
        return found + self.extras


def _section(entry: Benchmark, runs: Sequence[RunResult], published: bool) -> Section:
    found = contrasts(runs)
    # Runs named as everywhere in the report (two comparisons of the same kind, such as
    # a model against outputs written elsewhere at two temperatures, read apart).
    names = dict(zip((r.log for r in runs), run_names(runs, title=False), strict=True))
    compared = [
        replace(compare_logs(a.log, b.log), a=names[a.log], b=names[b.log])
        for a, b, _ in found.pairs
    ]
    # Holm over every test of the benchmark's comparisons: one family per section.
    tests = [p for c in compared for p in c.tests]
    adjusted = iter(holm(tests))
    family = (
        f"the {sum(not math.isnan(p) for p in tests)} tests of the {len(compared)} "
        f"comparisons of {entry.title}"
    )
    if len(compared) > 1:
        compared = [c.adjusted_over([next(adjusted) for _ in c.tests], family) for c in compared]
    comparisons = []
    for i, comparison in enumerate(compared, start=1):
        table = comparison_table(comparison)
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
        tables=entry.implementation.tables(
            runs, entry.implementation.published() if published else []
        ),
        charts=entry.implementation.charts(runs),
        comparisons=comparisons,
        not_compared=f"Not compared: {' and '.join(left)}." if left else "",
        audit=_audit(runs),
        overview=(
            overview_table(entry.title, entry.key_figure, compared, f"comparisons_{entry.name}")
            if compared
            else None
        ),
    )


def _audit(runs: Sequence[RunResult]) -> list[ResultTable]:
    """The judge audit of the runs whose logs people audited (answers beside the log)."""
    audited = [run.log for run in runs if answers_path(run.log).exists()]
    return audit_tables(audited_logs(audited)) if audited else []


def build_page(
    results: CollectedResults,
    *,
    published: bool = True,
    reproduced: Sequence[ResultTable] = (),
) -> Page:
    """The report of collected results (`published`: with the papers' figures, and the
    `reproduced` tables' views)."""
    names = dict(zip((r.log for r in results.runs), run_names(results.runs), strict=True))
    sections = [
        _section(entry, results.of(entry.name), published)
        for entry in benchmarks()
        if results.of(entry.name)
    ]
    calibration = calibration_table(results.runs, names)
    extras = [t for t in (calibration, token_table(results.runs, names)) if t is not None]
    charts = {calibration.slug: reliability_charts(results.runs, names)} if calibration else {}
    return Page(
        summary=summary_tables(results.runs, published=published),
        sections=sections,
        extras=extras,
        provenance=results.provenance,
        left_out=[*results.unreadable, *results.skipped],
        reproduced=list(reproduced) if published else [],
        charts=charts,
        paths={short: path for p in results.provenance for short, path in p.paths().items()},
    )
