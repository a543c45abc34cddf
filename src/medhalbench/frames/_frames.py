"""DataFrames of runs, samples and DAHL units, read with `inspect_ai.analysis` from the logs of
finished runs (unfinished logs and logs of other tasks are left out, as in the report)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_ai.analysis import EvalInfo, SampleColumn, evals_df, samples_df
from inspect_ai.log import EvalSample

from medhalbench.frames._schema import (
    COUNT,
    FIGURES_RENAMED,
    RENAMED,
    RUN,
    RUNS,
    SAMPLES,
    UNITS,
    VERDICT_WORDS,
    predicted_factual,
    setting_dtype,
    typed,
    verdict_words,
)
from medhalbench.registry import benchmark
from medhalbench.report import collect, figures_frame, run_names
from medhalbench.results import RunResult, local_path, sample_score
from medhalbench.settings import options_of

if TYPE_CHECKING:
    import pandas as pd

LogPaths = str | Path | Sequence[str | Path]
"""A log file, a folder of logs, or several of either."""

_RUN = ["benchmark", "model", "log"]


def _paths(logs: LogPaths) -> list[str | Path]:
    return [logs] if isinstance(logs, str | Path) else list(logs)


def load_runs(logs: LogPaths, *, headline: bool = False) -> pd.DataFrame:
    """One row per finished run: benchmark, model, run name, log file, created, each role's
    model (`<role>_model`), its settings (the task's arguments by name, generation settings
    as sent) and every figure with its 95% interval (`<figure>`, `<figure>_ci_low`,
    `<figure>_ci_high`; NaN where undefined). Columns and dtypes: `frames.RUNS`.

    Args:
        logs: A log, a folder of logs, or several of either.
        headline: Keep only the columns that name a run (benchmark, model, run, log,
            created, each role's model), each benchmark's headline figures with their
            intervals (`Benchmark.headline`) and the counts `samples` and `unparseable`.

    Raises:
        DataError: A path that does not exist, or no log found.
    """
    import pandas as pd

    found = collect(_paths(logs))
    if not found.runs:
        return typed(pd.DataFrame(columns=[c.name for c in RUN]), RUN)
    info = evals_df([local_path(r.log) for r in found.runs], columns=EvalInfo, quiet=True)
    created = {
        local_path(log): when for log, when in zip(info["log"], info["created"], strict=True)
    }
    rows: list[dict[str, Any]] = []
    for run, name in zip(found.runs, run_names(found.runs), strict=True):
        # The generation settings as sent (inspect's effective config), not the task's.
        settings = {k: v for k, v in run.record.shown.items() if k not in _RUN}
        figures = {FIGURES_RENAMED.get(k, k): v for k, v in run.metrics.items()}
        rows.append(
            {
                "benchmark": run.system,
                "model": run.model,
                "run": name,
                "log": local_path(run.log),
                "created": created.get(local_path(run.log)),
                **{f"{role}_model": model for role, model in run.roles.items()},
                **settings,
                **{k: v for k, v in figures.items() if k not in settings},
            }
        )
    # Values as Python gives them; each setting's dtype from its declared type, each figure a
    # float (NaN where undefined, whatever the other runs hold) and each count a whole number.
    dtypes = _figure_dtypes(found.runs) | _setting_dtypes(found.runs)
    frame = typed(pd.DataFrame(rows, dtype=object), RUNS, settings=dtypes)
    return frame[_headline_columns(frame, found.runs)] if headline else frame


_HEADLINE_COUNTS = ("samples", "unparseable")


def _headline_columns(frame: pd.DataFrame, runs: Sequence[RunResult]) -> list[str]:
    """The columns `load_runs(..., headline=True)` keeps, in the frame's order."""
    figures = {
        f for name in dict.fromkeys(r.system for r in runs) for f in benchmark(name).headline
    }
    kept = {
        *(c.name for c in RUN),
        *(f"{f}{end}" for f in figures for end in ("", "_ci_low", "_ci_high")),
        *_HEADLINE_COUNTS,
    }
    return [c for c in frame.columns if c in kept or c.endswith("_model")]


def _figure_dtypes(runs: Sequence[RunResult]) -> dict[str, str]:
    """The dtype of each figure of the runs: `Int64` for counts, `float64` for the rest."""
    names = {FIGURES_RENAMED.get(k, k) for run in runs for k in run.metrics}
    return {name: "Int64" if COUNT.match(name) else "float64" for name in names}


def _setting_dtypes(runs: Sequence[RunResult]) -> dict[str, str]:
    """The dtype of each task setting of the runs' benchmarks, from its declared type."""
    dtypes: dict[str, str] = {}
    for name in dict.fromkeys(r.system for r in runs):
        for option in options_of(benchmark(name).settings):
            dtypes.setdefault(option.name, setting_dtype(option))
    return dtypes


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
    """One row per sample (and epoch) of the finished runs: the run, the sample's id, epoch
    and fields (question, answer or statement, difficulty, category, source), the gold label
    (`is_hallucinated`, `is_factual`), the reply as written, the verdict read from it
    (`verdict` in the benchmark's words, `predicted_factual`, `correct`, `paper_verdict`),
    `score` (1 right, 0 wrong; DAHL: the answer's factual precision) and the scorer's other
    per-sample fields. DAHL's units are in `load_units`. Columns and dtypes:
    `frames.SAMPLES`.

    Raises:
        DataError: A path that does not exist, or no log found.
    """
    import pandas as pd

    found = collect(_paths(logs))
    frames = []
    for run, name in zip(found.runs, run_names(found.runs), strict=True):
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
            details.append({**extra, "code": score.get("answer"), "score": score.get("value")})
        detail = pd.DataFrame(details, index=frame.index)
        frame = frame.drop(columns=[c for c in detail.columns if c in frame.columns])
        frame = pd.concat([frame, detail], axis=1)
        frame = frame.drop(columns=["sample_id", "eval_id", "log"], errors="ignore")
        frame = _one_meaning(run.system, frame)
        frame.insert(0, "benchmark", run.system)
        frame.insert(1, "model", run.model)
        frame.insert(2, "run", name)
        frame.insert(3, "log", local_path(run.log))
        frames.append(typed(frame, SAMPLES, drop_empty=True))
    if not frames:
        columns = [c.name for c in SAMPLES if not c.name.startswith("<")]
        return typed(pd.DataFrame(columns=columns), SAMPLES)
    return typed(pd.concat(frames, ignore_index=True), SAMPLES, drop_empty=True)


def _one_meaning(system: str, frame: pd.DataFrame) -> pd.DataFrame:
    """A benchmark's sample fields under the names and values that mean one thing in every
    benchmark: the gold label as `is_hallucinated`/`is_factual`, verdicts in words."""
    frame = frame.rename(columns=RENAMED.get(system, {}))
    code = frame.pop("code")
    label = frame.pop("label") if "label" in frame else None
    if label is not None:
        # MedHallu's label is 1 for a hallucinated answer; MedHal's is True for a factual
        # statement.
        factual = label.map(lambda v: None if v is None else str(v) in ("0", "True", "true"))
        frame["is_factual"] = factual.astype("boolean")
        frame["is_hallucinated"] = ~frame["is_factual"]
    if system in VERDICT_WORDS:
        frame["verdict"] = verdict_words(system, code)
        frame["predicted_factual"] = predicted_factual(system, code)
        frame["correct"] = frame["score"].map(lambda v: None if v is None else v == 1)
    paper = frame.pop("paper_prediction") if "paper_prediction" in frame else None
    if paper is None and "paper_predicted" in frame:
        # MedHal's reading of the first yes/no word: True is factual.
        paper = frame.pop("paper_predicted").map(
            lambda v: None if v is None or v != v else ("YES" if v else "NO")
        )
    if paper is not None:
        frame["paper_verdict"] = verdict_words(system, paper)
    if "precision" in frame and "status" in frame:  # DAHL: an excluded answer has no score
        frame["score"] = frame["precision"]
    return frame.drop(columns=["prediction", "predicted"], errors="ignore")


def load_units(logs: LogPaths) -> pd.DataFrame:
    """One row per atomic unit of the finished DAHL runs: the run, the sample's id, epoch,
    question and category, `unit` (its position in the answer), `text`, `verdict` (true,
    false, unknown; <NA> where the checker's reply could not be read), `is_true` and
    `p_false` (P(false), where the checker gave log-probabilities) and `unread_reason` (why the
    strict reader read no verdict from the checker's reply). Columns and dtypes:
    `frames.UNITS`.

    Raises:
        DataError: A path that does not exist, or no log found.
    """
    import pandas as pd

    found = collect(_paths(logs))
    rows: list[dict[str, Any]] = []
    for run, name in zip(found.runs, run_names(found.runs), strict=True):
        units_of = benchmark(run.system).implementation.units
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
                        "benchmark": run.system, "model": run.model, "run": name,
                        "log": local_path(run.log), "id": sample.id, "epoch": sample.epoch,
                        "question": sample.question, "category": sample.category,
                        "unit": position, "text": unit.text, "verdict": unit.verdict,
                        "is_true": {"true": True, "false": False}.get(unit.verdict or ""),
                        "p_false": unit.p_false, "unread_reason": unit.unread_reason,
                    }
                )  # fmt: skip
    return typed(pd.DataFrame(rows, columns=[c.name for c in UNITS]), UNITS)


def load_figures(logs: LogPaths, *, published: bool = True) -> pd.DataFrame:
    """Every figure of the finished runs as a long table, a row per run and figure (value,
    95% interval, n, the paper protocol's counterpart), then (`published`) the papers'
    published figures of the same benchmarks: what `report --format csv` writes as
    `<out>_figures.csv`. Columns and dtypes: `report.FIGURE_COLUMNS`.

    Raises:
        DataError: A path that does not exist, or no log found.
    """
    return figures_frame(collect(_paths(logs)).runs, published=published)
