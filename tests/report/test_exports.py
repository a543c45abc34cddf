"""`report --format json` (every table and figure in one document) and `--format latex` (the
summary's headline figures with their intervals, for a paper); the formats written once."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import get_args

import pytest
from click.testing import CliRunner
from inspect_ai.log import list_eval_logs, read_eval_log

from medhalbench.cli import cli
from medhalbench.report import SUFFIXES, ReportFormat, collect, figures_frame, write_report
from medhalbench.results import log_metrics


def _metrics(folder: Path, task: str) -> list[tuple[dict, dict[str, float]]]:
    found = []
    for info in list_eval_logs(str(folder)):
        log = read_eval_log(info, header_only=True)
        if log.eval.task.endswith(task):
            m = log_metrics(log)
            found.append((log.eval.metadata or {}, m))
    return found


def _refuse(constant: str) -> None:
    raise ValueError(f"not JSON: {constant}")


def test_json_holds_every_table_and_figure_undefined_as_null_and_not_computed_left_out(
    report_logs: Path, tmp_path: Path
) -> None:
    [out] = write_report([report_logs], tmp_path / "report.json", "json")
    document = json.loads(out.read_text(), parse_constant=_refuse)  # no NaN: strict JSON
    tables = {t["slug"]: t for t in document["tables"]}
    assert {"summary_medhallu", "medhallu", "dahl", "dahl_temperatures", "medhal",
            "comparisons_medhallu", "compare_medhallu_1"} <= set(tables)  # fmt: skip
    medhallu = [r for r in tables["medhallu"]["rows"] if "published" not in r]
    for metadata, m in _metrics(report_logs, "medhallu"):
        written = bool(metadata.get("responses"))
        [row] = [r for r in medhallu if r["f1"] == pytest.approx(m["f1"])
                 and r["knowledge"] == ("yes" if metadata.get("knowledge") else "no")
                 and (r["model"] == "system/acme-detector") == written]  # fmt: skip
        assert row["f1_ci_low"] == pytest.approx(m["f1_ci_low"])
        assert isinstance(row["samples"], int)  # counts as whole numbers
        # Not computed without the not-sure option: left out, not null and not 0.
        assert ("response_rate" in row) == bool(metadata.get("not_sure"))
    # Undefined: null, with the reason in the table's notes.
    [(_, m)] = _metrics(report_logs, "medhal")
    assert math.isnan(m["source/sumpubmed/recall"])
    [sumpubmed] = [r for r in tables["medhal"]["rows"] if r.get("source") == "sumpubmed"]
    assert sumpubmed["recall"] is None
    assert any("Recall: no positive sample" in note for note in tables["medhal"]["notes"])
    published = [r for r in tables["medhallu"]["rows"] if "published" in r]
    assert published and all("paper" in r["published"] for r in published)
    # Every figure of every run, as the long table has them.
    frame = figures_frame(collect([report_logs]).runs)
    assert len(document["figures"]) == len(frame)
    assert set(document["figures"][0]) == set(frame.columns)


def test_latex_tables_of_the_headline_figures_with_their_intervals(
    report_logs: Path, tmp_path: Path
) -> None:
    [out] = write_report([report_logs], tmp_path / "summary.tex", "latex")
    text = out.read_text()
    body = "\n".join(line for line in text.splitlines() if not line.startswith("%"))
    # One table per benchmark, booktabs rules, a label each.
    assert body.count(r"\begin{table}") == 3 and body.count(r"\toprule") == 3
    assert {"tab:summary-medhallu", "tab:summary-dahl", "tab:summary-medhal"} <= set(
        re.findall(r"\\label\{([^}]*)\}", body)
    )
    for task in ("medhallu", "dahl", "medhal"):
        name = "dahl_score" if task == "dahl" else "f1"
        for _, m in _metrics(report_logs, task):
            figure = f"{m[name]:.3f}"
            if math.isfinite(m.get(f"{name}_ci_low", math.nan)):
                figure += (
                    rf" {{\footnotesize [{m[name + '_ci_low']:.3f}, {m[name + '_ci_high']:.3f}]}}"
                )
            assert figure in body, figure
    # Special characters escaped ("medhallu_illustrative"; "&" separates cells), the dot a
    # LaTeX dot, no bare Unicode mark.
    assert not re.search(r"(?<!\\)[_%#$]", body.replace("$\\cdot$", ""))
    assert "·" not in body and "–" not in body
    from medhalbench.report._latex import latex_text

    assert latex_text("a_b & 50% #1 {x} $ · – ‡ §") == (
        r"a\_b \& 50\% \#1 \{x\} \$ $\cdot$ -- \ddag{} \S{}"
    )
    # A model's name is text, never a command LaTeX runs.
    assert latex_text(r"openai-api/\input{/etc/passwd}") == (
        r"openai-api/\textbackslash{}input\{/etc/passwd\}"
    )


def test_the_formats_are_defined_once_and_each_has_its_default_file(
    report_logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    formats = get_args(ReportFormat)
    assert {"html", "csv", "markdown", "parquet", "json", "latex"} <= set(formats)
    assert set(SUFFIXES) == set(formats)
    command = cli.get_command(None, "report")  # type: ignore[arg-type]
    assert command is not None
    [option] = [p for p in command.params if p.name == "format"]
    assert tuple(option.type.option.choices) == formats  # type: ignore[attr-defined]
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["report", str(report_logs), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "report.json").read_text())["tables"]
    result = CliRunner().invoke(cli, ["report", str(report_logs), "--format", "latex"])
    assert result.exit_code == 0 and (tmp_path / "report.tex").is_file()


def test_text_cells_of_an_export_are_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    import pandas as pd

    from medhalbench.report._write import _redacted

    key = "sk-proj-EXPORTq8Zx41vN0cKe3xWm7"
    monkeypatch.setenv("EXPORT_API_KEY", key)
    frame = pd.DataFrame({"model": [f"openai-api/x ({key})", "b"], "f1": [0.5, float("nan")]})
    shown = _redacted(frame)
    assert key not in shown.to_csv() and "[redacted]" in shown.loc[0, "model"]
    assert shown["f1"].dtype == frame["f1"].dtype and shown.loc[0, "f1"] == 0.5


@pytest.mark.parametrize("fmt", ["html", "markdown", "latex"])
def test_a_page_acts_on_no_control_character_a_name_holds(tmp_path: Path, fmt: str) -> None:
    """Names from the data (a MedHal source here) reach a page escaped, as a terminal shows
    them: shown with `cat`, a report clears no screen and reorders no text."""
    from inspect_ai import eval as inspect_eval

    from helpers import scripted_model
    from medhalbench.medhal import medhal

    statements = tmp_path / "s.jsonl"
    rows = [
        {"id": f"x{i}", "statement": f"Scurvy is caused by vitamin {v}.", "label": v == "C",
         "explanation": None, "source": "med\x1b[2J\x1b[H\u202eqa"}
        for i, v in enumerate("CKCA")
    ]  # fmt: skip
    statements.write_text("".join(json.dumps(r) + "\n" for r in rows))
    inspect_eval(
        medhal(dataset=str(statements)), model=scripted_model(lambda _: "1"),
        log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    [written] = write_report([tmp_path / "logs"], tmp_path / f"r{SUFFIXES[fmt]}", fmt)  # type: ignore[arg-type]
    text = written.read_text()
    assert "\x1b" not in text and "\u202e" not in text
    assert "\\x1b" in text or fmt == "latex"  # shown as what it is (the summary holds no source)
