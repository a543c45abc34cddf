"""DAHL's tables and charts: the results table, scores by category and temperature, a run's summary."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from medhalbench import results
from medhalbench.dahl._metrics import EXCLUSIONS
from medhalbench.dahl._settings import DahlSettings
from medhalbench.registry import benchmark
from medhalbench.report import OwnColumns, distinctions, published_of, run_names, runs_table
from medhalbench.results import (
    Column,
    bar_of,
    figure_names,
    figure_rows,
    format_cell,
    horizontal_bars,
    line_chart,
    published_figure,
    run_title,
    yes_no,
)

DAHL_COLUMNS = [
    Column("Temperature", digits=2),
    Column("Epochs", digits=0, wide=True),
    Column("Structured", wide=True),
    Column("DAHL score", "dahl_score", undefined="no scored response"),
    Column("Paper DAHL score", "paper_dahl_score", undefined="no response"),
    Column("Scored", "scored", digits=0),
    Column("Excluded", "excluded", digits=0),
    Column("Declined", "excluded_declined", digits=0, wide=True),
    Column("Unknown unit", "excluded_unknown_unit", digits=0, wide=True),
    Column("No units", "excluded_no_units", digits=0, wide=True),
    Column("Mismatch", "excluded_mismatch", digits=0, wide=True),
    Column("Mean units", "mean_units", digits=1, undefined="no scored response"),
    Column("Mean length", "mean_length", digits=0, undefined="no scored response", wide=True),
]
"""DAHL's own columns of its results table (between the run's and its log)."""
_DAHL_FIGURES = figure_names(DAHL_COLUMNS)


def dahl_table(
    runs: Sequence[results.RunResult], published: Sequence[results.PublishedRow] = ()
) -> results.ResultTable:
    """DAHL's results table: one row per run (what sets it apart from the others under
    Settings: a grounded checker's evidence, the data, ...); score (ours and the authors'
    rule), exclusions, units, length."""

    def cells(run: results.RunResult) -> list[list[results.Cell]]:
        s = run.record.settings_as(DahlSettings)
        return [
            [
                temperature_of(run.record), float(s.epochs), yes_no(s.structured),
                *(run.figure(name) for name in _DAHL_FIGURES),
            ]
        ]  # fmt: skip

    def published_cells(row: results.PublishedRow) -> list[results.Cell]:
        return [None, None, "no", *(published_figure(row, n) for n in _DAHL_FIGURES)]

    return runs_table(
        "DAHL (mean factual precision of atomic units; Paper = responses without units kept as 0)",
        "dahl", OwnColumns(DAHL_COLUMNS, cells, published_cells, "DAHL 10%"), runs, published,
        shown=("temperature",),
    )  # fmt: skip


def dahl_settings(record: results.RunRecord) -> list[str]:
    """What distinguishes a DAHL run: how its answers were made, structured verdicts, and
    the evidence its checker was given (none: closed-book)."""
    settings = record.settings_as(DahlSettings)
    evidence = settings.evidence_phrase(record.retrieval)
    return [
        *generation(record),
        f"structured {yes_no(settings.structured)}",
        *([f"evidence {evidence}"] if evidence else []),
    ]


def _score_table(title: str, slug: str, first: str, headings: Sequence[str]) -> results.ResultTable:
    """A table of DAHL scores: a first column naming each row, then a column per heading."""
    columns = [Column(h, undefined="no scored response", interval=True) for h in headings]
    return results.ResultTable(title, slug, [Column(first), *columns])


def dahl_category_table(runs: Sequence[results.RunResult]) -> results.ResultTable:
    """DAHL score per category (rows) and run (columns)."""

    names = run_names(runs, title=False)
    table = _score_table("DAHL score by category", "dahl_categories", "Category", names)
    for category in sorted({c for r in runs for c in r.prefixed("category")}):
        table.add([category, *(r.figure(f"category/{category}") for r in runs)])
    return table


def _generated(runs: Sequence[results.RunResult]) -> list[results.RunResult]:
    """The runs whose answers were generated (at a temperature)."""
    return [r for r in runs if not math.isnan(temperature_of(r.record))]


def temperature_series(
    runs: Sequence[results.RunResult],
) -> dict[str, dict[float, results.RunResult]]:
    """The runs of a temperature sweep as series: one per model and whatever else differs
    between the runs (the data, a grounded checker's evidence, judges, ...), each holding
    its runs by answering temperature. No run is dropped: runs alike at one temperature
    (reruns) go to series of their own, numbered ("(run 2)"); runs on answers written
    elsewhere have no temperature and are in no series."""

    generated = _generated(runs)
    texts = distinctions(generated, shown=("temperature",), number=False)
    grouped: dict[str, list[results.RunResult]] = {}
    for run, text in zip(generated, texts, strict=True):
        grouped.setdefault(" · ".join(filter(None, [run.model, text])), []).append(run)
    series: dict[str, dict[float, results.RunResult]] = {}
    for name, members in grouped.items():
        reruns = max(Counter(temperature_of(r.record) for r in members).values())
        seen = Counter[float]()
        for run in members:
            temperature = temperature_of(run.record)
            seen[temperature] += 1
            label = f"{name} (run {seen[temperature]})" if reruns > 1 else name
            series.setdefault(label, {})[temperature] = run
    return series


def dahl_sweep_table(runs: Sequence[results.RunResult]) -> results.ResultTable:
    """DAHL score by answering temperature (columns), a row per series of runs (see
    `temperature_series`: a model on one dataset, ...), every run in one cell."""
    series = temperature_series(runs)
    temperatures = sorted({t for points in series.values() for t in points})
    headings = [f"temperature {t:g}" for t in temperatures]
    table = _score_table("DAHL score by temperature", "dahl_temperatures", "Run", headings)
    for name, points in series.items():
        table.add(
            [name, *(points[t].figure("dahl_score") if t in points else None for t in temperatures)]
        )
    if len(_generated(runs)) < len(runs):
        table.notes.append(
            "Runs on answers written elsewhere have no answering temperature and are not here."
        )
    return table


def _swept(runs: Sequence[results.RunResult]) -> bool:
    """Whether the generated runs differ in answering temperature."""
    return len({temperature_of(r.record) for r in _generated(runs)}) > 1


_DAHL_ROWS: list[results.FigureRow] = [
    ("DAHL score", "dahl_score", "paper_dahl_score", "no scored response"),
    ("DAHL score without the extractor", "strict_dahl_score", None, "no scored response"),
]


def generation(record: results.RunRecord) -> list[str]:
    """How the answers were made: generated at a temperature, or written elsewhere (the
    model, system/NAME, and the file name the title gives already say so: nothing)."""
    if not record.generated:
        return []
    epochs = record.settings_as(DahlSettings).epochs
    return [f"temperature {temperature_of(record):g}", f"epochs {epochs}"]


def temperature_of(record: results.RunRecord) -> float:
    """The answering temperature sent (NaN for answers written elsewhere: nothing was
    generated)."""
    sent = record.sent.temperature
    return math.nan if sent is None else float(sent)


def dahl_summary(run: results.RunResult) -> results.ResultTable:
    """A DAHL run's headline figures as a narrow table titled with what distinguishes the run."""
    unknown = run.record.facts.questions_not_in_dataset
    excluded = ", ".join(
        f"{kind.replace('_', ' ')} {run.metrics[f'excluded_{kind}']:.0f}"
        for kind in EXCLUSIONS
        if run.metrics.get(f"excluded_{kind}")
    )
    title = run_title(
        "DAHL",
        run,
        [
            *dahl_settings(run.record),
            f"{run.metrics.get('scored', 0):.0f} of {run.metrics.get('responses', 0):.0f} responses scored"
            + (f" (excluded: {excluded})" if excluded else ""),
            f"{format_cell(run.metrics.get('mean_units', math.nan), 1)} units and "
            f"{format_cell(run.metrics.get('mean_length', math.nan), 0)} characters per scored response",
            *(
                [f"{run.metrics['read_by_extractor']:.0f} units read by the extractor"]
                if run.metrics.get("read_by_extractor")
                else []
            ),
            *(
                [f"paper: {run.metrics['paper_good']:.0f} good responses"]
                if "paper_good" in run.metrics
                else []
            ),
            *(
                [f"{unknown} answers to questions not in the dataset (uncategorised)"]
                if unknown
                else []
            ),
        ],
    )
    return figure_rows(run, _DAHL_ROWS, title)


def dahl_tables(
    runs: Sequence[results.RunResult], published: Sequence[results.PublishedRow] = ()
) -> list[results.ResultTable]:
    """DAHL's tables in report order (the temperature table when runs differ in it)."""
    found = [dahl_table(runs, published), dahl_category_table(runs)]
    if _swept(runs):
        found.append(dahl_sweep_table(runs))
    return found


def dahl_charts(runs: Sequence[results.RunResult]) -> list[str]:
    """Scores by category per run, and by answering temperature when runs differ in it: each
    with its 95% interval and the responses it is over, the paper protocol's score where
    computed, and the paper's published score of the same model."""

    published = benchmark(runs[0].system).implementation.published() if runs else []
    svgs = []
    for name, r in zip(run_names(runs, title=False), runs, strict=True):
        categories = r.prefixed("category")
        if categories:
            svgs.append(
                horizontal_bars(
                    f"DAHL score by category: {name}",
                    categories,
                    [bar_of(r, f"category/{c}", n=f"category/{c}/scored") for c in categories],
                    unit="scored responses",
                )
            )
    if _swept(runs):
        # One curve per series (a model on one dataset, ...), its points the temperatures.
        curves: dict[str, list[tuple[float, results.Bar]]] = {}
        for curve, points in temperature_series(runs).items():
            for temperature, r in points.items():
                row = published_of(published, r)
                point = bar_of(r, "dahl_score", n="scored", paper="paper_dahl_score", row=row)
                curves.setdefault(curve, []).append((temperature, point))
        svgs.append(
            line_chart(
                "DAHL score by answering temperature",
                curves,
                x_label="temperature",
                unit="scored responses",
            )  # fmt: skip
        )
    return svgs
