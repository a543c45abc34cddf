"""Rendering result tables in the terminal: numbers are never cut (text columns wrap
instead), undefined figures are "–" with the reason below the table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from inspect_ai.log import EvalLog
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from medhalbench.registry import benchmark
from medhalbench.results import (
    UNDEFINED,
    Estimate,
    ResultTable,
    RunResult,
    benchmark_name,
    run_result,
)

TEXT_WIDTH = 24

ENDED_EARLY = {
    "max_tokens": "cut at the token limit (raise max_tokens; a reasoning model can spend it all thinking)",
    "model_length": "over the model's context length (the prompt does not fit)",
    "content_filter": "stopped by the provider's content filter",
}
"""Stop reasons of a reply that ended before the model finished it, and what they mean."""


def print_table(console: Console, table: ResultTable, *, wide: bool = True) -> None:
    """Print a result table within the terminal's width: a table too wide for it is printed
    as several, each with the first column and as many others as fit (no number is cut)."""
    shown = table if wide else table.narrow()
    parts = fitted(shown, console.width)
    for i, part in enumerate(parts, start=1):
        if len(parts) > 1:
            part.title = f"{shown.title} (part {i} of {len(parts)})".lstrip()
        if i < len(parts):
            part.notes = []  # the notes once, under the last part
        console.print(rich_table(part))


def _width(table: ResultTable, i: int) -> int:
    """The characters column `i` needs: its longest figure whole, text up to a readable
    width, the header's longest word; plus the borders and padding."""
    column = table.columns[i]
    texts = [table.formatted(row)[i] for row in table.rows]
    numeric = any(isinstance(row[i], float | Estimate) for row in table.rows)
    longest = max([len(t) for t in texts] + [1])
    header = max(len(word) for word in column.heading.split() or [""])
    return max(header, longest if numeric else min(longest, TEXT_WIDTH)) + 3


def fitted(table: ResultTable, width: int) -> list[ResultTable]:
    """The table as parts that each fit `width` characters: the first column repeated, the
    others in order (one table when it fits)."""
    widths = [_width(table, i) for i in range(len(table.columns))]
    if sum(widths) + 1 <= width or len(widths) < 3:
        return [table]
    groups: list[list[int]] = [[]]
    used = widths[0] + 1
    for i in range(1, len(widths)):
        if groups[-1] and used + widths[i] > width:
            groups.append([])
            used = widths[0] + 1
        groups[-1].append(i)
        used += widths[i]
    return [table.subset([0, *group]) for group in groups]


def rich_table(table: ResultTable) -> Group:
    """A rich table for a result table, with its title above and the reasons for its
    undefined cells and its notes below."""
    texts = [table.formatted(row) for row in table.rows]
    rendered = Table(expand=False)
    for i, column in enumerate(table.columns):
        numeric = any(isinstance(row[i], float | Estimate) for row in table.rows)
        longest = max([len(t[i]) for t in texts] + [1])
        rendered.add_column(
            column.heading,
            justify="right" if numeric else "left",
            no_wrap=numeric,
            overflow="fold",
            # Numbers keep their full width; names wrap past a readable width.
            min_width=longest if numeric else min(longest, TEXT_WIDTH),
        )
    for row_texts, source in zip(texts, table.published, strict=True):
        rendered.add_row(*row_texts, style="italic dim" if source else None)
    notes = table.undefined_notes()
    parts: list[Table | Text] = [Text(table.title, style="bold")] if table.title else []
    parts.append(rendered)
    if notes:
        parts.append(Text(f"{UNDEFINED} undefined: " + "; ".join(notes) + ".", style="dim"))
    parts += [Text(note, style="dim") for note in table.notes]
    return Group(*parts)


def print_runs(console: Console, runs: Sequence[RunResult]) -> None:
    """One narrow table per run (its figures, ours beside the paper protocol's)."""
    for run in runs:
        print_table(console, benchmark(run.system).summary(run))


def show_results(
    console: Console, logs: Sequence[EvalLog], *, wide: bool = False, published: bool = False
) -> list[RunResult]:
    """Print the finished runs of `logs`: one narrow table per run, or (`wide`) each
    benchmark's full tables, with the papers' published rows when `published`."""
    finished = [log for log in logs if log.status == "success"]
    runs = [run_result(log) for log in finished]
    if not wide:
        print_runs(console, runs)
    else:
        for name in dict.fromkeys(r.system for r in runs):
            entry = benchmark(name)
            of_benchmark = [r for r in runs if r.system == name]
            for table in entry.tables(of_benchmark, entry.published() if published else []):
                print_table(console, table)
    for log in finished:
        if note := ended_early(log):
            console.print(Text(note, style="yellow"))
    return runs


def ended_early(log: EvalLog) -> str | None:
    """A line on the replies of the model under test that ended before the model finished
    them (they are read as they are, and counted unreadable where they hold no verdict);
    None when every reply ended normally or the log holds no samples."""
    samples = log.samples or []
    reasons = Counter(s.output.stop_reason for s in samples if s.output.stop_reason in ENDED_EARLY)
    if not reasons:
        return None
    how = "; ".join(f"{n} {ENDED_EARLY[reason]}" for reason, n in reasons.most_common())
    return (
        f"{log.eval.model} ({benchmark_name(log.eval.task)}): {reasons.total()} of "
        f"{len(samples)} replies ended early: {how}"
    )
