"""MedHal's tables: the results table (overall and per source) and a run's summary.

A predict-only run's verdicts are written beside its log as JSONL, one line a statement."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from inspect_ai.log import EvalLog, read_eval_log

from medhalbench import results
from medhalbench.data import atomic_text
from medhalbench.medhal._dataset import MedHalPrediction, MedHalStatementMetadata
from medhalbench.medhal._metrics import PAPER_FAILURES, PAPER_PREFIXES
from medhalbench.medhal._settings import MedHalSettings
from medhalbench.medhal._verdicts import MedHalReadingMetadata
from medhalbench.report import (
    OwnColumns,
    applied,
    distinctions,
    mark_distinctions,
    runs_table,
)
from medhalbench.results import (
    AUROC_UNDEFINED,
    EXPLANATION_UNDEFINED,
    F1_UNDEFINED,
    PRECISION_UNDEFINED,
    RECALL_UNDEFINED,
    Column,
    figure_names,
    figure_rows,
    local_path,
    published_figure,
    run_record,
    run_title,
    sample_counts,
    sample_score,
    yes_no,
)

MEDHAL_COLUMNS = [
    Column("Source"),
    Column("Structured", wide=True),
    Column("Precision", "precision", undefined=PRECISION_UNDEFINED, wide=True),
    Column("Recall", "recall", undefined=RECALL_UNDEFINED, wide=True),
    Column("F1", "f1", undefined=F1_UNDEFINED),
    Column("Accuracy", "accuracy", undefined="no sample", wide=True),
    Column("FM precision", "format_matching_precision", undefined=PRECISION_UNDEFINED, wide=True),
    Column("FM recall", "format_matching_recall", undefined=RECALL_UNDEFINED, wide=True),
    Column("FM F1", "format_matching_f1", undefined=F1_UNDEFINED),
    Column("FM rate", "format_matching_rate", undefined="no sample", wide=True),
    Column("BLEU", "bleu", undefined=EXPLANATION_UNDEFINED),
    Column("ROUGE-1", "rouge1", undefined=EXPLANATION_UNDEFINED, wide=True),
    Column("ROUGE-2", "rouge2", undefined=EXPLANATION_UNDEFINED, wide=True),
    Column("Similarity", "explanation_similarity", undefined=EXPLANATION_UNDEFINED, wide=True),
    Column("Paper similarity", "paper_explanation_similarity",
           undefined=EXPLANATION_UNDEFINED, wide=True),
    Column("AUROC", "auroc", undefined=AUROC_UNDEFINED, wide=True),
    Column("Samples", "samples", digits=0),
    Column("Unparseable", "unparseable", digits=0),
]  # fmt: skip
"""MedHal's own columns of its results table (between the run's and its log)."""
_MEDHAL_FIGURES = figure_names(MEDHAL_COLUMNS)


def medhal_table(
    runs: Sequence[results.RunResult], published: Sequence[results.PublishedRow] = ()
) -> results.ResultTable:
    """MedHal results per run (what sets it apart from the others under Settings) and
    source (and overall): ours (non-factual positive) and the authors' (FM: factual positive
    over the replies their reading finds a yes/no in)."""

    def cells(run: results.RunResult) -> list[list[results.Cell]]:
        structured = yes_no(run.record.settings_as(MedHalSettings).structured)
        rows: list[list[results.Cell]] = []
        for source in ["all", *run.prefixed("source")]:
            prefix = "" if source == "all" else f"source/{source}/"
            rows.append(
                [
                    source, structured,
                    *(
                        run.figure(prefix + n)
                        if source == "all" or not n.startswith(("auroc", *PAPER_PREFIXES))
                        else None
                        for n in _MEDHAL_FIGURES
                    ),
                ]
            )  # fmt: skip
        return rows

    def published_cells(row: results.PublishedRow) -> list[results.Cell]:
        return ["all", "no", *(published_figure(row, n) for n in _MEDHAL_FIGURES)]

    def dataset(run: results.RunResult) -> str:  # its split, where it has splits
        split = applied(run.system, run.record, run.roles).get("split")
        return f"{run.dataset} ({split})" if split else run.dataset

    table = runs_table(
        "MedHal (non-factual = positive; FM = the authors' factual-positive figures on format-matching replies)",
        "medhal", OwnColumns(MEDHAL_COLUMNS, cells, published_cells, "MedHal (test)"), runs,
        published, dataset=dataset,
    )  # fmt: skip
    table.notes += [note for run in runs if (note := paper_failure_note(run))]
    table.key = (*table.key, "Source")  # a run's rows, one per source
    return table


def medhal_settings(record: results.RunRecord) -> list[str]:
    """What distinguishes a MedHal run: predict-only, its split (where its data has splits)
    and structured verdicts (not for replies written elsewhere, where nothing was
    generated)."""
    settings = record.settings_as(MedHalSettings)
    return [
        *(["predict-only"] if settings.predict else []),
        *([f"split {settings.split}"] if "split" in applied("medhal", record) else []),
        *([f"structured {yes_no(settings.structured)}"] if record.generated else []),
    ]


def prediction_table(runs: Sequence[results.RunResult]) -> results.ResultTable:
    """Predict-only runs: how many statements each judge found factual, not factual, or
    gave no readable verdict on (there are no labels, so no figures)."""
    table = results.ResultTable(
        "MedHal predict-only (no labels: verdicts counted, no figures)",
        "medhal_predictions",
        [
            Column("Model"),
            Column("Settings"),
            Column("Dataset"),
            *(Column(label, digits=0) for label in _COUNTS.values()),
        ],
    )

    differs = distinctions(runs)
    for run, differ in zip(runs, differs, strict=True):
        table.add([run.model, differ, run.dataset, *(run.metrics.get(name) for name in _COUNTS)])
    mark_distinctions(table, differs)
    return table


_COUNTS = {
    "statements": "Statements",
    "factual": "Factual",
    "non_factual": "Not factual",
    "unparseable": "Unreadable",
}


def paper_failure_note(run: results.RunResult) -> str | None:
    """Why the paper's figures of a run are missing ("§"), where its code stops with an
    error on the run's replies (None where it does not, or an older log does not say)."""
    code = run.metrics.get("paper_failure")
    if not code or not 1 <= code <= len(PAPER_FAILURES):
        return None
    none_positive = code == 2 and math.isnan(run.metrics.get("precision", 0.0))
    return (
        f"§ {run.model}: MedHal's evaluate stops with an error on these replies, so the "
        f"paper protocol has no figure: {PAPER_FAILURES[int(code) - 1]}"
        + (
            "; by our reading too, the judge called no statement non-factual"
            if none_positive
            else ""
        )
        + ". Our figures do not depend on it."
    )


def _predict_only(run: results.RunResult) -> bool:
    return run.record.settings_as(MedHalSettings).predict


def medhal_summary(run: results.RunResult) -> results.ResultTable:
    """A MedHal run's headline figures as a narrow table titled with what distinguishes the
    run: ours (non-factual positive, every sample) beside the authors' (factual positive,
    replies with a yes/no word), per source (ours) and per task (theirs, by the same names);
    a predict-only run's verdicts counted."""
    if _predict_only(run):
        table = prediction_table([run]).narrow()  # one run: no Settings to tell apart
        table.title = run_title(
            "MedHal predict-only (no labels: no figures)", run, medhal_settings(run.record)
        )
        return table
    parts = sorted({*run.prefixed("source"), *run.prefixed("format_matching_task")})
    rows: list[results.FigureRow] = [
        ("F1", "f1", "format_matching_f1", F1_UNDEFINED),
        ("Precision", "precision", "format_matching_precision", PRECISION_UNDEFINED),
        ("Recall", "recall", "format_matching_recall", RECALL_UNDEFINED),
        ("Accuracy", "accuracy", "format_matching_accuracy", "no sample"),
        ("Format-matching rate", None, "format_matching_rate", "no sample"),
        ("F1 without the extractor", "strict_f1", None, F1_UNDEFINED),
        ("Explanation similarity", "explanation_similarity", "paper_explanation_similarity",
         EXPLANATION_UNDEFINED),
        ("BLEU", "bleu", None, EXPLANATION_UNDEFINED),
        ("ROUGE-1", "rouge1", None, EXPLANATION_UNDEFINED),
        ("ROUGE-2", "rouge2", None, EXPLANATION_UNDEFINED),
        *((f"F1, {part}", f"source/{part}/f1", f"format_matching_task/{part}/f1", F1_UNDEFINED)
          for part in parts),
    ]  # fmt: skip
    table = figure_rows(run, rows)
    if note := paper_failure_note(run):
        table.notes.append(note)
    title = "MedHal (ours: non-factual = positive; paper: factual = positive, replies with a yes/no word)"
    table.title = run_title(title, run, [*medhal_settings(run.record), sample_counts(run)])
    return table


def medhal_tables(
    runs: Sequence[results.RunResult], published: Sequence[results.PublishedRow] = ()
) -> list[results.ResultTable]:
    """MedHal's tables in report order (predict-only runs apart)."""
    predicted = [r for r in runs if _predict_only(r)]
    return [
        medhal_table([r for r in runs if not _predict_only(r)], published),
        *([prediction_table(predicted)] if predicted else []),
    ]


PREDICTIONS_SUFFIX = ".predictions.jsonl"


def predictions(log: EvalLog) -> list[MedHalPrediction]:
    """The verdicts of a predict-only log, one per statement judged (in the log's order)."""
    samples = log.samples if log.samples is not None else read_eval_log(log.location).samples
    rows = []
    for sample in samples or []:
        score = sample_score(sample)
        if score is None:  # the sample failed: it has no verdict to give
            continue
        found = MedHalReadingMetadata.model_validate(score.metadata or {})
        kept = sample.metadata_as(MedHalStatementMetadata)
        rows.append(
            MedHalPrediction(
                id=str(sample.id),
                statement=kept.statement or "",
                context=kept.context,
                source=kept.source,
                factual=found.predicted,
                explanation=found.explanation,
                read_by=found.read_by,
                reply=sample.output.completion if sample.output else "",
            )
        )
    return rows


def write_predictions(log: EvalLog) -> list[Path]:
    """Write a predict-only log's verdicts as JSONL beside it (`<log>.predictions.jsonl`);
    nothing for a run with labels."""
    if not run_record(log).settings_as(MedHalSettings).predict:
        return []
    path = Path(local_path(log.location)).with_suffix(PREDICTIONS_SUFFIX)
    with atomic_text(path) as out:
        for row in predictions(log):
            out.write(row.model_dump_json() + "\n")  # redacted as it is written
    return [path]
