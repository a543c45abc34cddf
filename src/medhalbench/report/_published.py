"""The papers' published figures that stand beside a run: those of the same setting, and
those of the same model (a published row's model name matched against the run's)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from medhalbench.registry import benchmark
from medhalbench.report._settings import declared, phrase, setting_as_text, settings_of
from medhalbench.results import PublishedRow, RunResult, setting_text

MODEL_SUFFIXES = ("", "instruct", "chat", "it", "latest")
"""What a model name may add to a published model's name and still be that model
(`openai/gpt-4o-mini-latest` is the paper's "GPT-4o mini")."""


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def same_model(published: str, model: str) -> bool:
    """Whether a run's model (`openai/gpt-4o-mini`, `hf/meta-llama/Llama-3.1-8B-Instruct`)
    is the paper's model (`GPT-4o mini`, `Llama-3.1 8B`): names compared without provider,
    case or punctuation, allowing a suffix such as "instruct"."""
    mine, theirs = _key(model.split("/")[-1]), _key(published)
    return bool(theirs) and mine.startswith(theirs) and mine[len(theirs) :] in MODEL_SUFFIXES


def in_setting(row: PublishedRow, run: RunResult) -> bool:
    """Whether a published row is of the run's setting: each setting the row names and the
    run has is equal as text, and each condition the row does not name (one the paper
    never varied, such as evidence retrieved from a local corpus) is at its default in the
    run. A paper's gold-knowledge row never stands beside a run given retrieved passages."""
    shown = run.settings
    if not all(setting_text(shown[k]) == v for k, v in row.settings.items() if k in shown):
        return False
    arguments = declared(run.system)
    return all(
        value == setting_as_text(name, arguments[name].default)
        for name, value in settings_of(run).condition.items()
        if name not in row.settings and name in arguments
    )


def on_paper_data(run: RunResult) -> bool:
    """Whether a run judged its paper's own data (`Benchmark.paper_data`): a published figure
    beside a run on other data (an example, a local sample) compares nothing. A local copy
    of that data is known by its content's fingerprint."""
    paper_data = benchmark(run.system).paper_data
    return (
        str(run.record.data.dataset) in paper_data
        or run.record.facts.dataset_fingerprint in paper_data
    )


def published_of(rows: Sequence[PublishedRow], run: RunResult) -> PublishedRow | None:
    """The published row of a run's model in its setting, on the paper's data, if the paper
    has one."""
    if not on_paper_data(run):
        return None
    return next(
        (r for r in rows if same_model(r.model.removesuffix(" (published)"), run.model)
         and in_setting(r, run)),
        None,
    )  # fmt: skip


def published_condition(row: PublishedRow) -> str:
    """The condition a published figure was measured in, as the report writes a run's
    ("knowledge yes · not sure no"): the settings of the row that are its benchmark's
    settings (not a descriptor such as the model's group); empty where it names none."""
    arguments = declared(row.system)
    return " · ".join(phrase(k, v) for k, v in row.settings.items() if v and k in arguments)
