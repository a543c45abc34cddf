"""Predict-only runs: each unlabelled statement's verdict and explanation, as JSONL beside
the log."""

from __future__ import annotations

from pathlib import Path

from inspect_ai.log import EvalLog, read_eval_log

from medhalbench._secrets import redact
from medhalbench.medhal._records import MedHalPrediction
from medhalbench.results import local_path, sample_score

PREDICTIONS_SUFFIX = ".predictions.jsonl"


def predictions(log: EvalLog) -> list[MedHalPrediction]:
    """The verdicts of a predict-only log, one per statement judged (in the log's order)."""
    samples = log.samples if log.samples is not None else read_eval_log(log.location).samples
    rows = []
    for sample in samples or []:
        score = sample_score(sample)
        if score is None:  # the sample failed: it has no verdict to give
            continue
        found = score.metadata or {}
        rows.append(
            MedHalPrediction(
                id=str(sample.id),
                statement=str(sample.metadata.get("statement", "")),
                context=sample.metadata.get("context"),
                source=sample.metadata.get("source"),
                factual=found.get("predicted"),
                explanation=found.get("explanation"),
                read_by=found.get("read_by"),
                reply=sample.output.completion if sample.output else "",
            )
        )
    return rows


def write_predictions(log: EvalLog) -> list[Path]:
    """Write a predict-only log's verdicts as JSONL beside it (`<log>.predictions.jsonl`);
    nothing for a run with labels."""
    if not log.eval.task_args.get("predict"):
        return []
    path = Path(local_path(log.location)).with_suffix(PREDICTIONS_SUFFIX)
    with path.open("w", encoding="utf-8") as out:
        for row in predictions(log):
            out.write(redact(row.model_dump_json()) + "\n")
    return [path]
