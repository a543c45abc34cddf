"""Every packaged table end to end, one of its models at a time, through the providers' SDKs
as installed: a stub answering as each provider would (OpenAI, Perplexity, a vLLM server),
and llama.cpp's own server (`medhalbench serve`) under the checkpoint's name standing in for
vLLM. The view sets each of the model's cells beside the published figure."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from helpers import served_locally, stub_at
from medhalbench.cli import cli
from medhalbench.commands._suite import read_suite
from medhalbench.reproduce import PAPER_TABLES, paper_table


def cells_run(out: str, table: str) -> tuple[int, int]:
    """The cells of a table run (reproduced or not), and all its cells, from the verdict."""
    flat = " ".join(out.split())
    found = re.search(r"(\d+) of (\d+) cells reproduced, (\d+) not, (\d+) not run", flat)
    assert found is not None, flat[-2000:]
    reproduced, cells, missed, _ = map(int, found.groups())
    return reproduced + missed, cells


@pytest.mark.parametrize("name", [t.name for t in PAPER_TABLES])
def test_each_table_runs_one_model_end_to_end(
    name: str, paper_data: None, every_provider_at: None
) -> None:
    table = paper_table(name)
    first = read_suite(table.suite).models[0]
    result = CliRunner().invoke(
        cli, ["reproduce", name, "--model", first.name, "--display", "none"]
    )
    assert result.exit_code == 0, result.stderr or result.stdout[-3000:]
    run, cells = cells_run(result.stdout, name)
    # The model's cells only, each beside its published figure: one published row per
    # condition of the table, each figure of it.
    assert 0 < run < cells and first.paper_model in result.stdout


def test_an_open_model_of_a_table_through_llama_cpps_server_under_its_name(
    name: str = "medhal-table6", *, paper_data: None, tiny_model: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    model = read_suite(paper_table(name).suite).models[0]
    checkpoint = model.name.removeprefix("openai-api/vllm/")
    with served_locally(tiny_model, checkpoint, tmp_path) as base_url:
        monkeypatch.setenv("VLLM_BASE_URL", base_url)
        monkeypatch.setenv("VLLM_API_KEY", "any")
        result = CliRunner().invoke(
            cli, ["reproduce", name, "--model", model.name, "--display", "none"]
        )
    assert result.exit_code == 0, result.stderr or result.stdout[-3000:]
    run, _ = cells_run(result.stdout, name)
    # A random tiny model's replies are unread: its cells are run, with figures undefined
    # or far from the paper's, never passed off as reproduced on its say.
    assert run > 0 or "without an interval" in result.stdout


def test_the_authors_prompt_file_goes_to_every_run_and_the_tables_own_settings_stay(
    paper_data: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []

    def recording(messages: list[dict[str, Any]]) -> str:
        seen.append("\n".join(str(m.get("content", "")) for m in messages))
        return "1"

    (tmp_path / "theirs.txt").write_text("THEIR WORDING: judge whether the answer is hallucinated.")
    model = read_suite(paper_table("medhallu-table4").suite).models[0].name
    with stub_at(recording) as base_url:
        monkeypatch.setenv("OPENAI_BASE_URL", base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-local-test")
        for refused, named in (("pairing=first", "set by the table itself"),
                               ("wording=x", "not a setting of this table's benchmark")):  # fmt: skip
            result = CliRunner().invoke(cli, ["reproduce", "medhallu-table4", "-T", refused])
            assert result.exit_code == 2 and named in result.stderr and "-T" in result.stderr
        assert not seen  # refused before any call
        args = ["reproduce", "medhallu-table4", "--model", model, "-T", "prompt=theirs.txt"]
        result = CliRunner().invoke(cli, [*args, "--display", "none"])
    assert result.exit_code == 0, result.stderr
    assert seen and all("THEIR WORDING" in text for text in seen)
    cells_run(result.stdout, "medhallu-table4")  # the view: its cells beside the published
