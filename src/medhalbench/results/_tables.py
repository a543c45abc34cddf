"""The papers' results tables, as data: built once, rendered to a terminal, HTML, CSV or Markdown.

Each row is a run (or a published result); figures keep their 95% interval; an undefined
figure is NaN and shows as "–", with the reason in the column's note; a figure the run did
not compute is empty.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from medhalbench._paths import shown_model, shown_path
from medhalbench.results._charts import reliability_bins
from medhalbench.results._published import PublishedRow
from medhalbench.results._record import RunRecord
from medhalbench.results._runs import MARK_NOTES, NO_INTERVAL_MARK, Estimate, RunResult

UNDEFINED = "–"
Cell = str | float | Estimate | None


@dataclass(frozen=True)
class Column:
    """A table column.

    Attributes:
        name: The header.
        figure: The run figure (metric name) its cells show; empty for a column that is not
            a figure.
        digits: Digits shown (0 for counts).
        undefined: Why a value of this column can be undefined (shown with "–").
        wide: Shown in the terminal only with `--wide` (always in reports).
        interval: Show the 95% interval beside each figure (a figure without one is marked
            and the reason said under the table); by default where the column shows a run
            figure. Counts (`digits` 0) have none.
        group: A heading over this column and its neighbours of the same group.
    """

    name: str
    figure: str = ""
    digits: int = 3
    undefined: str = ""
    wide: bool = False
    interval: bool | None = None
    group: str = ""

    @property
    def with_interval(self) -> bool:
        """Whether its figures are shown with their intervals (not a count's)."""
        shown = bool(self.figure) if self.interval is None else self.interval
        return shown and self.digits > 0

    @property
    def heading(self) -> str:
        """The name under its group, on one line (for CSV, Markdown and the terminal)."""
        return f"{self.group}: {self.name}" if self.group else self.name


def figure_names(columns: Sequence[Column]) -> list[str]:
    """The run figures the columns show, in their order (a column without a figure, such as
    a setting's, is skipped)."""
    return [column.figure for column in columns if column.figure]


@dataclass
class ResultTable:
    """A titled table: columns and rows of cells (numbers stay numbers), each row marked
    with the published source when it is a paper's figure, and notes shown under it. The
    columns named in `key` (none named: the first) tell its rows apart: a page too narrow
    for every column shows the others in parts, each beside them."""

    title: str
    slug: str
    columns: list[Column]
    rows: list[list[Cell]] = field(default_factory=list)
    published: list[str | None] = field(default_factory=list)
    row_undefined: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    key: tuple[str, ...] = ()

    def add(self, cells: Sequence[Cell], published: str | None = None, undefined: str = "") -> None:
        """Append a row (`undefined`: why its figures can be undefined, for tables whose
        rows are figures)."""
        self.rows.append(list(cells))
        self.published.append(published)
        self.row_undefined.append(undefined)

    def formatted(self, row: Sequence[Cell], *, intervals: bool = True) -> list[str]:
        """A row's cells as text."""
        return [
            format_cell(v, c.digits, interval=intervals and c.with_interval)
            for c, v in zip(self.columns, row, strict=True)
        ]

    def key_columns(self) -> list[int]:
        """The columns that tell its rows apart (those named in `key`, else the first), as
        each part of a table shown in parts repeats them."""
        return [i for i, c in enumerate(self.columns) if c.name in self.key] or [0]

    def numeric(self, column: int) -> bool:
        """Whether a column holds figures (a number or an estimate in some row)."""
        return any(isinstance(row[column], float | Estimate) for row in self.rows)

    def undefined_notes(self) -> list[str]:
        """Why the "–" cells of this table are undefined: one note per column that has
        them, or per row in a table whose rows are figures (a row's reason is given only
        where one of its cells is undefined for it, not where a mark explains the cell)."""
        by_column: dict[str, dict[str, None]] = {}
        by_row: dict[str, dict[str, None]] = {}
        for row, row_reason in zip(self.rows, self.row_undefined, strict=True):
            for column, cell in zip(self.columns, row, strict=True):
                if not _is_nan(cell) or (isinstance(cell, Estimate) and cell.mark):
                    continue
                if row_reason:
                    reason = (cell.why if isinstance(cell, Estimate) else "") or row_reason
                    by_row.setdefault(str(row[0]), {})[reason] = None
                elif reason := undefined_reason(cell, column):
                    by_column.setdefault(column.name, {})[reason] = None
        notes = [f"{name}: {'; or '.join(reasons)}" for name, reasons in by_column.items()]
        notes += [f"{name}: {'; or '.join(reasons)}" for name, reasons in by_row.items()]
        marks = {c.mark for r in self.rows for c in r if isinstance(c, Estimate) and c.mark}
        return notes + [f"{m} {note}" for m, note in MARK_NOTES.items() if m in marks]

    def interval_notes(self) -> list[str]:
        """Why figures of interval columns are shown without one: each reason once, and the
        published rows (the papers give no intervals)."""
        shown = [i for i, c in enumerate(self.columns) if c.with_interval]
        reasons = {
            cell.no_interval: None
            for row in self.rows
            for cell in (row[i] for i in shown)
            if isinstance(cell, Estimate) and cell.no_interval
        }
        published = shown and any(p is not None for p in self.published)
        return ([f"{NO_INTERVAL_MARK} no interval: {'; or '.join(reasons)}"] if reasons else []) + (
            ["published rows: the papers give no intervals"] if published else []
        )

    def note_lines(self) -> list[str]:
        """The lines under the table: why its "–" cells are undefined (one line), why figures
        have no interval, then its notes."""
        undefined = self.undefined_notes()
        line = [f"{UNDEFINED} undefined: " + "; ".join(undefined) + "."] if undefined else []
        return line + self.interval_notes() + list(self.notes)

    def subset(
        self, columns: Sequence[int] | None = None, rows: Sequence[int] | None = None
    ) -> ResultTable:
        """The table with only some columns and rows (by index; None keeps all)."""
        keep = range(len(self.columns)) if columns is None else columns
        table = ResultTable(
            self.title, self.slug, [self.columns[i] for i in keep], notes=list(self.notes),
            key=self.key,
        )  # fmt: skip
        for r in range(len(self.rows)) if rows is None else rows:
            table.add([self.rows[r][i] for i in keep], self.published[r], self.row_undefined[r])
        return table

    def narrow(self) -> ResultTable:
        """The table without its `wide` columns (the terminal's default view)."""
        return self.subset([i for i, c in enumerate(self.columns) if not c.wide])

    def ours(self) -> ResultTable:
        """The rows of runs (no published row)."""
        return self.subset(rows=[i for i, p in enumerate(self.published) if p is None])

    def published_only(self) -> ResultTable:
        """The published rows, in the columns they fill."""
        rows = [i for i, p in enumerate(self.published) if p is not None]
        filled = [
            i
            for i in range(len(self.columns))
            if any(self.rows[r][i] not in (None, "") for r in rows)
        ]
        return self.subset(filled, rows)


def undefined_reason(cell: Cell, column: Column) -> str:
    """Why a cell is undefined ("" when it is not): its own reason, else its column's."""
    if not _is_nan(cell):
        return ""
    return (cell.why if isinstance(cell, Estimate) else "") or column.undefined


def _is_nan(cell: Cell) -> bool:
    value = cell.value if isinstance(cell, Estimate) else cell
    return isinstance(value, float) and math.isnan(value)


def format_cell(value: Cell, digits: int = 3, *, interval: bool = False) -> str:
    """A cell as text: numbers rounded, undefined as "–", not computed as empty; with
    `interval`, the 95% interval in brackets."""
    if value is None:
        return ""
    if isinstance(value, Estimate):
        text = format_cell(value.value, digits) + (f" {value.mark}" if value.mark else "")
        if interval and value.has_interval and math.isfinite(value.value):
            text += f" [{value.low:.{digits}f}, {value.high:.{digits}f}]"
        elif interval and value.no_interval:
            text += f" {NO_INTERVAL_MARK}"
        return text
    if isinstance(value, float):
        return UNDEFINED if math.isnan(value) else f"{value:.{digits}f}"
    return str(value)


def prompt_files(record: RunRecord) -> str:
    """The prompt files a run replaced the packaged prompts with ("packaged" when none)."""
    return ", ".join(shown_path(f) for f in record.facts.prompt_files if f) or "packaged"


def yes_no(value: object) -> str:
    """A setting as yes / no."""
    return "yes" if value else "no"


def setting_text(value: object) -> str:
    """A task setting as text, as published rows give settings: yes / no for flags, lists
    comma-joined, "none" for None."""
    if isinstance(value, bool):
        return yes_no(value)
    if isinstance(value, list | tuple):
        return ",".join(map(str, value)) or "none"
    return "none" if value is None else str(value)


F1_UNDEFINED = "no positive sample and none predicted"
PRECISION_UNDEFINED = "nothing predicted positive"
RECALL_UNDEFINED = "no positive sample"
EXPLANATION_UNDEFINED = "no pair of non-factual explanations"
AUROC_UNDEFINED = "needs both classes with verdict probabilities (--probabilities)"


def results_table(
    title: str,
    slug: str,
    columns: list[Column],
    runs: Sequence[RunResult],
    cells: Callable[[RunResult], list[list[Cell]]],
    published: Sequence[PublishedRow],
    published_cells: Callable[[PublishedRow], list[Cell]],
) -> ResultTable:
    """A table with a row (or rows) per run from `cells`, then the published rows."""
    table = ResultTable(title, slug, columns)
    for run in runs:
        for row in cells(run):
            table.add(row)
    for reference in published:
        table.add(published_cells(reference), reference.source)
    return table


def published_figure(row: PublishedRow, name: str) -> Estimate | None:
    """A published figure by our metric name (None when the paper does not give it)."""
    return Estimate(row.metrics[name]) if name in row.metrics else None


def calibration_table(runs: Sequence[RunResult], labels: Mapping[str, str]) -> ResultTable | None:
    """The reliability table of the runs that kept verdict probabilities (None if none did),
    each run named by its label (`labels`, by log)."""
    binned = [(run, bins) for run in runs if (bins := reliability_bins(run))]
    if not binned:
        return None
    table = ResultTable(
        "Calibration of verdict probabilities (P(positive) by bin: mean predicted vs observed share)",
        "calibration",
        [
            Column("Run"), Column("Bin"), Column("Mean predicted", undefined="empty bin"),
            Column("Observed", undefined="empty bin"), Column("Count", digits=0),
        ],
    )  # fmt: skip
    for run, bins in binned:
        for one in bins:
            table.add([labels[run.log], one.label, one.predicted, one.observed, float(one.count)])
    return table


# (label, our metric, the paper protocol's metric, why it can be undefined)
FigureRow = tuple[str, str | None, str | None, str]


def run_title(title: str, run: RunResult, details: list[str]) -> str:
    """A run summary's title: benchmark, model, each role's model, dataset, what
    distinguishes the run, prompts."""
    prompts = f"prompts {prompt_files(run.record)}"
    roles = [f"{role} {shown_model(name)}" for role, name in run.roles.items()]
    return f"{title}: {shown_model(run.model)} · " + " · ".join(
        [*roles, run.dataset, *details, prompts]
    )


def sample_counts(run: RunResult) -> str:
    """How many samples a run scored, could not read, read through the extractor, and
    (outputs written elsewhere) could not match to the dataset."""
    extracted = run.metrics.get("read_by_extractor", 0)
    facts = run.record.facts
    unmatched, missing = facts.outputs_not_in_dataset, facts.samples_without_output
    named = ", ".join(facts.samples_without_output_ids)
    more = ", ..." if missing > len(facts.samples_without_output_ids) else ""
    return (
        f"{run.metrics.get('samples', 0):.0f} samples, "
        f"{run.metrics.get('unparseable', 0):.0f} unparseable"
        + (f", {extracted:.0f} read by the extractor" if extracted else "")
        + (f", {unmatched} outputs not in the dataset (left out)" if unmatched else "")
        + (f", {missing:,} of the dataset's samples without an output (left out: {named}{more})"
           if missing else "")
    )  # fmt: skip


def figure_rows(run: RunResult, spec: list[FigureRow], title: str = "") -> ResultTable:
    """A run's headline figures as rows under `title`, ours beside the paper protocol's."""
    table = ResultTable(
        title,
        run.system,
        [Column("Figure"), Column("Ours", interval=True), Column("Paper protocol", interval=True)],
    )
    for label, ours, paper, undefined in spec:
        mine = run.figure(ours) if ours else None
        theirs = run.figure(paper) if paper else None
        if mine is not None or theirs is not None:
            table.add([label, _explained(mine, undefined), _explained(theirs, undefined)],
                      undefined=undefined)  # fmt: skip
    return table


def _explained(figure: Estimate | None, reason: str) -> Estimate | None:
    """A figure carrying why it is undefined (its own reason first; none where a mark
    explains it)."""
    if figure is None or figure.why or figure.mark or not math.isnan(figure.value):
        return figure
    return replace(figure, why=reason)


def token_table(runs: Sequence[RunResult], labels: Mapping[str, str]) -> ResultTable | None:
    """Each run's planned calls and tokens per role beside the tokens its calls used (None
    when no run kept a plan), each run named by its label (`labels`, by log)."""
    planned = [r for r in runs if r.record.facts.token_estimate is not None]
    if not planned:
        return None
    table = ResultTable(
        "Tokens: planned vs used (used: calls made, not answers from the cache)",
        "tokens",
        [
            Column("Run"), Column("Role"), Column("Calls planned", digits=0),
            Column("Input planned", digits=0), Column("Input used", digits=0, undefined="no usage reported"),
            Column("Output at most", digits=0), Column("Output used", digits=0, undefined="no usage reported"),
        ],
    )  # fmt: skip
    table.notes.append(
        "Planned: the calls and input tokens of the run's plan, counted with SmolLM2's "
        "tokenizer (the only one offline: other models' own tokenizers count differently), and "
        "the output at most (the max-token settings). Used: the tokens each provider reported for "
        "the calls made; answers served from inspect's cache are not counted, and a provider "
        "that reports no usage leaves the cell undefined."
    )
    for run in planned:
        name = labels[run.log]
        estimate = run.record.facts.token_estimate
        for role in estimate.roles if estimate else []:
            used = run.usage.get(role.role)
            table.add(
                [
                    name, role.role, float(role.calls), float(role.input_tokens),
                    float(used[0]) if used else math.nan, float(role.output_tokens),
                    float(used[1]) if used else math.nan,
                ]
            )  # fmt: skip
    return table
