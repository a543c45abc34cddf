"""DAHL's implementation: its task, tables, planner, demo and the functions its commands run
(`dahl_benchmark` names it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from medhalbench import registry
from medhalbench.dahl._audit import JUDGE_AUDIT, run_agreement
from medhalbench.dahl._benchmark import dahl_benchmark
from medhalbench.dahl._metrics import DahlScoreMetadata, headline_figures
from medhalbench.dahl._plan import dahl_plan, plan_dahl_build
from medhalbench.dahl._report import (
    dahl_charts,
    dahl_settings,
    dahl_summary,
    dahl_sweep_table,
    dahl_tables,
)
from medhalbench.dahl._rescore import dahl_rereader
from medhalbench.dahl._scorer import dahl_factuality
from medhalbench.dahl._settings import AgreementRequest, DahlBuild, DahlSettings, FilterRequest
from medhalbench.dahl._task import dahl
from medhalbench.dahl.builder._build import run_dahl_build
from medhalbench.dahl.builder._filters import run_filter

DEMO_ANSWER_MAX_TOKENS = 128
"""The demo's answers: half the paper's 256 tokens, still several facts each to split and
check, so that the whole demo is a first run of under a minute on 2 cores."""


def dahl_demo(settings: registry.DemoSettings) -> registry.DemoRun:
    """Answers to the example questions (or the user's), split and checked."""
    task = settings.task(
        dahl, DahlSettings.example, cache=settings.cache, max_tokens=DEMO_ANSWER_MAX_TOKENS
    )
    return registry.DemoRun("DAHL: long-form factuality", [task])


def dahl_units(metadata: Mapping[str, Any]) -> list[registry.Unit]:
    """The atomic units of one judged answer (a `DahlScoreMetadata`), each with its verdict (and
    P(false))."""
    answer = DahlScoreMetadata.model_validate(metadata)
    texts = answer.units_text
    verdicts = answer.verdicts or [None] * len(texts)
    p_false = answer.p_false or [None] * len(texts)
    unread = answer.unit_unread_reasons or [None] * len(texts)
    return [
        registry.Unit(text, verdict, p, reason)
        for text, verdict, p, reason in zip(texts, verdicts, p_false, unread, strict=False)
    ]


dahl_implementation = registry.Implementation(
    benchmark=dahl_benchmark,
    task=dahl,
    scorer=dahl_factuality,
    headline=headline_figures,
    summary=dahl_summary,
    tables=dahl_tables,
    charts=dahl_charts,
    describe=dahl_settings,
    audit=JUDGE_AUDIT,
    units=dahl_units,
    sweep_table=dahl_sweep_table,
    plan=dahl_plan,
    demo=dahl_demo,
    commands={
        DahlBuild: run_dahl_build,
        AgreementRequest: run_agreement,
        FilterRequest: run_filter,
    },
    plans={DahlBuild: plan_dahl_build},
    rescorer=lambda record, old: dahl_rereader(
        old, record.settings_as(DahlSettings).score_threshold
    ),
)
