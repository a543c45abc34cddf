"""Every path a report shows is shown as `shown_path` shows it: a MedHallu run given an index
at an absolute path names it relative to the current folder under it, else by its last two
parts, in the summary's column, the tables, the terminal, every export and the provenance;
the HTML page gives the whole path on hover only."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from inspect_ai import eval

from helpers import scripted_model
from medhalbench._paths import shown_path
from medhalbench.evidence import build_index
from medhalbench.examples import illustrative
from medhalbench.medhallu import medhallu
from medhalbench.report import collect, write_report

ROWS = illustrative("medhallu_illustrative.jsonl")


@pytest.fixture(scope="module")
def grounded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Logs of a closed-book and a grounded MedHallu run, and the index (absolute, outside
    the current folder) the grounded run searched."""
    folder = tmp_path_factory.mktemp("shown-paths")
    index = folder / "indexes" / "pubmed-index"
    index.parent.mkdir()
    build_index([ROWS], index, progress=False)
    model = scripted_model(lambda prompt: "1")
    logs = eval(
        [
            medhallu(dataset=ROWS, knowledge=True),
            medhallu(dataset=ROWS, knowledge=True, evidence=str(index)),
        ],
        model=model,
        log_dir=str(folder / "logs"),
        display="none",
    )
    assert all(log.status == "success" for log in logs), [log.error for log in logs]
    return folder / "logs", index


def _visible(html: str) -> str:
    """A page's text less its tags' title attributes (what shows without hovering)."""
    return re.sub(r'\stitle="[^"]*"', "", html)


def test_an_index_outside_the_folder_is_named_by_its_last_parts_everywhere(
    grounded: tuple[Path, Path], tmp_path: Path
) -> None:
    logs, index = grounded
    shown = shown_path(str(index))
    assert shown == "…/indexes/pubmed-index"
    [page] = write_report([logs], tmp_path / "report.html")
    html = page.read_text()
    assert str(index) not in _visible(html)
    # The summary's column, the Settings and Knowledge cells: shortened, whole on hover.
    assert f'<th title="evidence {index}">evidence {shown}</th>' in html
    assert f'title="evidence {index}">evidence {shown}</td>' in html
    assert f'title="retrieved ({index}, k 5, bm25)">retrieved ({shown}, k 5, bm25)</td>' in html
    for fmt, suffix in (("csv", "csv"), ("markdown", "md"), ("latex", "tex"), ("json", "json")):
        for written in write_report([logs], tmp_path / f"report.{suffix}", fmt):
            text = written.read_text()
            assert str(index) not in text, written.name
    header = (tmp_path / "report_summary_medhallu.csv").read_text().splitlines()[0]
    assert "evidence_indexes_pubmed_index" in header and index.parts[2] not in header


def test_the_terminal_names_the_index_as_the_report_does(grounded: tuple[Path, Path]) -> None:
    from rich.console import Console

    from medhalbench.commands import print_table
    from medhalbench.medhallu._report import detection_table, medhallu_summary

    logs, index = grounded
    runs = collect([logs]).runs
    console = Console(width=120, file=io.StringIO(), record=True)
    for run in runs:
        print_table(console, medhallu_summary(run))
    print_table(console, detection_table(runs))
    text = console.export_text()
    assert str(index) not in text.replace("\n", "")
    assert "knowledge retrieved (…/indexes/pubmed-index, k 5, bm25)" in " ".join(text.split())


def test_an_index_under_the_current_folder_is_named_relative_to_it(
    grounded: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logs, index = grounded
    monkeypatch.chdir(index.parents[1])
    [page] = write_report([logs], tmp_path / "report.html")
    html = page.read_text()
    assert f'<th title="evidence {index}">evidence indexes/pubmed-index</th>' in html
    assert str(index) not in _visible(html)
