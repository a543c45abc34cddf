"""A command that refuses creates nothing, and a plan never reaches the network: output
folders are checked without being made and removed again when their command made them and
wrote nothing; hub-loading models are named in a plan, not loaded."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import huggingface_hub.constants
import pytest
from click.testing import CliRunner

from medhalbench.cli import cli
from medhalbench.commands import OptionError, made_for_output, writable_folder
from medhalbench.data import _hub
from medhalbench.examples import illustrative


def test_a_folder_is_checked_without_being_made(tmp_path: Path) -> None:
    writable_folder(tmp_path / "new" / "deeper", "--out")
    assert not (tmp_path / "new").exists()
    (tmp_path / "file").write_text("x")
    with pytest.raises(OptionError, match="is a file, not a folder"):
        writable_folder(tmp_path / "file" / "below", "--out")


def test_work_written_before_a_failure_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "new" / "out"
    with pytest.raises(RuntimeError), made_for_output(out):
        out.mkdir(parents=True)
        (out / "records.jsonl").write_text("{}\n")
        raise RuntimeError("stopped")
    assert (out / "records.jsonl").is_file()


def test_only_the_folders_a_command_made_are_removed(tmp_path: Path) -> None:
    there = tmp_path / "there"  # empty, but made before the command: kept
    there.mkdir()
    with pytest.raises(KeyboardInterrupt), made_for_output(there / "a" / "b"):
        (there / "a" / "b").mkdir(parents=True)
        raise KeyboardInterrupt
    assert there.is_dir() and not (there / "a").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["build", "medhallu", "--pubmedqa", "missing.json", "--out", "built/medhallu"],
        ["build", "medhal", "--source", "medqa=missing.json", "--out", "built/medhal"],
        ["medhal", "train", "--data", "missing", "--out", "built/evaluator"],
    ],
    ids=["build medhallu", "build medhal", "medhal train"],
)
def test_a_refused_command_leaves_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert "missing" in result.stderr
    assert not (tmp_path / "built").exists()


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every host name a lookup was asked for, besides the local ones (each refused)."""
    asked: list[str] = []
    local = socket.getaddrinfo

    def lookup(host: str | None, *args: object, **kwargs: object) -> object:
        if host not in (None, "127.0.0.1", "::1", "localhost"):
            asked.append(str(host))
            raise socket.gaierror(socket.EAI_NONAME, "no network in this test")
        return local(host, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    _hub.hub_reachable.cache_clear()
    yield asked
    _hub.hub_reachable.cache_clear()


def test_a_plan_naming_hub_models_reaches_no_network(tmp_path: Path, no_network: list[str]) -> None:
    pubmedqa = tmp_path / "ori_pqal.json"
    pubmedqa.write_text(
        json.dumps(
            {
                "1": {
                    "QUESTION": "Does drug X help?",
                    "CONTEXTS": ["It was tested."],
                    "LABELS": [],
                    "MESHES": [],
                    "final_decision": "yes",
                    "LONG_ANSWER": "Yes, drug X helps.",
                }
            }
        )
    )
    result = CliRunner().invoke(
        cli,
        ["build", "medhallu", "--pubmedqa", str(pubmedqa), "--out", str(tmp_path / "out"),
         "--protocol", "paper", "--dry-run", "--model", "embedded/smollm2",
         "--discriminator", "hf/google/gemma-2-2b-it", "--discriminator", "vllm/Qwen/Qwen2.5-3B",
         "--discriminator", "embedded/smollm2"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "hf/google/gemma-2-2b-it" in result.output
    assert no_network == []
    assert not (tmp_path / "out").exists()


def test_a_hub_model_offline_fails_at_once(tmp_path: Path, no_network: list[str]) -> None:
    result = CliRunner().invoke(
        cli,
        ["eval", "medhallu", "--dataset", illustrative("medhallu_illustrative.jsonl"),
         "--model", "hf/google/gemma-2-2b-it", "--log-dir", str(tmp_path / "logs")],
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: --model hf/google/gemma-2-2b-it: ")
    # One look for the hub, then the local cache only: no download retried for a minute.
    assert no_network == ["huggingface.co"]
    assert not (tmp_path / "logs").exists()
