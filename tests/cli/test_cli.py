from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai.log import read_eval_log

from medhalbench._paths import shown_path
from medhalbench.cli import cli
from medhalbench.medhallu import medhallu_benchmark
from medhalbench.results import log_metrics


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_bad_dataset_is_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"Question": "Q?"}) + "\n")
    code, out = invoke(
        "eval", "medhallu", "--dataset", str(bad), "--log-dir", str(tmp_path / "logs")
    )
    assert code == 2
    assert f"error: {bad}, line 1, field 'Knowledge': missing" in out
    assert "Traceback" not in out


def test_missing_dataset(tmp_path: Path) -> None:
    code, out = invoke("eval", "medhallu", "--dataset", str(tmp_path / "nope.jsonl"))
    assert code == 2 and "no such file" in out


@pytest.mark.slow
def test_eval_prints_table_and_log_location(sample_path: str, tmp_path: Path) -> None:
    code, out = invoke(
        "eval", "medhallu", "--dataset", sample_path, "--limit", "2", "--not-sure",
        "--log-dir", str(tmp_path / "logs"), "--display", "none",
    )  # fmt: skip
    assert code == 0, out
    assert "Model(s) under test: embedded/smollm2" in out
    flat = " ".join(out.split())
    # The data as the report shows paths (relative to the current folder under it).
    assert f"MedHallu: embedded/smollm2 · {shown_path(sample_path)}" in flat
    assert "not sure yes" in flat and "4 samples" in flat
    for figure in ("F1", "Hard F1", "Response rate"):
        assert any(line.startswith(f"│ {figure} ") for line in out.splitlines()), figure
    [log_file] = (tmp_path / "logs").glob("*.eval")
    assert f"Log (success): {log_file}" in out.replace("\n", "")
    assert "inspect view --log-dir" in out
    # The same run as one wide table, with the authors' figures and the published rows.
    code, wide = invoke(
        "eval", "medhallu", "--dataset", sample_path, "--limit", "2", "--not-sure", "--wide",
        "--published", "--log-dir", str(tmp_path / "logs"), "--display", "none",
    )  # fmt: skip
    assert code == 0 and "Paper F1" in wide and "GPT-4o (published)" in wide


def test_no_model_means_the_embedded_default() -> None:
    from medhalbench.commands._run import split_models

    assert split_models(()) == ["embedded/smollm2"]
    assert split_models(("a/b,c/d", "e/f")) == ["a/b", "c/d", "e/f"]


@pytest.mark.slow
def test_inspect_cli_finds_the_task_through_the_entry_point(
    sample_path: str, tiny_model: str, tmp_path: Path
) -> None:
    """inspect's own command runs the task; its display closes with the headline figures
    alone, while the log keeps every figure with its interval."""
    inspect = Path(sys.executable).parent / "inspect"
    result = subprocess.run(
        [str(inspect), "eval", "medhalbench/medhallu", "--model", tiny_model,
         "-T", f"dataset={sample_path}", "-T", "limit=3", "--log-dir", str(tmp_path), "--display", "plain"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "120"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    [log_file] = tmp_path.glob("*medhallu*.eval")
    log = read_eval_log(str(log_file))
    assert log.status == "success" and len(log.samples) == 6
    panel = result.stdout[result.stdout.rindex("detection_verdict") :]
    shown = [line.split()[0] for line in panel.splitlines()[1:] if re.match(r"\w+ +[\d.n]", line)]
    assert shown and shown == [f for f in medhallu_benchmark.headline if f in shown]
    metrics = log.results.scores[0].metrics if log.results else {}
    assert shown == list(metrics)
    every = log_metrics(log)
    assert {f"{f}_ci_low" for f in shown} <= set(every) and len(every) > 4 * len(shown)
    assert all(every[f] == pytest.approx(metrics[f].value, nan_ok=True) for f in shown)


@pytest.mark.slow
def test_dahl_temperature_sweep_leaves_one_log_each(tmp_path: Path) -> None:
    from medhalbench.examples import illustrative

    code, out = invoke(
        "eval", "dahl", "--dataset", illustrative("dahl_illustrative.csv"), "--limit", "1",
        "--max-tokens", "32", "--temperatures", "0.2,0.9", "--log-dir", str(tmp_path), "--display", "none",
    )  # fmt: skip
    assert code == 0, out
    assert "DAHL score by temperature" in out and "DAHL: embedded/smollm2" in out
    assert "Splitter model: embedded/smollm2" in out and "Checker model: embedded/smollm2" in out
    logs = [read_eval_log(str(p)) for p in tmp_path.glob("*dahl*.eval")]
    # What was sent: inspect's effective config, not a copy in the metadata.
    assert sorted(log.plan.config.temperature for log in logs) == [0.2, 0.9]
    assert all("temperature" not in log.eval.metadata for log in logs)
    assert all(log.status == "success" for log in logs)


def test_dahl_agreement_needs_matches(tmp_path: Path) -> None:
    code, out = invoke(
        "dahl", "agreement", "--auto", str(tmp_path / "missing.eval"), "--human", "x.csv"
    )
    assert code == 2 and "does not exist" in out


@pytest.mark.parametrize("name", ["medhallu", "dahl", "medhal"])
def test_dataset_example_names_the_packaged_example_as_in_a_suite(name: str) -> None:
    from medhalbench.registry import benchmark

    def dry_run(dataset: str) -> tuple[int, str]:
        code, out = invoke("eval", name, "--dataset", dataset, "--dry-run")
        # inspect names its hooks once a process, before whichever command comes first.
        return code, out.split("\n\n", 1)[1] if out.startswith("inspect_ai v") else out

    code, out = dry_run("example")
    assert code == 0 and "samples" in out, out
    example = benchmark(name).example
    assert example is not None
    assert dry_run(example) == (code, out)
    code, help_text = invoke("eval", name, "--help")
    assert "'example': the packaged example" in " ".join(help_text.split())
