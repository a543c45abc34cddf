"""Writing the report: one self-contained HTML page, the tables as CSV, Markdown or JSON,
the long table of every figure as Parquet, or the summary as LaTeX tables for a paper."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from medhalbench._errors import DataError
from medhalbench._secrets import redact
from medhalbench._version import VERSION
from medhalbench.data import atomic_path, atomic_paths, write_text_atomically
from medhalbench.report._collect import CollectedResults, collect
from medhalbench.report._export import csv_frame, json_table, markdown
from medhalbench.report._html import render_html
from medhalbench.report._latex import latex
from medhalbench.report._page import Page, build_page
from medhalbench.report._tidy import figures_frame
from medhalbench.results import ResultTable, RunResult
from medhalbench.settings import ReportFormat
from medhalbench.text import printable

"""Each format's file suffix (the default output is `report` with it)."""


def tables(results: CollectedResults, *, published: bool = True) -> list[ResultTable]:
    """Every table of the report, in page order (`published`: with the papers' figures)."""
    return build_page(results, published=published).tables()


def write_report(
    logs: Sequence[str | Path],
    out: str | Path,
    fmt: ReportFormat = "html",
    *,
    published: bool = True,
    warn: Callable[[str], None] | None = None,
    reproduced: Sequence[ResultTable] = (),
) -> list[Path]:
    """Write the report of the given logs (files or folders).

    Args:
        logs: Log files or folders of logs.
        out: Output file (for CSV, the stem of one file per table: `OUT_<table>.csv`, and
            of the long table of every figure, `OUT_figures.csv`).
        fmt: `html`, `csv`, `markdown`, `parquet`, `json` or `latex` (see `ReportFormat`).
        published: Add the papers' published figures as reference rows.
        warn: Told of each file that is no readable log (it is left out).
        reproduced: The views of the papers' tables the runs stand in for (`reproduce`'s),
            shown after the summary where `published`.

    Returns:
        The files written.

    Raises:
        DataError: No finished run to report, or the report cannot be written.
    """
    target = Path(out)
    try:
        _check_writable(target)
    except OSError as ex:
        raise DataError(f"cannot write the report ({ex.strerror or ex})", path=target) from None
    results = collect(logs)
    if not results.runs:
        raise DataError(
            "no finished run of a medhalbench benchmark to report"
            + (
                f" (left out: {'; '.join([*results.unreadable, *results.skipped])})"
                if results.unreadable or results.skipped
                else ""
            ),
            path=", ".join(map(str, logs)),
        )
    for left_out in results.unreadable:
        if warn is not None:
            warn(f"left out {left_out}")
    try:
        page = build_page(results, published=published, reproduced=reproduced)
        return _write(page, results.runs, target, fmt, published=published)
    except OSError as ex:
        raise DataError(f"cannot write the report ({ex.strerror or ex})", path=target) from None


def _check_writable(target: Path) -> None:
    """Raise OSError when the report cannot be written there (checked before reading logs)."""
    if target.is_dir():
        raise IsADirectoryError(21, "a folder is there, not a file")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=target.parent):
        pass


def _redacted(frame: pd.DataFrame) -> pd.DataFrame:
    """A table with no known secret in its text cells (a log's names and notes may hold one
    that a server echoed)."""
    text = frame.select_dtypes(include=["object", "string"]).columns
    return frame.assign(
        **{c: frame[c].map(lambda v: redact(v) if isinstance(v, str) else v) for c in text}
    )


def _write(page: Page, runs: Sequence[RunResult], target: Path, fmt: ReportFormat, *,
           published: bool) -> list[Path]:  # fmt: skip
    texts: dict[str, Callable[[], str]] = {  # one text file, rendered only when asked for
        "html": lambda: render_html(page),
        "markdown": lambda: markdown(page.tables()),
        "latex": lambda: latex(page.summary, page.reproduced),
    }
    if fmt in texts:
        # Names and text a user or a model gave, escaped as a terminal shows them: a page
        # shown with `cat` acts on no control character.
        write_text_atomically(target, printable(texts[fmt]()))
        return [target]
    figures = figures_frame(runs, published=published)
    if fmt == "parquet":  # binary: its text cells redacted here, not as it is written
        with atomic_path(target, binary=True) as parquet:
            _redacted(figures).to_parquet(parquet, index=False)
        return [target]
    if fmt == "json":
        document = {
            "medhalbench": VERSION,
            "tables": [json_table(t) for t in page.tables()],
            # pandas writes the typed long table (NaN and <NA> as null).
            "figures": json.loads(figures.to_json(orient="records", force_ascii=False)),
            "left_out": page.left_out,
        }
        text = json.dumps(document, ensure_ascii=False, allow_nan=False, indent=1)
        write_text_atomically(target, text + "\n")
        return [target]
    # One CSV per table and the figures, all written or none (a partial set misleads).
    frames = {
        target.with_name(f"{target.stem}_{table.slug}.csv"): csv_frame(table)
        for table in page.tables()
    }
    frames[target.with_name(f"{target.stem}_figures.csv")] = figures
    with atomic_paths(list(frames)) as parts:
        for part, frame in zip(parts, frames.values(), strict=True):
            frame.to_csv(part, index=False)
    return list(frames)
