"""MedHallu's tables name the retrieval hit rate (`gold_in_knowledge_rate`) one way, say what
it is once, and show it in the open table of a grounded run (the wide view keeps it where no
run was given retrieved passages)."""

from __future__ import annotations

import re

from helpers import record_of
from medhalbench.medhallu._report import (
    HIT_RATE_NOTE,
    RETRIEVAL_HIT_RATE,
    detection_table,
    medhallu_summary,
)
from medhalbench.report import CollectedResults, build_page, csv_frame, markdown, render_html
from medhalbench.results import RunResult

OLD_NAMES = ("Gold in knowledge", "Gold abstract among the passages")


def _run(evidence: str | None, fingerprint: str) -> RunResult:
    metrics = {"f1": 0.6, "f1_ci_low": 0.5, "f1_ci_high": 0.7, "samples": 8.0}
    if evidence:
        metrics |= {
            "gold_in_knowledge_rate": 0.75,
            "gold_in_knowledge_rate_ci_low": 0.5,
            "gold_in_knowledge_rate_ci_high": 1.0,
        }
    settings = {"dataset": "/data/rows.jsonl", "dataset_fingerprint": fingerprint, "rows": 4}
    return RunResult(
        system="medhallu", model="openai/gpt-4o", metrics=metrics, status="success",
        log=f"{evidence}.eval", record=record_of({**settings, "knowledge": True, "evidence": evidence}),
    )  # fmt: skip


def test_a_grounded_run_shows_its_retrieval_hit_rate_in_the_open_table() -> None:
    table = detection_table([_run(None, "a"), _run("/srv/indexes/pubmed", "b")])
    narrow = table.narrow()
    headers = [c.name for c in narrow.columns]
    assert RETRIEVAL_HIT_RATE in headers
    column = headers.index(RETRIEVAL_HIT_RATE)
    assert [row[column] is not None for row in narrow.rows] == [False, True]
    assert HIT_RATE_NOTE in table.notes
    assert HIT_RATE_NOTE == (
        "Retrieval hit rate: share of samples whose retrieved passages hold the sample's own "
        "abstract (runs given retrieved passages)."
    )


def test_without_a_grounded_run_the_empty_column_waits_in_the_wide_view() -> None:
    table = detection_table([_run(None, "a")])
    assert RETRIEVAL_HIT_RATE not in [c.name for c in table.narrow().columns]
    assert RETRIEVAL_HIT_RATE in [c.name for c in table.columns]  # CSV keeps the column
    assert HIT_RATE_NOTE not in table.notes


def test_every_rendering_uses_the_one_name() -> None:
    grounded = _run("/srv/indexes/pubmed", "b")
    summary = medhallu_summary(grounded)
    assert RETRIEVAL_HIT_RATE in [row[0] for row in summary.rows]
    assert HIT_RATE_NOTE in summary.notes
    table = detection_table([_run(None, "a"), grounded])
    assert "retrieval_hit_rate" in csv_frame(table).columns
    texts = [markdown([table, summary])]
    page = build_page(CollectedResults(runs=[_run(None, "a"), grounded]), published=False)
    html = render_html(page)
    texts.append(html)
    for text in texts:
        assert RETRIEVAL_HIT_RATE in text and not any(old in text for old in OLD_NAMES)
    # In the open: a header of MedHallu's narrow table, outside every fold.
    unfolded = re.sub(r"<details.*?</details>", "", html, flags=re.DOTALL)
    assert f"<th>{RETRIEVAL_HIT_RATE}</th>" in unfolded
