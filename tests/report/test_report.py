from __future__ import annotations

import csv
from html.parser import HTMLParser
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from medhalbench import DataError
from medhalbench.report import collect, write_report


class Tables(HTMLParser):
    """Cells of every table in a page, by table id: rows of {column: text}."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[dict[str, str]]] = {}
        self.table: str | None = None
        self.column: str | None = None
        self.row: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table":
            self.table = a.get("id") or ""
            self.tables[self.table] = []
        elif tag == "tr":
            self.row = {}
        elif tag == "td":
            self.column = a.get("data-column")

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr" and self.row and self.table is not None:
            self.tables[self.table].append(self.row)
        elif tag == "td":
            self.column = None

    def handle_data(self, data: str) -> None:
        if self.column:
            self.row[self.column] = self.row.get(self.column, "") + data


def metrics_by_system(folder: Path) -> dict[str, list]:
    out: dict[str, list] = {}
    for info in list_eval_logs(str(folder)):
        log = read_eval_log(info)
        m = {n: v.value for s in log.results.scores for n, v in s.metrics.items()}
        out.setdefault(log.eval.metadata["system"], []).append((log.eval.metadata, m))
    return out


def test_html_tables_hold_the_numbers_in_the_logs(report_logs: Path, tmp_path: Path) -> None:
    [page] = write_report([report_logs], tmp_path / "report.html")
    parser = Tables()
    parser.feed(page.read_text())
    logs = metrics_by_system(report_logs)
    rows = parser.tables["medhallu"]
    assert len(rows) == 2
    for metadata, m in logs["medhallu"]:
        row = next(r for r in rows if r["Knowledge"] == ("yes" if metadata["knowledge"] else "no"))
        assert row["Overall F1"] == f"{m['f1']:.3f}" and row["Hard F1"] == f"{m['hard_f1']:.3f}"
        assert row["Response rate"] == (
            f"{m['response_rate']:.3f}" if metadata["not_sure"] else "-"
        )
    for metadata, m in logs["dahl"]:
        row = next(
            r for r in parser.tables["dahl"] if r["Temperature"] == f"{metadata['temperature']:.2f}"
        )
        assert (
            row["DAHL score"] == f"{m['dahl_score']:.3f}" and row["Scored"] == f"{m['scored']:.0f}"
        )
    assert len(parser.tables["dahl_temperatures"]) == 2
    [(_, m)] = logs["medhal"]
    overall = next(r for r in parser.tables["medhal"] if r["Source"] == "all")
    assert overall["F1"] == f"{m['f1']:.3f}" and overall["BLEU"] == f"{m['bleu']:.2f}"
    mednli = next(r for r in parser.tables["medhal"] if r["Source"] == "mednli")
    assert mednli["Recall"] == f"{m['source/mednli/recall']:.3f}"
    provenance = page.read_text()
    assert (
        "<svg" in provenance
        and "MedHallu F1 by difficulty" in provenance
        and "DAHL score by answering temperature" in provenance
    )
    assert "<script" not in provenance and "http://" not in provenance.replace(
        "http://www.w3.org/2000/svg", ""
    )


def test_csv_and_markdown(report_logs: Path, tmp_path: Path) -> None:
    files = write_report([report_logs], tmp_path / "r.csv", "csv")
    names = sorted(p.name for p in files)
    assert names == [
        "r_dahl.csv",
        "r_dahl_categories.csv",
        "r_dahl_temperatures.csv",
        "r_medhal.csv",
        "r_medhallu.csv",
    ]
    with (tmp_path / "r_medhallu.csv").open() as f:
        rows = list(csv.DictReader(f))
    logs = metrics_by_system(report_logs)
    assert sorted(float(r["Overall F1"]) for r in rows) == pytest.approx(
        sorted(m["f1"] for _, m in logs["medhallu"]), abs=1e-6
    )
    [md] = write_report([report_logs], tmp_path / "r.md", "markdown")
    assert "| Model | Knowledge | Not sure | Overall F1 |" in md.read_text()


def test_provenance_and_skips(report_logs: Path, tmp_path: Path) -> None:
    results = collect([report_logs])
    assert len(results.provenance) == 5
    medhallu = next(p for p in results.provenance if p.system == "medhallu")
    assert (
        len(medhallu.prompts["system"]) == 12
        and medhallu.dataset_fingerprint
        and len(medhallu.dataset_fingerprint) == 12
    )
    dahl = next(p for p in results.provenance if p.system == "dahl")
    assert set(dahl.prompts) == {"answer", "split", "check", "check_batch"} and dahl.roles == {
        "splitter": "mockllm/model",
        "checker": "mockllm/model",
    }
    with pytest.raises(DataError, match="no such log"):
        collect([tmp_path / "missing"])
