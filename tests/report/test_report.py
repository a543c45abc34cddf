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
from medhalbench.results import log_metrics, run_result


class Tables(HTMLParser):
    """Cells of every table in a page, by table id: rows of {column: text} (a table shown in
    parts, `ID`, `ID-part2`, ..., read as one: each row's cells of every part)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[dict[str, str]]] = {}
        self.table: str | None = None
        self.column: str | None = None
        self.row: dict[str, str] = {}
        self.index = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table":
            table, part, _ = (a.get("id") or "").partition("-part")
            self.table, self.index = table, 0
            if not part:
                self.tables[self.table] = []
        elif tag == "tr":
            self.row = {}
        elif tag == "td":
            self.column = a.get("data-column")

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr" and self.row and self.table is not None:
            rows = self.tables[self.table]
            if self.index < len(rows):  # a later part: the row's other cells
                rows[self.index].update(self.row)
            else:
                rows.append(self.row)
            self.index += 1
        elif tag == "td":
            self.column = None

    def handle_data(self, data: str) -> None:
        if self.column:
            self.row[self.column] = self.row.get(self.column, "") + data


def metrics_by_system(folder: Path) -> dict[str, list]:
    out: dict[str, list] = {}
    for info in list_eval_logs(str(folder)):
        log = read_eval_log(info)
        m = log_metrics(log)
        # The run's settings as the report reads them (generation settings as sent).
        out.setdefault(log.eval.task.split("/")[-1], []).append((run_result(log).settings, m))
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
    assert len(runs) == 3 and len(published) == len(
        benchmark("medhallu").implementation.published()
    )
    assert len(parser.tables["medhallu"]) == 3
    for metadata, m in logs["medhallu"]:
        row = next(
            r for r in runs
            if r["Knowledge"] == ("yes" if metadata["knowledge"] else "no")
            and (r["Model"] == "system/acme-detector") == bool(metadata["responses"])
        )  # fmt: skip
        # Every figure column shows its interval, or a mark where it has none.
        hard = (
            with_interval(m, "hard_f1")
            if math.isfinite(m["hard_f1_ci_low"])
            else f"{m['hard_f1']:.3f} °"
        )
        assert row["F1"] == with_interval(m, "f1") and row["Hard F1"] == hard
        assert row["Paper F1"] == with_interval(m, "paper_f1")
        # Not computed without the not-sure option: empty, not "–" and not 0.
        assert row.get("Response rate", "") == (
            with_interval(m, "response_rate") if metadata["not_sure"] else ""
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
    # The temperature table: a row per model (and data, ...), a column per temperature.
    [sweep] = parser.tables["dahl_temperatures"]
    assert sweep["Run"] == "mockllm/model"
    for metadata, m in logs["dahl"]:
        assert sweep[f"temperature {metadata['temperature']:g}"] == with_interval(m, "dahl_score")
    [(_, m)] = logs["medhal"]
    overall = next(
        r for r in parser.tables["medhal"] if r["Source"] == "all" and r["Model"] == "mockllm/model"
    )
    assert overall["FM F1"].startswith(f"{m['format_matching_f1']:.3f}")
    assert overall["BLEU"].startswith(f"{m['bleu']:.3f}")
    mednli = next(r for r in parser.tables["medhal_all"] if r["Source"] == "mednli")
    assert mednli["Recall"].startswith(f"{m['source/mednli/recall']:.3f}")
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
    assert overall["FM precision"] == with_interval(m, "format_matching_precision").replace(
        "0.000 [", "0.000 ‡ [", 1
    )
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
    compared = {s: r for s, r in parser.tables.items() if s.startswith("compare_")}
    assert sorted(compared) == ["compare_dahl_1", "compare_medhallu_1"]
    # The two DAHL runs judged the same questions and differ in temperature alone.
    assert [r["Figure"] for r in compared["compare_dahl_1"]] == ["dahl_score", "paper_dahl_score"]
    assert "DAHL, temperature: 0.2 vs 0.8: A = mockllm/model · temperature 0.2" in html
    # The detector's verdicts written elsewhere are compared with the model's run on the
    # same rows: they differ in what made the replies alone.
    assert (
        "MedHallu, model: mockllm/model vs system/acme-detector: A = mockllm/model" in html
        or "MedHallu, model: system/acme-detector vs mockllm/model" in html
    )
    medhallu = compared["compare_medhallu_1"]
    assert medhallu[-1]["Figure"].startswith("McNemar")
    # Every p-value is adjusted for the comparisons made (Holm), and says over what.
    p_values = [float(r["p"]) for r in medhallu]
    adjusted = [float(r["p (Holm)"]) for r in medhallu]
    assert all(a >= p - 1e-12 for a, p in zip(adjusted, p_values, strict=True))
    assert f"over the {len(medhallu)} tests of this comparison" in html
    # The other MedHallu pairs differ in two things or more: no single cause, not compared.
    assert "Not compared: 2 pair(s) that differ in more than one thing." in html


def test_the_summary_comes_first_with_each_key_figure_and_the_published_range(
    report_logs: Path, tmp_path: Path
) -> None:
    [page] = write_report([report_logs], tmp_path / "report.html")
    html = page.read_text()
    assert html.index('id="section-summary"') < html.index('id="section-medhallu"')
    parser = Tables()
    parser.feed(html)
    logs = metrics_by_system(report_logs)
    # MedHallu: a column per condition; the detector's outputs written elsewhere share the
    # column of the model's run in the same condition, on a row of their own.
    medhallu = {r["Run"]: r for r in parser.tables["summary_medhallu"]}
    acme = next(m for meta, m in logs["medhallu"] if meta["responses"])
    plain = next(
        m for meta, m in logs["medhallu"] if not meta["responses"] and not meta["knowledge"]
    )
    assert medhallu["system/acme-detector · outputs written elsewhere"][
        "knowledge no · not sure no"
    ] == with_interval(acme, "f1")
    assert medhallu["mockllm/model"]["knowledge no · not sure no"] == with_interval(plain, "f1")
    assert (
        medhallu["system/acme-detector · outputs written elsewhere"].get(
            "knowledge yes · not sure yes", ""
        )
        == ""
    )
    # The range the paper published stands beside runs on the paper's data only: these
    # judged the packaged example rows (`test_the_published_range_...` has the other case).
    paper = parser.tables["summary_medhallu_paper"]
    assert not [r for r in paper if r["Run"].startswith("Published")]
    # DAHL: one column per condition (the runs differ only in temperature: one), the judges
    # named under the table, and the two temperatures as rows.
    dahl = parser.tables["summary_dahl"]
    assert sorted(r["Run"] for r in dahl) == [
        "mockllm/model · temperature 0.2",
        "mockllm/model · temperature 0.8",
    ]
    assert "Judged by mockllm/model (splitter, checker) in every run." in unescape(html)
    [(_, medhal)] = logs["medhal"]
    [row] = parser.tables["summary_medhal"]
    assert row["MedHal F1"] == with_interval(medhal, "f1")


def test_the_published_range_stands_beside_runs_on_the_papers_data_only(
    report_logs: Path, tmp_path: Path
) -> None:
    from inspect_ai.log import read_eval_log, write_eval_log

    from medhalbench.settings import SETTINGS_KEY

    # A run of the paper's data (its hub id), as its log records it.
    for path in report_logs.glob("*medhallu*.eval"):
        log = read_eval_log(str(path))
        metadata = log.eval.metadata or {}
        if metadata[SETTINGS_KEY].get("responses") or metadata[SETTINGS_KEY].get("knowledge"):
            continue
        settings = {**metadata[SETTINGS_KEY], "dataset": "UTAustin-AIHealth/MedHallu"}
        log.eval.metadata = {**metadata, SETTINGS_KEY: settings}
        write_eval_log(log, str(tmp_path / path.name))
    [page] = write_report([tmp_path], tmp_path / "report.html")
    parser = Tables()
    parser.feed(page.read_text())
    paper = parser.tables["summary_medhallu_paper"]
    published = [r.metrics["paper_f1"] for r in benchmark("medhallu").implementation.published()
                 if r.settings["knowledge"] == "no" and r.settings["not_sure"] == "no"]  # fmt: skip
    lowest, highest = (r for r in paper if r["Run"].startswith("Published"))
    assert lowest["MedHallu F1"] == f"{min(published):.3f}"  # one condition: one column
    assert highest["MedHallu F1"] == f"{max(published):.3f}"


def test_csv_tables_have_plain_names_and_whole_counts_and_the_long_table_is_typed(
    report_logs: Path, tmp_path: Path
) -> None:
    import pandas as pd

    from medhalbench.report import FIGURE_COLUMNS

    files = write_report([report_logs], tmp_path / "r.csv", "csv")
    names = sorted(p.name for p in files)
    assert {"r_summary_medhallu.csv", "r_summary_medhallu_paper.csv", "r_medhallu.csv",
            "r_dahl.csv", "r_medhal.csv", "r_figures.csv"} <= set(names)  # fmt: skip
    assert any(n.startswith("r_compare_medhallu") for n in names)
    logs = metrics_by_system(report_logs)
    with (tmp_path / "r_medhallu.csv").open() as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames or []
        rows = [r for r in reader if not r["published"]]
    # Plain names, intervals in columns of their own, counts as whole numbers.
    assert all(re.fullmatch(r"[a-z0-9_]+", h) for h in header), header
    assert {"f1", "f1_ci_low", "f1_ci_high", "paper_f1", "samples"} <= set(header)
    assert sorted(float(r["f1"]) for r in rows) == pytest.approx(
        sorted(m["f1"] for _, m in logs["medhallu"]), abs=1e-6
    )
    assert {r["samples"] for r in rows} == {"24"}
    with (tmp_path / "r_medhal.csv").open() as f:
        by_source = {r["source"]: r for r in csv.DictReader(f) if not r["published"]}
    assert by_source["all"]["fm_precision"] == "0.000000"
    assert by_source["sumpubmed"]["recall"] == "NaN"  # undefined: NaN for CSV readers, never 0
    # The summary's published range: numbers in numeric columns, never a text range.
    paper = pd.read_csv(tmp_path / "r_summary_medhallu_paper.csv")
    shown = paper.drop(columns=[c for c in ("run", "published") if c in paper])
    assert shown.select_dtypes("number").shape[1] == shown.shape[1], shown.dtypes
    # The long table: one row per run and figure, typed as declared.
    figures = pd.read_csv(tmp_path / "r_figures.csv").astype(FIGURE_COLUMNS)
    ours = figures[~figures.published]
    assert set(ours.benchmark) == {"medhallu", "dahl", "medhal"}
    f1 = ours[(ours.benchmark == "medhallu") & (ours.figure == "f1")]
    assert sorted(f1.value) == pytest.approx(sorted(m["f1"] for _, m in logs["medhallu"]))
    assert set(f1.n) == {24} and set(f1.paper_figure) == {"paper_f1"}
    hard = ours[(ours.benchmark == "medhallu") & (ours.figure == "hard_f1")]
    assert set(hard.n) == {
        int(m["hard_samples"]) for _, m in logs["medhallu"]
    }  # the difficulty's own count
    assert figures[figures.published].source.str.contains("paper, Table").all()
    [parquet] = write_report([report_logs], tmp_path / "figures.parquet", "parquet")
    loaded = pd.read_parquet(parquet)
    assert dict(loaded.dtypes.astype(str)) == FIGURE_COLUMNS
    assert len(loaded) == len(figures)
    [md] = write_report([report_logs], tmp_path / "r.md", "markdown")
    text = md.read_text()
    medhallu = text.split("### MedHallu detection")[1]
    header = [cell.strip() for cell in medhallu.split("\n")[2].strip("|").split("|")]
    assert header[:10] == [
        "Model", "Settings", "Judges", "Dataset", "Difficulty", "Knowledge", "Not sure",
        "Structured", "Prompts", "F1",
    ]  # fmt: skip
    assert "– undefined:" in text


def test_provenance_and_skips(report_logs: Path, tmp_path: Path) -> None:
    results = collect([report_logs])
    assert len(results.provenance) == 6
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
    # Outputs written elsewhere: no generation setting is listed (nothing was generated).
    acme = next(p for p in results.provenance if p.model == "system/acme-detector")
    assert "temperature" not in acme.settings and "knowledge" in acme.settings
    assert "temperature 0.3" in medhallu.settings_text  # as sent
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
