"""Each settings model exports its JSON Schema: a suite file's (every benchmark's settings as
its runs' arguments) checks the packaged suite and refuses what the suite reader refuses."""

from __future__ import annotations

import json

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from medhalbench.cli import cli
from medhalbench.examples import illustrative


def _schema(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["schema", *args])
    assert result.exit_code == 0, result.output
    found: dict[str, object] = json.loads(result.stdout)
    return found


def test_the_packaged_suite_fits_the_suite_schema() -> None:
    suite = yaml.safe_load(open(illustrative("demo.yaml")).read())
    jsonschema.validate(suite, _schema())


@pytest.mark.parametrize(
    "run",
    [
        {"benchmark": "medhallu", "args": {"limit": 0}},
        {"benchmark": "medhallu", "args": {"pairing": "some"}},
        {"benchmark": "dahl", "args": {"knowledge": True}},  # MedHallu's setting, not DAHL's
        {"benchmark": "nothing"},
    ],
)
def test_a_run_the_suite_reader_refuses_does_not_fit(run: dict[str, object]) -> None:
    suite = {"models": ["embedded/smollm2"], "runs": [run]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(suite, _schema())


def test_a_benchmarks_settings_by_command() -> None:
    found = _schema("medhallu")
    assert set(found) == {"eval", "build", "merge", "analyze clusters"}
    build = found["build"]
    assert isinstance(build, dict) and "attempts" in build["properties"]
    refused = CliRunner().invoke(cli, ["schema", "nothing"])
    assert refused.exit_code == 2 and "known: medhallu, dahl, medhal" in refused.stderr
