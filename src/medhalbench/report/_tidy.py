"""Every figure of every run as one long ("tidy") table: a row per run and figure, typed
columns, the papers' published figures as rows of their own. What `report --format csv`
writes as `<out>_figures.csv`, `--format parquet` as Parquet, and `load_figures` returns."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from medhalbench.registry import benchmark, benchmarks
from medhalbench.report._published import published_condition
from medhalbench.report._settings import phrase, settings_of
from medhalbench.report._summary import run_names
from medhalbench.results import PublishedRow, RunResult, local_path
from medhalbench.statistics import FIGURE_FLAGS

if TYPE_CHECKING:
    import pandas as pd

FIGURE_COLUMNS: dict[str, str] = {
    "run": "string",
    "benchmark": "string",
    "model": "string",
    "roles": "string",
    "settings": "string",
    "condition": "string",
    "figure": "string",
    "value": "float64",
    "ci_low": "float64",
    "ci_high": "float64",
    "n": "Int64",
    "paper_figure": "string",
    "paper_value": "float64",
    "mark": "string",
    "published": "boolean",
    "source": "string",
}
"""The long table's columns and their pandas dtypes.

- `run`: the run's name (benchmark, model, how its replies were made, judges, condition);
  a published row: the paper's model with "(published)".
- `benchmark`, `model`: registry name and model under test (`system/NAME` for outputs
  written elsewhere).
- `roles`: each judge role's model, `role=model` joined by "; " (empty when none).
- `settings`: every setting of the run as "name value" phrases joined by " · ";
  `condition`: those that are no setting of how the replies were made (what the summary's
  columns are).
- `figure`: the metric's name in the log (`f1`, `easy_f1`, `category/oncology`,
  `source/qa/f1`, counts such as `samples`); `value`: the figure (NaN: undefined);
  `ci_low`, `ci_high`: its 95% bootstrap interval (NaN: none, or undefined).
- `n`: the samples the figure is over (DAHL: scored responses; per difficulty, source or
  category where the log counts them; <NA> where it does not).
- `paper_figure`, `paper_value`: the paper protocol's counterpart on the same replies
  (`paper_f1` beside `f1`; empty and NaN where there is none).
- `mark`: "‡" where the paper's code prints 0 for an undefined figure, "§" where it stops
  with an error and prints none.
- `published`: the row is a figure the paper published (its table in `source`); else
  `source` is the run's log file.
"""

_SUFFIXES = ("_ci_low", "_ci_high", *FIGURE_FLAGS)
_PAPER_PREFIXES = ("paper_", "format_matching_")


def _figures(run: RunResult) -> list[str]:
    return [m for m in run.metrics if not m.endswith(_SUFFIXES)]


def _count(run: RunResult, name: str) -> float | None:
    """The samples a figure is over: its group's count where the log keeps one."""
    m = run.metrics
    group = name.rpartition("/")[0]
    bare = name.removeprefix("paper_")
    if group:  # a source's, category's or task's figure: its own count, or none
        candidates = [f"{name}/scored", f"{group}/samples", f"{group}/scored"]
        return next((m[c] for c in candidates if c in m and math.isfinite(m[c])), None)
    candidates = [f"{bare.split('_')[0]}_samples"]
    candidates += ["responses"] if name == "paper_dahl_score" else []
    candidates += ["samples", "scored", "statements"]
    return next((m[c] for c in candidates if c in m and math.isfinite(m[c])), None)


def _counterpart(run: RunResult, name: str) -> str:
    if name.startswith(_PAPER_PREFIXES):
        return ""
    return next((p + name for p in _PAPER_PREFIXES if p + name in run.metrics), "")


def _run_rows(run: RunResult, name: str) -> list[dict[str, object]]:
    settings = settings_of(run)
    condition = " · ".join(
        phrase(k, v) for k, v in {**settings.selection, **settings.condition}.items()
    )
    every = " · ".join([condition, *(phrase(k, v) for k, v in settings.replies.items())]).strip(
        " ·"
    )
    rows = []
    for figure in _figures(run):
        estimate = run.figure(figure)
        assert estimate is not None  # a metric of the run
        paper = _counterpart(run, figure)
        count = _count(run, figure)
        rows.append(
            {
                "run": name, "benchmark": run.system, "model": run.model,
                "roles": "; ".join(f"{r}={m}" for r, m in settings.judges.items()),
                "settings": every, "condition": condition, "figure": figure,
                "value": estimate.value, "ci_low": estimate.low, "ci_high": estimate.high,
                "n": None if count is None else int(count), "paper_figure": paper,
                "paper_value": run.metrics.get(paper, math.nan) if paper else math.nan,
                "mark": estimate.mark, "published": False, "source": local_path(run.log),
            }
        )  # fmt: skip
    return rows


def _published_rows(row: PublishedRow) -> list[dict[str, object]]:
    settings = " · ".join(phrase(k, v) for k, v in row.settings.items() if v)
    return [
        {
            "run": f"{row.model} (published)", "benchmark": row.system, "model": row.model,
            "roles": "", "settings": settings, "condition": published_condition(row),
            "figure": figure,
            "value": value, "ci_low": math.nan, "ci_high": math.nan, "n": None,
            "paper_figure": "", "paper_value": math.nan, "mark": "", "published": True,
            "source": row.source,
        }
        for figure, value in row.metrics.items()
    ]  # fmt: skip


def figures_frame(runs: Sequence[RunResult], *, published: bool = True) -> pd.DataFrame:
    """Every figure of the runs, a row per run and figure (columns: `FIGURE_COLUMNS`), then
    (`published`) the published figures of the papers of the benchmarks the runs are of."""
    import pandas as pd

    rows: list[dict[str, object]] = []
    for run, name in zip(runs, run_names(runs), strict=True):
        rows += _run_rows(run, name)
    if published:
        for entry in benchmarks():
            if any(r.system == entry.name for r in runs):
                for row in benchmark(entry.name).implementation.published():
                    rows += _published_rows(row)
    frame = pd.DataFrame(rows, columns=list(FIGURE_COLUMNS))
    return frame.astype(FIGURE_COLUMNS)
