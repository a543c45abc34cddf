"""A run's settings are one typed record: a setting of each kind, given by every route (our
option, `-T`, a suite, `inspect eval` with inspect's own `--temperature`), reaches the log's
record, the run's settings, `load_runs`, the report's reading of the run and `compare` with
the same value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai.log import read_eval_log

import medhalbench
from helpers import stub_at
from medhalbench.cli import cli
from medhalbench.dahl import DahlSettings
from medhalbench.examples import illustrative
from medhalbench.medhallu import MedHalluSettings
from medhalbench.report import settings_of
from medhalbench.results import run_result
from medhalbench.settings import SETTINGS_KEY, Settings

DATA = illustrative("medhallu_illustrative.jsonl")
MODEL = "openai-api/local/m"


def _routes(base_url: str, folder: Path) -> dict[str, list[str]]:
    given = ["--model", MODEL, "--model-base-url", base_url, "--display", "none"]
    suite = folder / "suite.yaml"
    suite.write_text(
        f"log_dir: {folder / 'suite'}\n"
        f"settings: {{model_base_url: {base_url}}}\n"
        f"models: [{{name: {MODEL}}}]\n"
        "runs:\n"
        f"  - {{benchmark: medhallu, args: {{dataset: {DATA}, temperature: 0.7, not_sure: true,"
        " limit: 2, bootstrap: 50}}\n"
    )
    return {
        "option": [
            "eval",
            "medhallu",
            "--dataset",
            DATA,
            "--temperature",
            "0.7",
            "--not-sure",
            "--limit",
            "2",
            "--bootstrap",
            "50",
            "--log-dir",
            str(folder / "option"),
            *given,
        ],  # fmt: skip
        "-T": [
            "eval",
            "medhallu",
            "-T",
            f"dataset={DATA}",
            "-T",
            "temperature=0.7",
            "-T",
            "not_sure=true",
            "-T",
            "limit=2",
            "-T",
            "bootstrap=50",
            "--log-dir",
            str(folder / "-T"),
            *given,
        ],  # fmt: skip
        "suite": ["run", str(suite)],
    }


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("routes")
    found: dict[str, Path] = {}
    with pytest.MonkeyPatch.context() as patch, stub_at(lambda messages: "1") as base_url:
        patch.setenv("LOCAL_API_KEY", "test-key")
        for route, args in _routes(base_url, folder).items():
            result = CliRunner().invoke(cli, args)
            assert result.exit_code == 0, (route, result.output)
        from inspect_ai._cli.main import inspect

        result = CliRunner().invoke(
            inspect,
            ["eval", "medhalbench/medhallu", "-T", f"dataset={DATA}", "-T", "not_sure=true",
             "-T", "limit=2", "-T", "bootstrap=50", "--temperature", "0.7", "--model", MODEL,
             "--model-base-url", base_url, "--log-dir", str(folder / "inspect"),
             "--display", "none"],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
    for route in ("option", "-T", "suite", "inspect"):
        [found[route]] = (folder / route).glob("*.eval")
    return found


ROUTES = ["option", "-T", "suite", "inspect"]


@pytest.mark.parametrize("route", ROUTES)
def test_each_route_reaches_the_record_and_every_reader_of_it(
    route: str, logs: dict[str, Path]
) -> None:
    log = read_eval_log(str(logs[route]))
    record = MedHalluSettings.read(log.eval.metadata[SETTINGS_KEY])
    # The record: the condition, the selection and how the run ran, as given.
    assert (record.not_sure, record.limit, record.bootstrap) == (True, 2, 50)
    # The generation settings as sent, whichever route set them (inspect's own option
    # overrides the task's value: the run reports what was sent).
    run = run_result(log)
    assert run.settings["temperature"] == 0.7 and log.plan.config.temperature == 0.7
    row = medhalbench.load_runs(logs[route]).iloc[0]
    assert (row["temperature"], bool(row["not_sure"]), row["limit"]) == (0.7, True, 2)
    read = settings_of(run)
    assert read.condition["not_sure"] == "yes" and read.replies["temperature"] == "0.7"


def test_runs_of_every_route_are_the_same_run(logs: dict[str, Path]) -> None:
    runs = [settings_of(run_result(read_eval_log(str(logs[r])))) for r in ROUTES]
    assert all(r.samples == runs[0].samples for r in runs)
    assert all((r.condition, r.replies) == (runs[0].condition, runs[0].replies) for r in runs)
    result = CliRunner().invoke(
        cli, ["compare", str(logs["option"]), str(logs["inspect"]), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    compared = json.loads(result.output)
    # Our option and inspect's own: the same samples, the same settings, as `compare` reads.
    assert (compared["matched"], compared["only_a"], compared["only_b"]) == (4, 0, 0)
    assert compared["differs"] == "nothing: the same settings (a rerun)"


def _counted(model: type[Settings], monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every value a settings model validates from now on."""
    validated: list[object] = []
    original = model.model_validate.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Settings], *args: object, **kwargs: object) -> object:
        validated.append(args[0])
        return original(cls, *args, **kwargs)

    monkeypatch.setattr(model, "model_validate", classmethod(counted))
    return validated


def test_a_commands_settings_are_validated_once_and_passed_as_the_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The command line, the task, the plan and the plan's title share one record: the
    benchmark's settings model validates once per task, whatever reads it after."""
    medhallu = _counted(MedHalluSettings, monkeypatch)
    result = CliRunner().invoke(
        cli, ["eval", "medhallu", "--dataset", DATA, "--limit", "2", "--not-sure", "--dry-run"]
    )
    assert result.exit_code == 0, result.output
    assert "not sure yes" in result.output  # the plan's title read the record
    assert len(medhallu) == 1
    dahl = _counted(DahlSettings, monkeypatch)
    swept = CliRunner().invoke(
        cli, ["eval", "dahl", "--dataset", "example", "--temperatures", "0.2,0.9", "--dry-run"]
    )
    assert swept.exit_code == 0, swept.output
    assert len(dahl) == 2  # one task a temperature, each validated once
