"""Rendering result tables in the terminal: numbers are never cut (text columns wrap
instead), undefined figures are "–" with the reason below the table."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.log import EvalLog
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from medhalbench.registry import benchmark
from medhalbench.results import UNDEFINED, Estimate, ResultTable, RunResult, run_result

TEXT_WIDTH = 24


def print_table(console: Console, table: ResultTable, *, wide: bool = True) -> None:
    """Print a result table at the width it needs (a wide table is not squeezed into the
    terminal: its lines run on, so that no number is cut)."""
    renderable, needed = rich_table(table, wide=wide)
    width = console.width
    console.width = max(width, needed)  # print() alone cannot exceed the console's width
    try:
        console.print(renderable)
    finally:
        console.width = width


def rich_table(table: ResultTable, *, wide: bool = True) -> tuple[Group, int]:
    """A rich table for a result table, with its title above and the reasons for its
    undefined cells below (`wide=False` leaves out the columns marked wide), and the width
    it needs to show every number and header whole."""
    shown = table if wide else table.narrow()
    texts = [shown.formatted(row) for row in shown.rows]
    rendered = Table(expand=False)
    needed = 1
    for i, column in enumerate(shown.columns):
        numeric = any(isinstance(row[i], float | Estimate) for row in shown.rows)
        longest = max([len(t[i]) for t in texts] + [1])
        rendered.add_column(
            column.name,
            justify="right" if numeric else "left",
            no_wrap=numeric,
            overflow="fold",
            # Numbers keep their full width; names wrap past a readable width.
            min_width=longest if numeric else min(longest, TEXT_WIDTH),
        )
        needed += max(len(column.name), longest if numeric else min(longest, TEXT_WIDTH)) + 3
    for row_texts, source in zip(texts, shown.published, strict=True):
        rendered.add_row(*row_texts, style="italic dim" if source else None)
    notes = shown.undefined_notes()
    parts: list[Table | Text] = [Text(shown.title, style="bold")] if shown.title else []
    parts.append(rendered)
    if notes:
        parts.append(Text(f"{UNDEFINED} undefined: " + "; ".join(notes) + ".", style="dim"))
    return Group(*parts), needed


def print_runs(console: Console, runs: Sequence[RunResult]) -> None:
    """One narrow table per run (its figures, ours beside the paper protocol's), and where
    its log is."""
    for run in runs:
        print_table(console, benchmark(run.system).summary(run))
        console.print(f"[dim]Log: {run.log}[/dim]")


def show_results(
    console: Console, logs: Sequence[EvalLog], *, wide: bool = False, published: bool = False
) -> list[RunResult]:
    """Print the finished runs of `logs`: one narrow table per run, or (`wide`) each
    benchmark's full tables, with the papers' published rows when `published`."""
    runs = [run_result(log) for log in logs if log.status == "success"]
    if not wide:
        print_runs(console, runs)
        return runs
    for name in dict.fromkeys(r.system for r in runs):
        entry = benchmark(name)
        of_benchmark = [r for r in runs if r.system == name]
        for table in entry.tables(of_benchmark, entry.published() if published else []):
            print_table(console, table)
    return runs
