"""With outputs written elsewhere (`--responses`) there is no model under test to call, so
`--model-base-url` and `-M` are the judges': a judge of a local server needs no
`--role-base-url` of its own."""

from __future__ import annotations

import csv
from pathlib import Path

from click.testing import CliRunner
from inspect_ai.log import list_eval_logs, read_eval_log

from helpers import stub_at
from medhalbench.cli import cli
from medhalbench.examples import illustrative


def _judge(messages: list[dict[str, object]]) -> str:
    prompt = str(messages[-1].get("content", ""))
    if "one fact" in prompt:
        return "Aspirin inhibits cyclooxygenase.\nAspirin lowers fever."
    return "True"


def test_the_judges_of_outputs_written_elsewhere_take_the_model_base_url(
    tmp_path: Path, monkeypatch
) -> None:
    with open(illustrative("dahl_illustrative.csv"), newline="") as f:
        questions = [r["question"] for r in csv.DictReader(f)][:2]
    answers = tmp_path / "answers.csv"
    with answers.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["question", "response"])
        writer.writerows(
            [q, "Aspirin inhibits cyclooxygenase. It lowers fever."] for q in questions
        )
    monkeypatch.setenv("LOCAL_API_KEY", "test-key")
    with stub_at(_judge) as base_url:
        result = CliRunner().invoke(
            cli,
            ["eval", "dahl", "--dataset", illustrative("dahl_illustrative.csv"), "--responses",
             str(answers), "--system", "chatbot", "--judge", "openai-api/local/judge",
             "--model-base-url", base_url, "--log-dir", str(tmp_path / "logs"),
             "--display", "none"],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    [info] = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    roles = log.eval.model_roles or {}
    assert {r: c.base_url for r, c in roles.items()} == {  # type: ignore[union-attr]
        "splitter": base_url,
        "checker": base_url,
    }
    assert log.status == "success" and log.results is not None
