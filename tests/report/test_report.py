from __future__ import annotations

import csv
import math
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from medhalbench import DataError
from medhalbench.registry import benchmark
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
        out.setdefault(log.eval.task.split("/")[-1], []).append((log.eval.metadata, m))
    return out


def with_interval(m: dict[str, float], name: str) -> str:
    return f"{m[name]:.3f} [{m[name + '_ci_low']:.3f}, {m[name + '_ci_high']:.3f}]"


def test_html_tables_hold_the_numbers_in_the_logs(report_logs: Path, tmp_path: Path) -> None:
    [page] = write_report([report_logs], tmp_path / "report.html")
    parser = Tables()
    parser.feed(page.read_text())
    logs = metrics_by_system(report_logs)
    # Our runs with every column (folded), and the published rows apart (folded).
    runs = parser.tables["medhallu_all"]
    published = parser.tables["medhallu_published"]
    assert all("(published)" not in r["Model"] for r in runs)
    assert len(runs) == 2 and len(published) == len(benchmark("medhallu").published())
    assert len(parser.tables["medhallu"]) == 2
    for metadata, m in logs["medhallu"]:
        row = next(r for r in runs if r["Knowledge"] == ("yes" if metadata["knowledge"] else "no"))
        assert row["F1"] == with_interval(m, "f1") and row["Hard F1"] == f"{m['hard_f1']:.3f}"
        assert row["Paper F1"] == with_interval(m, "paper_f1")
        # Not computed without the not-sure option: empty, not "–" and not 0.
        assert row.get("Response rate", "") == (
            f"{m['response_rate']:.3f}" if metadata["not_sure"] else ""
        )
    gpt4o = next(
        r
        for r in published
        if r["Model"] == "GPT-4o (published)" and r["Knowledge"] == "no" and r["Not sure"] == "no"
    )
    assert (
        gpt4o["Paper F1"] == "0.737"
        and gpt4o.get("F1", "") == ""
        and gpt4o["Log"] == "MedHallu paper, Table 2"
    )
    for metadata, m in logs["dahl"]:
        row = next(
            r for r in parser.tables["dahl"] if r["Temperature"] == f"{metadata['temperature']:.2f}"
        )
        assert (
            row["DAHL score"] == with_interval(m, "dahl_score")
            and row["Scored"] == f"{m['scored']:.0f}"
        )
    assert len(parser.tables["dahl_temperatures"]) == 2
    [(_, m)] = logs["medhal"]
    overall = next(
        r for r in parser.tables["medhal"] if r["Source"] == "all" and r["Model"] == "mockllm/model"
    )
    assert overall["FM F1"].startswith(f"{m['format_matching_f1']:.3f}")
    assert overall["BLEU"].startswith(f"{m['bleu']:.3f}")
    mednli = next(r for r in parser.tables["medhal_all"] if r["Source"] == "mednli")
    assert mednli["Recall"] == f"{m['source/mednli/recall']:.3f}"
    html = page.read_text()
    assert (
        "<svg" in html
        and "MedHallu F1 by difficulty" in html
        and "DAHL score by answering temperature" in html
    )
    # Self-contained: no script, nothing fetched (namespace names are not requests).
    assert "<script" not in html and not re.search(r"(src|href|url)\(?=?[\"']?https?:", html)


def test_undefined_figures_show_as_a_dash_with_the_reason(
    report_logs: Path, tmp_path: Path
) -> None:
    [page] = write_report([report_logs], tmp_path / "report.html")
    html = page.read_text()
    parser = Tables()
    parser.feed(html)
    m = next(m for _, m in metrics_by_system(report_logs)["medhal"])
    # The scripted judge always answers NO: nothing is predicted factual (the authors'
    # positive); their code prints 0 there, marked as such.
    assert m["format_matching_precision"] == 0.0
    assert m["format_matching_precision_zero_for_undefined"] == 1.0
    rows = parser.tables["medhal_all"]
    overall = next(r for r in rows if r["Source"] == "all")
    assert overall["FM precision"] == "0.000 ‡"
    assert "the paper's code prints 0 where the figure is undefined" in unescape(html)
    # A source with no non-factual sample: our recall is undefined, a dash with the reason.
    assert math.isnan(m["source/sumpubmed/recall"])
    assert next(r for r in rows if r["Source"] == "sumpubmed")["Recall"] == "–"
    assert 'title="undefined: no positive sample"' in html
    assert "– undefined: Recall: no positive sample" in html


def test_runs_that_differ_in_one_thing_are_compared_and_named_by_it(
    report_logs: Path, tmp_path: Path
) -> None:
    [page] = write_report([report_logs], tmp_path / "report.html")
    html = unescape(page.read_text())
    parser = Tables()
    parser.feed(html)
    # The two DAHL runs judged the same questions and differ in temperature alone.
    [(slug, rows)] = [(s, r) for s, r in parser.tables.items() if s.startswith("compare_")]
    assert slug == "compare_dahl_1"
    assert [r["Figure"] for r in rows] == ["dahl_score", "paper_dahl_score"]
    assert "DAHL, temperature: 0.2 vs 0.8: A = mockllm/model · temperature 0.2" in html
    # The MedHallu runs differ in knowledge and not-sure at once: no single cause, not compared.
    assert "Not compared: 1 pair(s) that differ in more than one thing." in html


def test_the_summary_comes_first_with_each_key_figure_and_the_published_range(
    report_logs: Path, tmp_path: Path
) -> None:
    [page] = write_report([report_logs], tmp_path / "report.html")
    html = page.read_text()
    assert html.index('id="section-summary"') < html.index('id="section-medhallu"')
    parser = Tables()
    parser.feed(html)
    [ours, published] = parser.tables["summary"]
    logs = metrics_by_system(report_logs)
    [(_, medhal)] = logs["medhal"]
    # Columns are grouped by benchmark and setting: two cells per group (ours, paper).
    assert ours["Model"] == "mockllm/model"
    gpt = [r.metrics["paper_f1"] for r in benchmark("medhallu").published()
           if r.settings["knowledge"] == "no" and r.settings["not_sure"] == "no"]  # fmt: skip
    group = "MedHallu F1 · knowledge no · not sure no: Paper protocol"
    assert published[group] == f"{min(gpt):.3f}–{max(gpt):.3f} ({len(gpt)})"
    assert ours["MedHal F1: Ours"] == with_interval(medhal, "f1")


def test_csv_and_markdown(report_logs: Path, tmp_path: Path) -> None:
    files = write_report([report_logs], tmp_path / "r.csv", "csv")
    names = sorted(p.name for p in files)
    assert names == [
        "r_compare_dahl_1.csv",
        "r_dahl.csv",
        "r_dahl_categories.csv",
        "r_dahl_temperatures.csv",
        "r_medhal.csv",
        "r_medhallu.csv",
        "r_summary.csv",
    ]
    with (tmp_path / "r_medhallu.csv").open() as f:
        rows = [r for r in csv.DictReader(f) if not r["Published"]]
    logs = metrics_by_system(report_logs)
    assert sorted(float(r["F1"]) for r in rows) == pytest.approx(
        sorted(m["f1"] for _, m in logs["medhallu"]), abs=1e-6
    )
    assert sorted(float(r["F1 CI low"]) for r in rows) == pytest.approx(
        sorted(m["f1_ci_low"] for _, m in logs["medhallu"]), abs=1e-6
    )
    with (tmp_path / "r_medhal.csv").open() as f:
        overall = next(r for r in csv.DictReader(f) if r["Source"] == "all" and not r["Published"])
    assert overall["Recall"] != "NaN" and overall["FM precision"] == "0.000000"
    by_source = {r["Source"]: r for r in csv.DictReader((tmp_path / "r_medhal.csv").open())}
    assert by_source["sumpubmed"]["Recall"] == "NaN"  # undefined: NaN for CSV readers, never 0
    [md] = write_report([report_logs], tmp_path / "r.md", "markdown")
    text = md.read_text()
    medhallu = text.split("### MedHallu detection")[1]
    header = [cell.strip() for cell in medhallu.split("\n")[2].strip("|").split("|")]
    assert header[:9] == [
        "Model", "Judges", "Dataset", "Difficulty", "Knowledge", "Not sure", "Structured",
        "Prompts", "F1",
    ]  # fmt: skip
    assert "– undefined:" in text


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


def test_a_cut_off_log_in_the_folder_is_left_out_with_one_warning(
    report_logs: Path, tmp_path: Path
) -> None:
    import shutil

    from click.testing import CliRunner

    from medhalbench.cli import cli

    folder = tmp_path / "logs"
    shutil.copytree(report_logs, folder)
    first = sorted(folder.glob("*.eval"))[0]
    cut = folder / "2099-01-01T00-00-00-00-00_cut.eval"
    cut.write_bytes(first.read_bytes()[:300])
    result = CliRunner().invoke(cli, ["report", str(folder), "--out", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.stderr
    [warning] = [line for line in result.stderr.splitlines() if line.strip()]
    assert warning.startswith("warning: left out") and cut.name in warning
    assert f"{cut} (not an inspect log" in warning and "file://" not in warning  # a plain path
    assert (tmp_path / "r.html").is_file()


def test_nothing_finished_to_report_is_an_error_and_no_file(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from medhalbench.cli import cli

    (tmp_path / "logs").mkdir()
    cut = tmp_path / "logs" / "2099-01-01T00-00-00-00-00_cut.eval"
    cut.write_bytes(b"PK\x03\x04 cut")
    out = tmp_path / "r.md"
    result = CliRunner().invoke(
        cli, ["report", str(tmp_path / "logs"), "--out", str(out), "--format", "markdown"]
    )
    assert (
        result.exit_code == 2 and "no finished run" in result.stderr and cut.name in result.stderr
    )
    assert not out.exists() and "Wrote" not in result.stdout
