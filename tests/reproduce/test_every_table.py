"""Every packaged table end to end, one of its models at a time, through the providers' SDKs
as installed: a stub answering as each provider would (OpenAI, Perplexity, a vLLM server),
and llama.cpp's own server (`medhalbench serve`) under the checkpoint's name standing in for
vLLM. The view sets each of the model's cells beside the published figure."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from helpers import served_locally, stub_at
from medhalbench.cli import cli
from medhalbench.commands._suite import read_suite
from medhalbench.examples import illustrative
from medhalbench.reproduce import PAPER_TABLES, paper_table

PROVIDERS = ("OPENAI", "PERPLEXITY", "VLLM")
"""The providers the packaged suites name (their SDKs read NAME_BASE_URL and NAME_API_KEY)."""


def replying(messages: list[dict[str, Any]]) -> str:
    """Each role's reply, by what its prompt asks (the paper's layout puts the system prompt
    in the user message: the whole conversation is read)."""
    text = "\n".join(str(m.get("content", "")) for m in messages)
    if "state exactly one fact" in text:  # DAHL's splitter
        return "Loop diuretics act on the kidney.\nThey raise urine output."
    if "Your judgement" in text:  # MedHallu's detector
        return "1"
    if "Factual" in text:  # MedHal's judge, either verdict (none would leave recall undefined)
        verdict = "YES" if len(text) % 2 else "NO"
        return f"Factual: {verdict}\nExplanation: The context states it."
    if "true or false" in text.lower():  # DAHL's checker
        return "True"
    return "Loop diuretics act on the kidney. They raise urine output."  # DAHL's answer


@pytest.fixture
def paper_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The hubs are out of reach here: each benchmark's paper data stands as its packaged
    example rows (the runs record the paper's data, as runs on it do); commands run in
    `tmp_path` with a reply cache of their own."""
    from medhalbench.dahl import _dataset as dahl_data
    from medhalbench.dahl import _task as dahl_task
    from medhalbench.medhal import _dataset as medhal_data
    from medhalbench.medhal import _task as medhal_task
    from medhalbench.medhallu import _dataset as medhallu_data
    from medhalbench.medhallu import _task as medhallu_task

    medhallu = illustrative("medhallu_illustrative.jsonl")
    dahl = illustrative("dahl_illustrative.csv")
    medhal = illustrative("medhal_illustrative.jsonl")
    monkeypatch.setattr(
        medhallu_task, "load_medhallu", lambda source, **kw: medhallu_data.load_medhallu(medhallu)
    )
    # Four example questions: all of them stand for the paper's 10% sample.
    monkeypatch.setattr(
        dahl_task,
        "load_dahl_questions",
        lambda source, **kw: dahl_data.load_dahl_questions(dahl, **{**kw, "sample": None}),
    )
    monkeypatch.setattr(
        medhal_task, "load_medhal", lambda source, **kw: medhal_data.load_medhal(medhal)
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def every_provider_at(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """One stub answering for every provider the suites name."""
    with stub_at(replying) as base_url:
        for provider in PROVIDERS:
            monkeypatch.setenv(f"{provider}_BASE_URL", base_url)
            monkeypatch.setenv(f"{provider}_API_KEY", "sk-local-test")
        yield


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
