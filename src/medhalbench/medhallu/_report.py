"""MedHallu's tables and charts: the results table, a run's summary, F1 by difficulty."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from medhalbench import results
from medhalbench.medhallu._dataset import DIFFICULTIES
from medhalbench.medhallu._settings import MedHalluSettings
from medhalbench.registry import benchmark
from medhalbench.report import OwnColumns, published_of, run_names, runs_table
from medhalbench.results import (
    AUROC_UNDEFINED,
    F1_UNDEFINED,
    PRECISION_UNDEFINED,
    RECALL_UNDEFINED,
    Column,
    bar_of,
    figure_names,
    figure_rows,
    grouped_bars,
    prompt_files,
    published_figure,
    run_title,
    sample_counts,
    yes_no,
)

RETRIEVAL_HIT_RATE = "Retrieval hit rate"
"""The name of the figure `gold_in_knowledge_rate` in every table (terminal, CSV, HTML, LaTeX)."""
RETRIEVAL_HIT_RATE_MEANS = (
    "share of samples whose retrieved passages hold the sample's own abstract"
)
"""What the retrieval hit rate is, said once under each table that shows it."""
HIT_RATE_FIGURE = "gold_in_knowledge_rate"
"""The retrieval hit rate's metric (a run given retrieved passages as its knowledge has it)."""
HIT_RATE_NOTE = f"{RETRIEVAL_HIT_RATE}: {RETRIEVAL_HIT_RATE_MEANS} (runs given retrieved passages)."
"""The note under a table that shows the retrieval hit rate."""
NO_ROW = "no row of this difficulty"
NO_PUBMED_ID = "no row with a PubMed id to look for among the passages"
PAPER_DIFFICULTY_UNDEFINED = "every reply of this difficulty read as not sure"

MEDHALLU_COLUMNS = [
    Column("Difficulty", wide=True),
    Column("Knowledge"),
    Column("Not sure"),
    Column("Structured", wide=True),
    Column("Prompts", wide=True),
    Column("F1", "f1", undefined=F1_UNDEFINED),
    Column("Precision", "precision", undefined=PRECISION_UNDEFINED, wide=True),
    Column("Recall", "recall", undefined=RECALL_UNDEFINED, wide=True),
    Column("Easy F1", "easy_f1", undefined=F1_UNDEFINED, wide=True),
    Column("Medium F1", "medium_f1", undefined=F1_UNDEFINED, wide=True),
    Column("Hard F1", "hard_f1", undefined=F1_UNDEFINED),
    Column("Paper F1", "paper_f1", undefined=F1_UNDEFINED),
    Column("Paper precision", "paper_precision", undefined=PRECISION_UNDEFINED, wide=True),
    Column("Paper easy F1", "paper_easy_f1", undefined=F1_UNDEFINED, wide=True),
    Column("Paper medium F1", "paper_medium_f1", undefined=F1_UNDEFINED, wide=True),
    Column("Paper hard F1", "paper_hard_f1", undefined=F1_UNDEFINED, wide=True),
    Column("Paper easy accuracy", "paper_easy_accuracy",
           undefined=PAPER_DIFFICULTY_UNDEFINED, wide=True),
    Column("Paper medium accuracy", "paper_medium_accuracy",
           undefined=PAPER_DIFFICULTY_UNDEFINED, wide=True),
    Column("Paper hard accuracy", "paper_hard_accuracy",
           undefined=PAPER_DIFFICULTY_UNDEFINED, wide=True),
    Column("Response rate", "response_rate", undefined="no sample", wide=True),
    Column("Paper response rate", "paper_response_rate", undefined="no sample", wide=True),
    Column("Paper not-sure share", "paper_not_sure_rate", undefined="no sample", wide=True),
    Column("AUROC", "auroc", undefined=AUROC_UNDEFINED, wide=True),
    Column("Samples", "samples", digits=0),
    Column("Unparseable", "unparseable", digits=0),
    Column(RETRIEVAL_HIT_RATE, HIT_RATE_FIGURE, undefined=NO_PUBMED_ID),
]  # fmt: skip
"""MedHallu's own columns of its results table (between the run's and its log)."""
SHOWN_SETTINGS = ("knowledge", "not_sure")
"""Settings with a column of their own in the narrow table (not repeated under Settings)."""
_MEDHALLU_FIGURES = figure_names(MEDHALLU_COLUMNS)


def difficulties(settings: MedHalluSettings) -> str:
    """The difficulties a run kept ("all" when it kept every row)."""
    return ",".join(settings.difficulty or []) or "all"


def knowledge_given(settings: MedHalluSettings, retrieval: str | None = None) -> str:
    """The knowledge the detector was given, as the Knowledge column reads: no, yes (the
    gold abstract), or retrieved passages ("retrieved (med-index, k 5, hybrid)";
    `retrieval`: the retrieval the run did, as its log records it)."""
    retrieved = settings.evidence_phrase(retrieval)
    if retrieved and settings.knowledge:
        return f"retrieved ({retrieved})"
    return yes_no(settings.knowledge)


def knowledge(settings: MedHalluSettings, retrieval: str | None = None) -> str:
    """The knowledge the detector was given, as titles name it: knowledge no, knowledge
    yes (the gold abstract), or "knowledge retrieved (med-index, k 5, hybrid)"."""
    return f"knowledge {knowledge_given(settings, retrieval)}"


def medhallu_settings(record: results.RunRecord) -> list[str]:
    """What distinguishes a MedHallu run: difficulty, knowledge (none, gold or retrieved),
    not sure, structured (not for outputs written elsewhere, where nothing was generated)."""
    settings = record.settings_as(MedHalluSettings)
    return [
        f"difficulty {difficulties(settings)}",
        knowledge(settings, record.retrieval),
        f"not sure {yes_no(settings.not_sure)}",
        *([f"structured {yes_no(settings.structured)}"] if record.generated else []),
    ]


def _figure(run: results.RunResult, name: str) -> results.Estimate | None:
    """A figure, undefined for want of rows where it is a difficulty's and the run had none."""
    figure = run.figure(name)
    difficulty = name.removeprefix("paper_").split("_")[0]
    if (
        figure is not None
        and difficulty in DIFFICULTIES
        and not run.metrics.get(f"{difficulty}_samples")
    ):
        return replace(figure, why=NO_ROW)
    return figure


def detection_table(
    runs: Sequence[results.RunResult], published: Sequence[results.PublishedRow] = ()
) -> results.ResultTable:
    """MedHallu's results table: one row per run (what sets it apart from the others under
    Settings); ours and the authors' figures side by side (the published rows fill the
    authors' columns)."""

    def cells(run: results.RunResult) -> list[list[results.Cell]]:
        s = run.record.settings_as(MedHalluSettings)
        return [
            [
                difficulties(s), knowledge_given(s, run.record.retrieval), yes_no(s.not_sure),
                yes_no(s.structured),
                prompt_files(run.record), *(_figure(run, name) for name in _MEDHALLU_FIGURES),
            ]
        ]  # fmt: skip

    def published_cells(row: results.PublishedRow) -> list[results.Cell]:
        s = row.settings_as(MedHalluSettings)
        return [
            "all", yes_no(s.knowledge), yes_no(s.not_sure), "no", "the paper's",
            *(published_figure(row, n) for n in _MEDHALLU_FIGURES),
        ]  # fmt: skip

    table = runs_table(
        "MedHallu detection (hallucinated = positive; Paper = the authors' reading and rule)",
        "medhallu", OwnColumns(MEDHALLU_COLUMNS, cells, published_cells, "MedHallu"), runs,
        published, shown=SHOWN_SETTINGS,
    )  # fmt: skip
    if any(HIT_RATE_FIGURE in run.metrics for run in runs):  # a grounded run: in the open
        table.notes.append(HIT_RATE_NOTE)
    else:  # no run was given retrieved passages: an empty column, kept to the wide view
        table.columns = [
            replace(c, wide=True) if c.figure == HIT_RATE_FIGURE else c for c in table.columns
        ]
    return table


def _summary_rows(run: results.RunResult) -> list[results.FigureRow]:
    by_difficulty: list[results.FigureRow] = [
        (
            f"{d.capitalize()} F1", f"{d}_f1", f"paper_{d}_f1",
            F1_UNDEFINED if run.metrics.get(f"{d}_samples") else NO_ROW,
        )
        for d in DIFFICULTIES
    ]  # fmt: skip
    return [
        ("F1", "f1", "paper_f1", F1_UNDEFINED),
        ("Precision", "precision", "paper_precision", PRECISION_UNDEFINED),
        ("Recall", "recall", "paper_recall", RECALL_UNDEFINED),
        *by_difficulty,
        ("Response rate", "response_rate", "paper_response_rate", "no sample"),
        ("Not-sure share", "not_sure_rate", "paper_not_sure_rate", "no sample"),
        ("F1 without the extractor", "strict_f1", None, F1_UNDEFINED),
        ("AUROC", "auroc", None, AUROC_UNDEFINED),
        ("Average precision", "average_precision", None, AUROC_UNDEFINED),
        (RETRIEVAL_HIT_RATE, HIT_RATE_FIGURE, None, NO_PUBMED_ID),
    ]


def medhallu_summary(run: results.RunResult) -> results.ResultTable:
    """A MedHallu run's headline figures as a narrow table titled with what distinguishes the run."""
    details = [*medhallu_settings(run.record), sample_counts(run)]
    table = figure_rows(run, _summary_rows(run), run_title("MedHallu", run, details))
    if HIT_RATE_FIGURE in run.metrics:
        table.notes.append(HIT_RATE_NOTE)
    return table


def medhallu_tables(
    runs: Sequence[results.RunResult], published: Sequence[results.PublishedRow] = ()
) -> list[results.ResultTable]:
    """MedHallu's tables in report order."""
    return [detection_table(runs, published)]


def medhallu_charts(runs: Sequence[results.RunResult]) -> list[str]:
    """F1 by difficulty per run, as the paper plots it: each bar with its 95% interval and
    the samples it is over, the paper protocol's F1 on the same replies and, where the
    paper published the same model in the same setting, its figure."""

    published = benchmark(runs[0].system).implementation.published() if runs else []
    series = {}
    for name, run in zip(run_names(runs, title=False), runs, strict=True):
        row = published_of(published, run)
        series[name] = [
            bar_of(run, f"{d}_f1", n=f"{d}_samples", paper=f"paper_{d}_f1", row=row)
            for d in DIFFICULTIES
        ]
    return [grouped_bars("MedHallu F1 by difficulty", list(DIFFICULTIES), series, y_label="F1")]
