"""The papers' data, standing as the packaged example rows (the hubs are out of reach
here), and a stub answering for every provider the packaged suites name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import stub_at
from medhalbench.examples import illustrative

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
