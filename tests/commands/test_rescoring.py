"""`medhalbench rescore`: a log's stored replies read again by the current reader, calling no
model (the server that answered is gone by then), figures before and after."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai.log import read_eval_log, write_eval_log

from helpers import log_metrics, stub_at
from medhalbench.cli import cli
from medhalbench.dahl._metrics import DahlScoreMetadata
from medhalbench.dahl._rescore import reread
from medhalbench.examples import illustrative
from medhalbench.judging import reader_version
from realistic_model import RealisticModel, detection_truth

DATASET = illustrative("medhallu_illustrative.jsonl")


@pytest.fixture(scope="module")
def medhallu_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A MedHallu run against a realistic model in many styles; the server stops after it."""
    logs = tmp_path_factory.mktemp("rescore")
    with stub_at(RealisticModel(detection=detection_truth(DATASET))) as base_url:
        result = CliRunner(env={"REALISTIC_API_KEY": "sk-local"}).invoke(
            cli,
            [
                "eval", "medhallu", "--dataset", DATASET, "--limit", "6",
                "--model", "openai-api/realistic/llama-3", "--model-base-url", base_url,
                "--log-dir", str(logs), "--bootstrap", "0", "--no-cache", "--display", "none",
            ],
        )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    [log] = logs.glob("*.eval")
    return log


def rescore(*args: str) -> tuple[int, str, str]:
    result = CliRunner(env={"REALISTIC_API_KEY": None}).invoke(cli, ["rescore", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_log_read_by_another_reader_gets_the_current_readings(
    medhallu_log: Path, tmp_path: Path
) -> None:
    original = read_eval_log(str(medhallu_log))
    stale = original.model_copy(deep=True)
    stale.eval.metadata = {**(stale.eval.metadata or {}), "reader_version": "0ld"}
    for sample in (stale.samples or [])[:3]:  # what an older reader read of three replies
        found = sample.scores["detection_verdict"]  # type: ignore[index]
        found.value, found.answer = 1 - int(found.value), None  # type: ignore[arg-type]
    old_path, new_path = tmp_path / "stale.eval", tmp_path / "reread.eval"
    write_eval_log(stale, str(old_path))
    code, out, err = rescore(str(old_path), "--out", str(new_path))
    assert code == 0, err
    assert "3 of 12 samples read differently" in out and "reader 0ld ->" in out
    reread_log = read_eval_log(str(new_path))
    before, after = log_metrics(original), log_metrics(reread_log)
    assert after.keys() == before.keys()
    assert all(after[k] == pytest.approx(before[k], nan_ok=True) for k in before)
    assert reread_log.eval.metadata["reader_version"] == reader_version()  # type: ignore[index]
    assert reread_log.eval.model == original.eval.model  # the header is the run's


def test_an_unchanged_reader_moves_no_figure(medhallu_log: Path, tmp_path: Path) -> None:
    code, out, err = rescore(str(medhallu_log), "--out", str(tmp_path / "same.eval"))
    assert code == 0, err
    assert "0 of 12 samples read differently" in out and "No figure moved." in out


def test_a_file_that_is_no_run_is_refused_in_one_line(tmp_path: Path) -> None:
    code, _, err = rescore(str(tmp_path / "missing.eval"))
    assert code == 2 and "missing.eval" in err and "Traceback" not in err


def test_dahl_units_are_judged_again_from_the_checker_replies_kept() -> None:
    old = DahlScoreMetadata(
        status="scored", units=3, true=0, false=0, unknown=3, length=40, category="x",
        precision=0.0, units_text=["a", "b", "c"], verdicts=["unknown"] * 3,
        checker_replies=["True.", "False — the dose is 5 mg.", "Correct."],
    )  # fmt: skip
    again = reread(old)
    assert again is not None
    kept = DahlScoreMetadata.model_validate(again.metadata)
    assert kept.verdicts == ["true", "false", "true"]
    assert (kept.true, kept.false, kept.unknown) == (2, 1, 0)
    assert again.value == pytest.approx(2 / 3)
    nothing_checked = DahlScoreMetadata(status="declined")
    assert reread(nothing_checked) is None
