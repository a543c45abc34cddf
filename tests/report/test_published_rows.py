"""The papers' published rows are told apart by their condition in every view: the
terminal's tables at 80 columns (each part repeats the columns that name a row), the
report's tables and the long table of figures."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from helpers import record_of
from medhalbench._provenance import dataset_fingerprint
from medhalbench.commands._tables import fitted, print_table
from medhalbench.registry import benchmark
from medhalbench.report import figures_frame, on_paper_data
from medhalbench.results import RunResult


def _run() -> RunResult:
    return RunResult(
        system="medhallu", model="openai/gpt-4o-mini",
        metrics={"f1": 0.6, "f1_ci_low": 0.5, "f1_ci_high": 0.7, "samples": 20.0},
        record=record_of({"dataset": "rows.jsonl"}), log="run.eval", status="success",
    )  # fmt: skip


def test_each_published_row_names_its_condition_in_every_part_at_80_columns() -> None:
    entry = benchmark("medhallu")
    [table, *_] = entry.implementation.tables([_run()], entry.implementation.published())
    parts = fitted(table.published_only(), 80)
    assert len(parts) > 1
    named = set()
    for part, _ in parts:  # each part: every published row by its model and condition
        assert [c.name for c in part.columns[:2]] == ["Model", "Settings"]
        rows = [(str(row[0]), str(row[1])) for row in part.rows]
        assert len(set(rows)) == len(rows), rows
        named |= set(rows)
    assert ("GPT-4o (published)", "knowledge no · not sure no") in named
    assert ("GPT-4o (published)", "knowledge yes · not sure no") in named
    console = Console(width=80, record=True)
    print_table(console, table.published_only())
    assert max(len(line) for line in console.export_text().splitlines()) <= 80


def test_the_long_table_gives_each_published_figure_its_condition() -> None:
    frame = figures_frame([_run()])
    gpt4o = frame[frame["published"] & (frame["run"] == "GPT-4o (published)")]
    assert {"knowledge no · not sure no", "knowledge yes · not sure no"} <= set(gpt4o["condition"])
    # One figure per run, condition and table: no two published rows read alike.
    assert not gpt4o.duplicated(["run", "condition", "figure", "source"]).any()


def test_a_local_copy_of_the_papers_data_is_known_by_its_content(
    shared_data: Path, tmp_path: Path
) -> None:
    released = shared_data / "dahl" / "questions.csv"  # the authors' file, copied
    edited = tmp_path / "questions.csv"
    edited.write_bytes(released.read_bytes().replace(b"What", b"Which", 1))

    def run(dataset: Path) -> RunResult:
        record = record_of(
            {"dataset": str(dataset), "dataset_fingerprint": dataset_fingerprint(dataset)}
        )
        return RunResult(system="dahl", model="openai/gpt-4o", metrics={}, record=record,
                         log="run.eval", status="success")  # fmt: skip

    assert on_paper_data(run(released))
    assert not on_paper_data(run(edited))  # one question changed: other data
