"""The report's summary with any mix of runs: one headline figure per benchmark and
condition, runs of one condition in one column whatever made their replies, judges named,
and a page that fits 1280 pixels however many conditions and models there are."""

from __future__ import annotations

import itertools
import math

import pytest

from helpers import record_of
from medhalbench.outputs import PAPER_READS
from medhalbench.registry import benchmark
from medhalbench.report import Page, place, summary_tables
from medhalbench.report._summary import MAX_CONDITIONS
from medhalbench.results import RunResult

LONG = "openai-api/together/meta-llama/Llama-3.3-70B-Instruct-Turbo-with-a-long-suffix"


def _figures(value: float) -> dict[str, float]:
    return {
        "f1": value, "f1_ci_low": value - 0.1, "f1_ci_high": value + 0.1, "paper_f1": value,
        "format_matching_f1": value, "dahl_score": value, "dahl_score_ci_low": value - 0.05,
        "dahl_score_ci_high": value + 0.05, "paper_dahl_score": value, "samples": 24.0,
    }  # fmt: skip


def _run(system: str, model: str, value: float, **arguments: object) -> RunResult:
    samples: dict[str, object] = {"dataset_fingerprint": "abc", "seed": 42, "rows": 12}
    samples["paper_reads"] = arguments.pop("paper_reads", PAPER_READS)
    if system == "medhallu":
        samples["pairing"] = "both"
    if arguments.get("responses"):  # as MedHallu records outputs written elsewhere
        samples["responses_fingerprint"] = "def"
    return RunResult(
        system=system, model=model, metrics=_figures(value),
        record=record_of({"dataset": "/data/x.jsonl", **samples, **arguments}),
        log=f"{system}-{model}-{sorted(arguments.items())}-{value}", status="success",
        roles={"splitter": LONG, "checker": "perplexity/sonar"} if system == "dahl" else {},
    )  # fmt: skip


def _many_runs() -> list[RunResult]:
    runs = []
    models = ["openai/gpt-4o", "anthropic/claude-3-5-haiku-latest", LONG]
    for i, (model, knowledge, not_sure, difficulty) in enumerate(
        itertools.product(models, [False, True], [False, True], [None, ["hard"]])
    ):
        runs.append(
            _run("medhallu", model, 0.3 + i / 100, knowledge=knowledge, not_sure=not_sure,
                 difficulty=difficulty, temperature=0.3, structured=False)
        )  # fmt: skip
    runs.append(_run("medhallu", "system/acme", 0.5, knowledge=False, not_sure=False,
                     responses="/data/acme.jsonl", temperature=None))  # fmt: skip
    for model, temperature in itertools.product(models, [0.2, 0.6, 1.0]):
        runs.append(_run("dahl", model, 0.7, temperature=temperature, structured=False))
    runs.append(_run("medhal", LONG, 0.4, split="test", structured=False))
    return runs


def test_runs_of_one_condition_share_a_column_whatever_made_their_replies() -> None:
    runs = [
        _run("medhallu", "openai/gpt-4o", 0.6, knowledge=False, not_sure=False, temperature=0.3),
        _run("medhallu", "openai/gpt-4o", 0.7, knowledge=True, not_sure=False, temperature=0.3),
        _run("medhallu", "openai/gpt-4o", 0.65, knowledge=False, not_sure=False, temperature=0.9),
        _run("medhallu", "system/acme", 0.5, knowledge=False, not_sure=False,
             responses="/data/acme.jsonl", temperature=None),
    ]  # fmt: skip
    placed = place(benchmark("medhallu"), runs)
    assert [p.column for p in placed] == [
        "knowledge no",
        "knowledge yes",
        "knowledge no",
        "knowledge no",
    ]
    assert [p.row for p in placed] == [
        "openai/gpt-4o · temperature 0.3", "openai/gpt-4o · temperature 0.3",
        "openai/gpt-4o · temperature 0.9", "system/acme · outputs written elsewhere",
    ]  # fmt: skip
    [summary] = summary_tables(runs)
    [ours] = summary.ours
    by_row = {str(r[0]): r[1:] for r in ours.rows}
    assert by_row["system/acme · outputs written elsewhere"][0].value == 0.5  # type: ignore[union-attr]
    assert by_row["system/acme · outputs written elsewhere"][1] is None  # not run there


def test_a_log_whose_paper_column_read_a_reconstruction_says_so() -> None:
    """A log from before each reply's text was kept as sent: its paper column read inspect's
    completion with a reasoning block put back, and the summary names it."""
    now = _run("medhallu", "openai/gpt-4o", 0.6, knowledge=False)
    before = _run("medhallu", "openai/gpt-4o-mini", 0.5, knowledge=False, paper_reads=None)
    [summary] = summary_tables([now, before])
    [note] = [n for n in summary.ours[0].notes if "paper-protocol figures" in n]
    assert "openai/gpt-4o-mini" in note and "openai/gpt-4o," not in note
    [summary] = summary_tables([now])
    assert not any("paper-protocol figures" in n for n in summary.ours[0].notes)


def test_judges_that_differ_name_the_row_and_shared_judges_the_table() -> None:
    a = _run("dahl", "openai/gpt-4o", 0.8, temperature=0.6)
    b = _run("dahl", "openai/gpt-4o", 0.7, temperature=0.6)
    b = RunResult(**{**b.__dict__, "roles": {"splitter": LONG, "checker": "openai/gpt-4o"}})
    placed = place(benchmark("dahl"), [a, b])
    assert placed[0].row == "openai/gpt-4o · judged by checker perplexity/sonar"
    assert placed[1].row == "openai/gpt-4o · judged by checker openai/gpt-4o"
    [summary] = summary_tables([a, a])
    assert summary.ours[0].notes[-1] == (
        f"Judged by splitter {LONG} · checker perplexity/sonar in every run."
    )


def test_many_conditions_are_summarised_in_parts_each_with_every_run_of_its_conditions() -> None:
    runs = _many_runs()
    medhallu = next(s for s in summary_tables(runs) if s.entry.name == "medhallu")
    conditions = {
        p.column for p in place(benchmark("medhallu"), [r for r in runs if r.system == "medhallu"])
    }
    assert len(conditions) == 8 and len(medhallu.ours) == math.ceil(8 / MAX_CONDITIONS)
    shown = [c.name for t in medhallu.ours for c in t.columns[1:]]
    assert sorted(shown) == sorted(conditions)
    cells = sum(1 for t in medhallu.ours for row in t.rows for c in row[1:] if c is not None)
    assert cells == len([r for r in runs if r.system == "medhallu"])  # every run, once
    assert all(len(t.columns) - 1 <= MAX_CONDITIONS for t in medhallu.ours)


def test_a_summary_of_many_runs_fits_1280_pixels(open_page, summary_fits) -> None:
    browser_page = open_page(Page(summary=summary_tables(_many_runs()), sections=[]))
    summary_fits(browser_page)
    rows = browser_page.eval_on_selector_all(
        "#section-summary table:not([id$='_paper']) tbody tr", "rows => rows.length"
    )
    assert rows >= len({(r.system, r.model) for r in _many_runs()})


@pytest.mark.parametrize("width", [80, 100, 120])
def test_the_summary_in_a_terminal_cuts_no_number(width: int) -> None:
    import io

    from rich.console import Console

    from medhalbench.commands import print_table

    for summary in summary_tables(_many_runs()):
        for table in summary.tables():
            console = Console(width=width, file=io.StringIO(), record=True)
            print_table(console, table)
            text = console.export_text()
            assert max(len(line) for line in text.splitlines()) <= width
            for row in table.rows:
                for cell in row[1:]:
                    if cell is not None:
                        assert f"{cell.value:.3f}" in text  # type: ignore[union-attr]
