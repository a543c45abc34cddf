"""A command's models as it starts: every model it cannot reach is named in one line (a key
missing for the model under test and for each judge together), and inspect's banner of the
hooks it loads (ours) is not printed before a command's own output or errors."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from click.testing import CliRunner

from medhalbench.cli import cli
from medhalbench.examples import illustrative

KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "PERPLEXITY_API_KEY")


def test_every_missing_key_is_named_at_once(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in KEYS and not k.endswith("BASE_URL")}
    args = ["eval", "dahl", "--dataset", illustrative("dahl_illustrative.csv"), "--model",
            "openai/gpt-4o", "--splitter", "anthropic/claude-3-5-haiku-latest", "--checker",
            "perplexity/sonar", "--log-dir", str(tmp_path)]  # fmt: skip
    result = CliRunner(env=dict.fromkeys(KEYS)).invoke(cli, args, env=env)
    [line] = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    for option, key in zip(("--model", "--splitter", "--checker"), KEYS, strict=True):
        assert f"{option} " in line and f"no API key: set {key}" in line
    assert not list(tmp_path.iterdir())  # nothing run, nothing written


def test_no_banner_comes_before_a_commands_output_or_error(
    warm_cli: list[str], tmp_path: Path
) -> None:
    # A process of its own: inspect loads its hooks once a process, at its first model.
    env = {k: v for k, v in os.environ.items() if k not in KEYS}
    for args, code in (
        (["eval", "medhallu", "--dataset", illustrative("medhallu_illustrative.jsonl"),
          "--model", "openai/gpt-4o-mini", "--dry-run"], 0),
        (["eval", "medhallu", "--dataset", illustrative("medhallu_illustrative.jsonl"),
          "--model", "openai/gpt-4o-mini"], 2),
    ):  # fmt: skip
        result = subprocess.run(
            [*warm_cli, *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
        )
        assert result.returncode == code, result.stderr
        printed = result.stdout + result.stderr
        assert "hooks enabled" not in printed and "inspect_ai v" not in printed, printed[:400]
        first = (result.stdout or result.stderr).lstrip().splitlines()[0]
        assert first.startswith(("MedHallu", "error: --model openai/gpt-4o-mini")), first
