"""Rendering result tables in the terminal: numbers are never cut (text columns wrap
instead), undefined figures are "–" with the reason below the table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from inspect_ai.log import EvalLog
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from medhalbench.outputs import stop_reason
from medhalbench.registry import benchmark
from medhalbench.report import column_parts
from medhalbench.results import (
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
    """Print a result table within the terminal's width: text columns wrap first; a table
    still too wide is printed as several, each with the columns that tell its rows apart and
    as many others as fit. No number is ever cut."""
    shown = table if wide else table.narrow()
    parts = fitted(shown, console.width)
    for i, (part, widths) in enumerate(parts, start=1):
        if len(parts) > 1:
            part.title = f"{shown.title} (part {i} of {len(parts)})".lstrip()
        if i < len(parts):
            part.notes = []  # the notes once, under the last part
        console.print(rich_table(part, widths))


MIN_TEXT_WIDTH = 12
"""The narrowest a text column is made to fit a terminal (longer words fold)."""
BORDER = 3
"""Characters a column adds to its content: a border and a space each side."""


def _content_width(
    table: ResultTable, i: int, *, text_width: int = TEXT_WIDTH, whole_header: bool = False
) -> int:
    """The characters column `i`'s content needs: its longest figure whole (numbers never
    wrap), text up to `text_width`, the header whole or its longest word."""
    texts = [table.formatted(row)[i] for row in table.rows]
    longest = max([len(t) for t in texts] + [1])
    heading = table.columns[i].heading
    header = len(heading) if whole_header else max(len(w) for w in heading.split() or [""])
    return max(header, longest if table.numeric(i) else min(longest, text_width))


def _widths(table: ResultTable, width: int) -> list[int]:
    """Content widths of every column: headers whole where the table then fits `width`;
    else text columns narrowed (down to `MIN_TEXT_WIDTH`) as far as needed."""
    roomy = [_content_width(table, i, whole_header=True) for i in range(len(table.columns))]
    if _needs(roomy) <= width:
        return roomy
    widths = [_content_width(table, i) for i in range(len(table.columns))]
    for text_width in range(TEXT_WIDTH - 1, MIN_TEXT_WIDTH - 1, -1):
        if _needs(widths) <= width:
            break
        widths = [_content_width(table, i, text_width=text_width) for i in range(len(widths))]
    return widths


def _needs(widths: list[int]) -> int:
    return sum(widths) + BORDER * len(widths) + 1


def fitted(table: ResultTable, width: int) -> list[tuple[ResultTable, list[int]]]:
    """The table as parts that each fit `width` characters, with each column's content
    width: one part where narrower text columns make it fit; else the columns that tell its
    rows apart (`ResultTable.key_columns`) repeated beside as many others as fit, in order
    (text narrowed within a part only as needed)."""
    narrowed = _widths(table, width)
    key = table.key_columns()
    if _needs(narrowed) <= width or len(narrowed) < len(key) + 2:
        return [(table, narrowed)]
    full = [_content_width(table, i, text_width=MIN_TEXT_WIDTH if i in key else TEXT_WIDTH)
            for i in range(len(table.columns))]  # fmt: skip
    # The page's rule, in characters: each column its content and border, the table's edge.
    parts = column_parts([w + BORDER for w in full], key, page=width - 1)
    return [(part, _widths(part, width)) for part in map(table.subset, parts)]


def rich_table(table: ResultTable, widths: list[int] | None = None) -> Group:
    """A rich table for a result table (each column at its given content width, if any),
    with its title above and the reasons for its undefined cells and its notes below."""
    texts = [table.formatted(row) for row in table.rows]
    rendered = Table(expand=False)
    for i, column in enumerate(table.columns):
        numeric = table.numeric(i)
        rendered.add_column(
            column.heading,
            justify="right" if numeric else "left",
            overflow="fold",
            # A fixed width: numbers keep theirs whole, text and headers wrap within theirs.
            width=widths[i] if widths else None,
            no_wrap=numeric and not widths,
            min_width=None if widths else max([len(t[i]) for t in texts] + [1]),
        )
    for row_texts, source in zip(texts, table.published, strict=True):
        rendered.add_row(*row_texts, style="italic dim" if source else None)
    parts: list[Table | Text] = [Text(table.title, style="bold")] if table.title else []
    parts.append(rendered)
    parts += [Text(note, style="dim") for note in table.note_lines()]
    return Group(*parts)


def print_runs(console: Console, runs: Sequence[RunResult]) -> None:
    """One narrow table per run (its figures, ours beside the paper protocol's)."""
    for run in runs:
        print_table(console, benchmark(run.system).implementation.summary(run))


def show_results(
    console: Console, logs: Sequence[EvalLog], *, wide: bool = False, published: bool = False
) -> list[RunResult]:
    """Print the finished runs of `logs`: one narrow table per run, or (`wide`) each
    benchmark's full tables, with the papers' published rows when `published` (in tables
    of their own, each row named by its model and condition)."""
    finished = [log for log in logs if log.status == "success"]
    runs = [run_result(log) for log in finished]
    if not wide:
        print_runs(console, runs)
    else:
        for name in dict.fromkeys(r.system for r in runs):
            entry = benchmark(name)
            of_benchmark = [r for r in runs if r.system == name]
            for table in entry.implementation.tables(
                of_benchmark, entry.implementation.published() if published else []
            ):
                print_table(console, table.ours())
                if any(source is not None for source in table.published):
                    # The papers' rows apart, in the columns they fill (no intervals).
                    theirs = table.published_only()
                    theirs.title = f"{table.title}: the papers' published figures"
                    print_table(console, theirs)
    for log in finished:
        if note := ended_early(log):
            console.print(Text(note, style="yellow"))
    return runs


def ended_early(log: EvalLog) -> str | None:
    """A line on the replies of the model under test that ended before the model finished
    them (they are read as they are, and counted unreadable where they hold no verdict);
    None when every reply ended normally or the log holds no samples."""
    samples = log.samples or []
    reasons = Counter(reason for s in samples if (reason := stop_reason(s.output)) in ENDED_EARLY)
    if not reasons:
        return None
    how = "; ".join(f"{n} {ENDED_EARLY[reason]}" for reason, n in reasons.most_common())
    return (
        f"{log.eval.model} ({benchmark_name(log.eval.task)}): {reasons.total()} of "
        f"{len(samples)} replies ended early: {how}"
    )
