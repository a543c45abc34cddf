"""DataFrames of runs, samples and DAHL units, read with `inspect_ai.analysis` from the logs of
finished runs (unfinished logs and logs of other tasks are left out, as in the report)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_ai.analysis import EvalInfo, SampleColumn, evals_df, samples_df
from inspect_ai.log import EvalSample

from medhalbench.registry import benchmark
from medhalbench.report import collect
from medhalbench.results import local_path, sample_score

if TYPE_CHECKING:
    import pandas as pd

LogPaths = str | Path | Sequence[str | Path]
"""A log file, a folder of logs, or several of either."""

_RUN = ["benchmark", "model", "log"]


def _paths(logs: LogPaths) -> list[str | Path]:
    return [logs] if isinstance(logs, str | Path) else list(logs)


def load_runs(logs: LogPaths) -> pd.DataFrame:
    """One row per finished run: benchmark, model, log file, created, each role's model
    (`<role>_model`), its settings (the task's arguments, by name) and every figure with its
    95% interval (`<figure>`, `<figure>_ci_low`, `<figure>_ci_high`; NaN where undefined).

    Raises:
        DataError: A path that does not exist, or no log found.
    """
    import pandas as pd

    found = collect(_paths(logs))
    if not found.runs:
        return pd.DataFrame(columns=[*_RUN, "created"])
    info = evals_df([local_path(r.log) for r in found.runs], columns=EvalInfo, quiet=True)
    created = {
        local_path(log): when for log, when in zip(info["log"], info["created"], strict=True)
    }
    rows: list[dict[str, Any]] = []
    for run in found.runs:
        rows.append(
            {
                "benchmark": run.system,
                "model": run.model,
                "log": local_path(run.log),
                "created": created.get(local_path(run.log)),
                **{f"{role}_model": name for role, name in run.roles.items()},
                **{k: v for k, v in run.arguments.items() if k not in _RUN},
                **run.metrics,
            }
        )
    return pd.DataFrame(rows)


def _reply(sample: EvalSample) -> str | None:
    return sample.output.completion if sample.output else None


def _mapping(stored: Any) -> dict[str, Any]:
    """A dict column of inspect's frames (kept as JSON text) as a dict."""
    return json.loads(stored) if isinstance(stored, str) else dict(stored or {})


def _score(sample: EvalSample) -> dict[str, Any]:
    """The sample's score (each of our tasks has one scorer) as plain values."""
    score = sample_score(sample)
    return score.model_dump(mode="json") if score is not None else {}


def _score_metadata(sample: EvalSample) -> dict[str, Any]:
    return dict(_score(sample).get("metadata") or {})


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def load_samples(logs: LogPaths) -> pd.DataFrame:
    """One row per sample (and epoch) of the finished runs: benchmark, model, log, id,
    epoch, the sample's fields (question, answer or statement, label, difficulty, source,
    ...), the reply as written, `verdict` (the verdict read; None where the reply could
    not be read), `score` (1 right, 0 wrong; DAHL: the answer's factual precision) and the
    scorer's other per-sample fields (probabilities, who read the reply, ...). DAHL's units
    are in `load_units`.

    Raises:
        DataError: A path that does not exist, or no log found.
    """
    import pandas as pd

    found = collect(_paths(logs))
    frames = []
    for run in found.runs:
        frame = samples_df(
            run.log,
            columns=[
                SampleColumn("id", path="id", required=True, type=str),
                SampleColumn("epoch", path="epoch", required=True),
                SampleColumn("*", path="metadata", full=True),
                SampleColumn("reply", path=_reply, full=True),
                SampleColumn("scores", path=_score, full=True),
            ],
            quiet=True,
        )
        details = []
        for stored in frame.pop("scores"):
            score = _mapping(stored)
            extra = {k: v for k, v in (score.get("metadata") or {}).items() if _scalar(v)}
            details.append({**extra, "verdict": score.get("answer"), "score": score.get("value")})
        detail = pd.DataFrame(details, index=frame.index)
        frame = frame.drop(columns=[c for c in detail.columns if c in frame.columns])
        frame = pd.concat([frame, detail], axis=1)
        frame = frame.drop(columns=["sample_id", "eval_id", "log"], errors="ignore")
        frame.insert(0, "benchmark", run.system)
        frame.insert(1, "model", run.model)
        frame.insert(2, "log", local_path(run.log))
        frames.append(frame)
    if not frames:
        return pd.DataFrame(columns=[*_RUN, "id", "epoch", "reply", "verdict", "score"])
    return pd.concat(frames, ignore_index=True)


_UNIT_COLUMNS = [
    *_RUN, "id", "epoch", "question", "category", "unit", "text", "verdict", "p_false"
]  # fmt: skip


def load_units(logs: LogPaths) -> pd.DataFrame:
    """One row per atomic unit of the finished DAHL runs: benchmark, model, log, id,
    epoch, question, category, `unit` (its position in the answer), `text`, `verdict`
    (true, false, unknown; None where the checker's reply could not be read) and `p_false`
    (P(false), where the checker gave log-probabilities).

    Raises:
        DataError: A path that does not exist, or no log found.
    """
    import pandas as pd

    found = collect(_paths(logs))
    rows: list[dict[str, Any]] = []
    for run in found.runs:
        units_of = benchmark(run.system).units
        if units_of is None:
            continue
        frame = samples_df(
            run.log,
            columns=[
                SampleColumn("id", path="id", required=True, type=str),
                SampleColumn("epoch", path="epoch", required=True),
                SampleColumn("question", path="metadata.question"),
                SampleColumn("category", path="metadata.category"),
                SampleColumn("score", path=_score_metadata, full=True),
            ],
            quiet=True,
        )
        for sample in frame.itertuples(index=False):
            stored = sample.score
            metadata = _mapping(stored)
            for position, unit in enumerate(units_of(metadata), start=1):
                rows.append(
                    {
                        "benchmark": run.system, "model": run.model, "log": local_path(run.log),
                        "id": sample.id, "epoch": sample.epoch, "question": sample.question,
                        "category": sample.category, "unit": position, "text": unit.text,
                        "verdict": unit.verdict, "p_false": unit.p_false,
                    }
                )  # fmt: skip
    return pd.DataFrame(rows, columns=_UNIT_COLUMNS)
