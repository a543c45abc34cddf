"""`medhalbench compare`: two runs on the same samples, matched by id."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from click.testing import CliRunner
from inspect_ai import eval

from helpers import hallucinated_answers, scripted_model
from medhalbench.cli import cli
from medhalbench.examples import illustrative
from medhalbench.medhallu import medhallu
from medhalbench.report import compare_logs

HALLUCINATED = hallucinated_answers(illustrative("medhallu_illustrative.jsonl"))


def detector(right: bool):
    def reply(prompt: str) -> str:
        hallucinated = any(a in prompt for a in HALLUCINATED)
        return "1" if hallucinated == right else "0"

    return scripted_model(reply)


def test_compare_matches_samples_and_reports_the_unmatched(tmp_path: Path) -> None:
    [good] = eval(
        medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=10), model=detector(True),
        log_dir=str(tmp_path / "a"), display="none",
    )  # fmt: skip
    [bad] = eval(
        medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=8), model=detector(False),
        log_dir=str(tmp_path / "b"), display="none",
    )  # fmt: skip
    comparison = compare_logs(good.location, bad.location, resamples=500)
    assert (comparison.matched, comparison.only_a, comparison.only_b) == (16, 4, 0)
    by_name = {d.name: d for d in comparison.differences}
    assert by_name["accuracy"].a == 1.0 and by_name["accuracy"].b == 0.0
    assert by_name["accuracy"].difference == 1.0 and by_name["accuracy"].p_value < 0.05
    assert comparison.mcnemar is not None and (
        comparison.mcnemar.a_only,
        comparison.mcnemar.b_only,
    ) == (16, 0)
    result = CliRunner().invoke(cli, ["compare", good.location, bad.location, "--bootstrap", "200"])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "16 samples scored in both runs (left out: 4 only in A, 0 only in B)" in flat
    # Named by the samples each run scored (10 and 8 rows, both answers of each).
    assert (
        "McNemar" in flat
        and "A = mockllm/model · samples 20; B = mockllm/model · samples 16" in flat
    )
    assert "only in their samples (samples 20 vs 16; compared on those both scored)" in flat
    # Each p-value beside its Holm adjustment over the comparison's tests.
    assert "p (Holm)" in flat and "over the" in flat and "tests of this comparison" in flat
    # For analysis: CSV with plain names, JSON with every field, Markdown for a paper.
    result = CliRunner().invoke(
        cli, ["compare", good.location, bad.location, "--bootstrap", "200", "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0]) == ["figure", "a", "b", "a_b", "a_b_ci_low", "a_b_ci_high", "p", "p_holm"]
    accuracy = next(r for r in rows if r["figure"] == "accuracy")
    assert float(accuracy["a_b"]) == 1.0 and float(accuracy["p_holm"]) >= float(accuracy["p"])
    out = tmp_path / "a_vs_b.json"
    result = CliRunner().invoke(
        cli, ["compare", good.location, bad.location, "--bootstrap", "200", "--format", "json",
              "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    saved = json.loads(out.read_text())
    assert saved["matched"] == 16 and saved["mcnemar"]["a_only"] == 16
    assert len(saved["adjusted"]) == len(saved["differences"]) + 1
    result = CliRunner().invoke(
        cli, ["compare", good.location, bad.location, "--format", "markdown", "--bootstrap", "200"]
    )
    assert result.exit_code == 0 and "| Figure" in result.stdout and "p (Holm)" in result.stdout


def test_compare_refuses_logs_of_different_benchmarks(tmp_path: Path) -> None:
    bad = tmp_path / "not_a_log.eval"
    bad.write_text("nothing")
    result = CliRunner().invoke(cli, ["compare", str(bad), str(bad)])
    assert result.exit_code == 2 and "not an inspect log" in result.output
