"""The report's summary: per benchmark, one headline figure for each run (rows: the model,
how its replies were made, its judges) in each condition (columns: what the benchmark asked,
on which samples). Runs on outputs written elsewhere share the column of the model runs of
their condition. The paper protocol's figure, beside the range the papers published in the
same condition, is a table of the same shape (folded in the page).

A benchmark with many conditions is summarised in parts of at most `MAX_CONDITIONS`
columns, so that the summary fits a 1280-pixel window and an 80-column terminal."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass, replace

from medhalbench._paths import shown_model, shown_path
from medhalbench.registry import Benchmark, benchmarks
from medhalbench.report._published import in_setting, on_paper_data
from medhalbench.report._settings import (
    RunSettings,
    differing,
    judges_text,
    phrase,
    reply_settings,
    settings_of,
    varying,
    varying_judges,
)
from medhalbench.results import Cell, Column, Estimate, ResultTable, RunResult

MAX_CONDITIONS = 5
"""Condition columns per summary table (more are split into parts, the run column repeated)."""
WRITTEN_ELSEWHERE = "outputs written elsewhere"
"""How a run on outputs written elsewhere (`--responses`) says how its replies were made."""


@dataclass(frozen=True)
class Placed:
    """A run's place in its benchmark's summary.

    Attributes:
        run: The run.
        row: Its row: the model, how its replies were made, its judges where they differ.
        column: Its condition (what differs between the benchmark's conditions; "" when
            every run has the same).
        order: Its column's place among the conditions (no before yes, 0.2 before 0.8).
    """

    run: RunResult
    row: str
    column: str
    order: int = 0


def _samples(runs: Sequence[RunResult], settings: Sequence[RunSettings]) -> list[dict[str, str]]:
    """Each run's samples as the summary names them: the data by its file (with its
    fingerprint where two different data share a file name), the settings that selected
    them and the number scored. Runs that scored the same samples are named alike (a setting
    that differs between them selected nothing different: a seed that only orders, a filter
    that a file of outputs met anyway), and runs named alike that scored different samples
    are told apart by their samples' digest."""
    named = []
    for run, s in zip(runs, settings, strict=True):
        dataset = shown_path(str(run.record.data.dataset))
        named.append(
            {
                "data": dataset,
                **{k: v for k, v in s.selection.items() if k != "dataset_fingerprint"},
            }
        )
    identities = [tuple(sorted(s.samples.items())) for s in settings]
    alike: dict[tuple[tuple[str, str], ...], list[int]] = {}
    for i, identity in enumerate(identities):
        alike.setdefault(identity, []).append(i)
    for members in alike.values():
        keys = {k for i in members for k in named[i] if k != "data"}
        for key in [k for k in keys if len({named[i].get(k) for i in members}) > 1]:
            for i in members:
                named[i].pop(key, None)
    fingerprints: dict[str, set[str]] = {}
    for n, s in zip(named, settings, strict=True):
        fingerprints.setdefault(n["data"], set()).add(s.selection.get("dataset_fingerprint", ""))
    for n, s in zip(named, settings, strict=True):
        if len(fingerprints[n["data"]]) > 1:
            n["data"] += f" ({s.selection.get('dataset_fingerprint', '')})"
    by_name: dict[tuple[tuple[str, str], ...], set[tuple[tuple[str, str], ...]]] = {}
    for n, identity in zip(named, identities, strict=True):
        by_name.setdefault(tuple(n.items()), set()).add(identity)
    for n, s in zip(named, settings, strict=True):
        if len(by_name[tuple(n.items())]) > 1 and "sample_ids" in s.samples:
            n["samples"] = f"{n.get('samples', '')} ({s.samples['sample_ids']})".strip()
    return named


def place(entry: Benchmark, runs: Sequence[RunResult]) -> list[Placed]:
    """Each run's row and column in its benchmark's summary (identical runs numbered)."""
    settings = [settings_of(r) for r in runs]
    columns = varying(
        [{**n, **s.condition} for n, s in zip(_samples(runs, settings), settings, strict=True)]
    )
    replies = varying([s.replies for s in settings])
    judges = varying_judges([s.judges for s in settings])
    rows = []
    for run, setting, reply, judge in zip(runs, settings, replies, judges, strict=True):
        how = " · ".join(reply) if setting.written_elsewhere is None else WRITTEN_ELSEWHERE
        parts = [shown_model(run.model), how, f"judged by {judge}" if judge else ""]
        rows.append(" · ".join(p for p in parts if p))
    keys = [" · ".join(c) for c in columns]
    # Conditions in the order of their values (no before yes, 0.2 before 0.8).
    ordered = sorted(dict.fromkeys(keys), key=lambda k: _condition_order(columns[keys.index(k)]))
    rank = {k: i for i, k in enumerate(ordered)}
    # A run identical to an earlier one in the same column: numbered, not merged.
    rows = _numbered(rows, list(zip(rows, keys, strict=True)))
    return [
        Placed(run, row, key, rank[key]) for run, row, key in zip(runs, rows, keys, strict=True)
    ]


def _numbered(texts: Sequence[str], identities: Sequence[Hashable]) -> list[str]:
    """Each text, numbered ("... (run 2)") where its identity recurs: no two read the same."""
    repeated, seen = Counter(identities), Counter[Hashable]()
    found = []
    for text, identity in zip(texts, identities, strict=True):
        seen[identity] += 1
        found.append(f"{text} (run {seen[identity]})" if repeated[identity] > 1 else text)
    return found


def _condition_order(phrases: Sequence[str]) -> list[tuple[int, float, str]]:
    """A condition's sort key: each phrase's value, numbers by size, no before yes."""
    key = []
    for text in phrases:
        value = text.rsplit(" ", 1)[-1]
        try:
            key.append((0, float(value), ""))
        except ValueError:
            key.append((1, {"no": 0.0, "yes": 1.0}.get(value, 2.0), value))
    return key


def _headline(entry: Benchmark, run: RunResult, paper: bool) -> Estimate | None:
    """The key figure (ours, or the paper protocol's) as the run's own table gives it: with
    why it is undefined."""
    key = entry.key_figure
    for row in entry.implementation.summary(run).rows:
        label = str(row[0])
        if label == key.label or label.endswith(f" {key.label}"):
            cell = row[2 if paper else 1]
            return cell if isinstance(cell, Estimate) else None
    return run.figure(key.paper if paper else key.ours)


def _common(entry: Benchmark, runs: Sequence[RunResult]) -> list[str]:
    """The conditions every run shares, as the benchmark words them (its settings of how
    replies were made left out)."""
    generated = {name.replace("_", " ") for name in reply_settings(entry.name)}
    described = [
        [
            p
            for p in entry.implementation.describe(r.record)
            if not any(p.startswith(g) for g in generated)
        ]
        for r in runs
    ]
    return [p for p in described[0] if all(p in d for d in described)]


def _notes(entry: Benchmark, runs: Sequence[RunResult]) -> list[str]:
    notes = []
    if common := _common(entry, runs):
        notes.append(f"Every run: {' · '.join(common)}.")
    judges = [settings_of(r).judges for r in runs]
    shared = {k: v for k, v in judges[0].items() if all(j.get(k) == v for j in judges)}
    if shared:
        notes.append(f"Judged by {judges_text(shared)} in every run.")
    if old := [shown_model(r.model) for r in runs if r.record.facts.paper_reads is None]:
        notes.append(
            f"The paper-protocol figures of {', '.join(old)} read each reply as inspect "
            "parsed it, a reasoning block put back in front (a log from before the text as "
            "sent was kept); a run made now reads the text as sent."
        )
    return notes


def _table(
    entry: Benchmark, placed: Sequence[Placed], *, paper: bool, part: str, slug: str
) -> ResultTable:
    """A table of each placed run's key figure (ours, or the paper protocol's) in its row and
    its column (`part`: which part of the summary it is, if it has several)."""
    label = f"{entry.title} {entry.key_figure.label}"
    columns = list(dict.fromkeys(p.column for p in placed))
    table = ResultTable(
        f"{label}{', paper protocol' if paper else ''}{part}",
        f"{slug}_paper" if paper else slug,
        [Column("Run"), *(Column(c or label, interval=True) for c in columns)],
    )
    rows: dict[str, list[Cell]] = {p.row: [p.row] + [None] * len(columns) for p in placed}
    for p in placed:
        rows[p.row][1 + columns.index(p.column)] = _headline(entry, p.run, paper)
    for row in rows.values():
        table.add(row)
    return table


def _published_rows(
    entry: Benchmark, placed: Sequence[Placed], columns: list[str]
) -> tuple[list[Cell], list[Cell], list[int]]:
    """The lowest and highest published figure (paper protocol) in each column's condition,
    and how many models the paper gives there: none beside a column with a run on other
    data than the paper's."""
    key = entry.key_figure.paper
    lowest: list[Cell] = ["Published: lowest of the paper's models"]
    highest: list[Cell] = ["Published: highest of the paper's models"]
    counts = []
    published = entry.implementation.published()
    for column in columns:
        runs = [p.run for p in placed if p.column == column]
        comparable = all(map(on_paper_data, runs))
        figures = [
            r.metrics[key]
            for r in published
            if comparable and key in r.metrics and in_setting(r, runs[0])
        ]
        lowest.append(Estimate(min(figures)) if figures else None)
        highest.append(Estimate(max(figures)) if figures else None)
        counts.append(len(figures))
    return lowest, highest, counts


@dataclass(frozen=True)
class BenchmarkSummary:
    """A benchmark's part of the summary.

    Attributes:
        entry: The benchmark.
        ours: Its key figure per run and condition, in parts of at most `MAX_CONDITIONS`
            conditions.
        paper: The paper protocol's figure in the same shape, with the range the papers
            published in each condition.
    """

    entry: Benchmark
    ours: list[ResultTable]
    paper: list[ResultTable]

    def tables(self) -> list[ResultTable]:
        """Each part's table of ours, then of the paper protocol's."""
        return [t for pair in zip(self.ours, self.paper, strict=True) for t in pair]


def benchmark_summary(
    entry: Benchmark, runs: Sequence[RunResult], *, published: bool = True
) -> BenchmarkSummary:
    """A benchmark's summary (see `BenchmarkSummary`)."""
    placed = sorted(place(entry, runs), key=lambda p: p.order)
    columns = list(dict.fromkeys(p.column for p in placed))
    parts = math.ceil(len(columns) / MAX_CONDITIONS)
    summary = BenchmarkSummary(entry, [], [])
    for part, start in enumerate(range(0, len(columns), MAX_CONDITIONS), start=1):
        shown = columns[start : start + MAX_CONDITIONS]
        of_part = [p for p in placed if p.column in shown]
        suffix = f" (part {part} of {parts})" if parts > 1 else ""
        slug = f"summary_{entry.name}" + (f"_{part}" if parts > 1 else "")
        ours = _table(entry, of_part, paper=False, part=suffix, slug=slug)
        ours.notes = _notes(entry, runs)
        paper = _table(entry, of_part, paper=True, part=suffix, slug=slug)
        if published:
            lowest, highest, counts = _published_rows(entry, of_part, shown)
            if any(counts):
                source = f"{entry.title} paper ({', '.join(map(str, counts))} models)"
                paper.add(lowest, published=source)
                paper.add(highest, published=source)
        summary.ours.append(ours)
        summary.paper.append(paper)
    return summary


def summary_tables(runs: Sequence[RunResult], *, published: bool = True) -> list[BenchmarkSummary]:
    """The summary of every benchmark that has runs, in the registry's order."""
    return [
        benchmark_summary(entry, of_benchmark, published=published)
        for entry in benchmarks()
        if (of_benchmark := [r for r in runs if r.system == entry.name])
    ]


def run_names(runs: Sequence[RunResult], *, title: bool = True) -> list[str]:
    """Names of runs shown together, in their order: (the benchmark,) the run's row and
    column in the summary (model, how its replies were made, judges, condition)."""
    names: dict[int, str] = {}
    for entry in benchmarks():
        of_benchmark = [(i, r) for i, r in enumerate(runs) if r.system == entry.name]
        placed = place(entry, [r for _, r in of_benchmark]) if of_benchmark else []
        for (i, _), p in zip(of_benchmark, placed, strict=True):
            names[i] = " · ".join(filter(None, [entry.title if title else "", p.row, p.column]))
    return [names[i] for i in range(len(runs))]


DISTINCTIONS_NOTE = (
    "Settings: what sets a run apart from the others in this table (the summary's words; "
    "identical runs numbered)."
)
"""The note under a table with a column of `distinctions`."""
SETTINGS = "Settings"
"""The heading of a table's column of `distinctions`."""


def mark_distinctions(table: ResultTable, texts: Sequence[str]) -> None:
    """Explain a table's Settings column (`distinctions`) under it, or, where no run
    differs from another, keep the empty column to the wide view."""
    at = [c.name for c in table.columns].index(SETTINGS)
    if any(texts):
        table.notes.append(DISTINCTIONS_NOTE)
    else:
        columns = list(table.columns)  # a copy: a benchmark's columns are shared by its tables
        columns[at] = replace(columns[at], wide=True)
        table.columns = columns


def distinctions(
    runs: Sequence[RunResult], *, shown: Collection[str] = (), number: bool = True
) -> list[str]:
    """What sets each of one benchmark's runs apart from the others shown with it, in the
    summary's words: the settings of its samples, its condition and its replies that are
    not the same in every run, its judges where they differ, and whether its outputs were
    written elsewhere ("" for a run like every other).

    Args:
        runs: Runs of one benchmark, as a table shows them.
        shown: Settings the table has a column of: left out of the text.
        number: Number runs alike in every setting, model and judge ("(run 2)"), so that
            no two rows read the same.

    Returns:
        Each run's text, in the order given.
    """
    settings = [settings_of(r) for r in runs]
    items = [
        {**named, **s.condition, **s.replies}
        for named, s in zip(_samples(runs, settings), settings, strict=True)
    ]
    differ = differing(items)
    judges = varying_judges([s.judges for s in settings])
    mixed = len({s.written_elsewhere is None for s in settings}) > 1
    texts = []
    for listed, s, judged_by in zip(items, settings, judges, strict=True):
        parts = [phrase(n, listed[n]) for n in differ if n in listed and n not in shown]
        parts += [WRITTEN_ELSEWHERE] if mixed and s.written_elsewhere else []
        parts += [f"judged by {judged_by}"] if judged_by else []
        texts.append(" · ".join(parts))
    if not number:
        return texts
    identities = [
        (run.model, tuple(listed.items()), tuple(s.judges.items()), s.written_elsewhere)
        for run, listed, s in zip(runs, items, settings, strict=True)
    ]
    return [text.strip() for text in _numbered(texts, identities)]
