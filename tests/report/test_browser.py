"""The HTML report in a real headless Chromium: no console errors, and the numbers shown."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from helpers import record_of
from medhalbench.report import write_report
from medhalbench.results import RunResult, log_metrics


def test_report_loads_without_errors_and_shows_the_log_numbers(
    browser_page, report_logs: Path, tmp_path: Path
) -> None:
    [page_file] = write_report([report_logs], tmp_path / "report.html")
    errors: list[str] = []
    browser_page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    browser_page.on("pageerror", lambda e: errors.append(str(e)))
    browser_page.goto(page_file.as_uri())
    assert browser_page.title() == "medhalbench report"
    assert errors == []
    shown = browser_page.eval_on_selector_all(
        "#medhallu tbody tr",
        "rows => rows.map(r => Object.fromEntries([...r.cells].map(c => [c.dataset.column, c.innerText.replace(/\\n/g, ' ')])))",
    )
    expected = []
    for info in list_eval_logs(str(report_logs)):
        log = read_eval_log(info, header_only=True)
        if log.eval.task.endswith("medhallu"):
            m = log_metrics(log)
            expected.append(f"{m['f1']:.3f} [{m['f1_ci_low']:.3f}, {m['f1_ci_high']:.3f}]")
    assert sorted(r["F1"] for r in shown) == sorted(expected)
    # The papers' figures are reference rows, folded away until opened.
    published = browser_page.locator("#medhallu_published tr.published")
    assert published.count() > 10 and not published.first.is_visible()
    browser_page.locator("summary", has_text="The paper's published figures").first.click()
    assert published.first.is_visible()
    assert browser_page.locator("#provenance tbody.run").count() == 6  # a block per run


@pytest.fixture
def report_page(browser_page: Any, report_logs: Path, tmp_path: Path) -> Any:
    """The report on the report logs, open in the browser."""
    [page_file] = write_report([report_logs], tmp_path / "report.html")
    browser_page.goto(page_file.as_uri())
    return browser_page


def _line_height(page: Any) -> float:
    """The height of a line of text in a table cell, in pixels."""
    return float(page.eval_on_selector("td", "td => parseFloat(getComputedStyle(td).lineHeight)"))


def test_at_1280_px_the_summary_comes_first_and_no_row_is_taller_than_a_few_lines(
    report_page: Any,
) -> None:
    first = report_page.eval_on_selector("h2", "h => h.textContent")
    assert first == "Summary"
    for d in report_page.locator("details").all():  # open every fold: measure all tables
        d.evaluate("e => e.open = true")
    line = _line_height(report_page)
    heights = report_page.eval_on_selector_all(
        "table",
        "ts => ts.map(t => [t.id, Math.max(...[...t.rows].map(r => r.getBoundingClientRect().height))])",
    )
    assert heights and all(h <= 6 * line for _, h in heights), (line, heights)
    # No word is broken: every text cell is at least as wide as its longest word.
    squeezed = report_page.eval_on_selector_all(
        "td.text",
        "cs => cs.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent)",
    )
    assert squeezed == []


def _chart(page, title: str) -> list[str]:
    return page.eval_on_selector(
        f'svg[aria-label="{title}"]', "s => [...s.querySelectorAll('text')].map(t => t.textContent)"
    )


def test_every_chart_shows_the_categories_and_series_of_the_data(
    report_page: Any, report_logs: Path
) -> None:
    from medhalbench.report import collect, run_names

    results = collect([report_logs])
    medhallu_runs = results.of("medhallu")
    texts = _chart(report_page, "MedHallu F1 by difficulty")
    for label in run_names(medhallu_runs, title=False):  # every run, once, by its name
        assert texts.count(label) == 1
    assert [t for t in texts if t in ("easy", "medium", "hard")] == ["easy", "medium", "hard"]
    # Each bar says how many samples it is over, and the key says what the marks are.
    counts = [t for t in texts if t.isdigit()]
    assert counts and set(counts) <= {
        str(int(r.metrics[f"{d}_samples"]))
        for r in medhallu_runs
        for d in ("easy", "medium", "hard")
    }
    assert any("95% intervals" in t and "paper protocol" in t for t in texts)
    dahl_runs = results.of("dahl")
    for run, label in zip(dahl_runs, run_names(dahl_runs, title=False), strict=True):
        texts = _chart(report_page, f"DAHL score by category: {label}")
        categories = run.prefixed("category")
        assert categories and [t for t in texts if t in categories] == categories  # once each
        for c in categories:
            n = int(run.metrics[f"category/{c}/scored"])
            assert f"{run.metrics[f'category/{c}']:.3f} (n={n})" in texts
    curve = _chart(report_page, "DAHL score by answering temperature")
    assert "mockllm/model" in curve and {"0.2", "0.8"} <= set(curve)


def test_at_1280_px_the_summary_shows_every_run_without_scrolling(
    report_page: Any, summary_fits: Callable[[Any], None]
) -> None:
    summary_fits(report_page)
    figures = report_page.eval_on_selector_all(
        "#section-summary table:not([id$='_paper']) td.num",
        "cells => cells.filter(c => c.innerText.trim()).length",
    )
    assert figures == 6  # every run once: 3 MedHallu (one written elsewhere), 2 DAHL, 1 MedHal


def test_the_page_is_compact_headline_tables_open_and_the_details_folded(
    report_page: Any,
) -> None:
    # The summary's rows are one line each: an interval beside its figure, not under it.
    line = _line_height(report_page)
    heights = report_page.eval_on_selector_all(
        "#section-summary table:not([id$='_paper']) tbody tr",
        "rows => rows.map(r => r.getBoundingClientRect().height)",
    )
    assert heights and max(heights) <= 1.6 * line, (line, heights)
    # The comparisons at a glance are shown; charts, each comparison's every figure and
    # the provenance table are folded until opened (as are calibration and token tables).
    assert report_page.locator("#comparisons_medhallu").is_visible()
    for folded in ("svg", "#compare_medhallu_1", "#compare_dahl_1", "#provenance"):
        found = report_page.locator(folded)
        assert found.count() and not found.first.is_visible(), folded
    report_page.locator("summary", has_text="Charts: MedHallu F1 by difficulty").click()
    assert report_page.locator('svg[aria-label="MedHallu F1 by difficulty"]').is_visible()
    # 5,309 pixels before the page was made compact, 3,118 after (Chromium, 1280 wide).
    report_page.reload()
    height = report_page.evaluate("document.documentElement.scrollHeight")
    assert height <= 4000, height


TABLES_CUT = """ss => ss.filter(s => s.scrollWidth > s.clientWidth + 1)
    .map(s => [s.querySelector('table').id, s.scrollWidth, s.clientWidth])"""
"""Each table container whose table runs past it (scrolls sideways): its table, widths."""


def _no_table_past_the_page(page: Any) -> None:
    """Every fold open, no table container scrolls sideways and no table runs past the
    page's content (1280 pixels less its margins)."""
    for d in page.locator("details").all():
        d.evaluate("e => e.open = true")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    assert page.eval_on_selector_all(".scroll", TABLES_CUT) == []
    right = page.evaluate("document.body.getBoundingClientRect().right")
    past = page.eval_on_selector_all(
        "table",
        f"ts => ts.filter(t => t.getBoundingClientRect().right > {right} + 1).map(t => t.id)",
    )
    assert past == []


def test_at_1280_px_no_table_is_wider_than_the_page(report_page: Any) -> None:
    _no_table_past_the_page(report_page)
    # MedHallu's every figure (31 columns) is in parts, each beside the columns that tell
    # its runs apart, every row in each.
    parts = report_page.eval_on_selector_all(
        "table[id^='medhallu_all']",
        "ts => ts.map(t => [t.id, [...t.tHead.rows].at(-1).cells[0].textContent,"
        " [...t.tHead.rows].at(-1).cells[1].textContent, t.tBodies[0].rows.length])",
    )
    assert [p[0] for p in parts] == ["medhallu_all"] + [
        f"medhallu_all-part{i}" for i in range(2, len(parts) + 1)
    ]
    assert len(parts) > 1 and all(p[1:] == ["Model", "Settings", 3] for p in parts), parts


def _grid(system: str, model: str, **settings: object) -> RunResult:
    figures = {
        name: 0.5
        for name in (
            "f1", "paper_f1", "precision", "recall", "easy_f1", "medium_f1", "hard_f1",
            "format_matching_f1", "dahl_score", "paper_dahl_score", "category/oncology",
            "category/cardiology", "source/medqa/f1",
        )
    }  # fmt: skip
    figures |= {f"{n}_ci_{end}": 0.5 for n in ("f1", "dahl_score") for end in ("low", "high")}
    return RunResult(
        system=system, model=model, metrics={**figures, "samples": 24.0, "scored": 4.0},
        record=record_of({"dataset": "/data/grid.jsonl", "dataset_fingerprint": "abc",
                          "rows": 12, "seed": 42, **settings}),
        log=f"{system}-{model}-{sorted(settings.items())}", status="success",
    )  # fmt: skip


def test_at_1280_px_no_table_of_many_long_named_runs_is_wider_than_the_page(
    open_page: Callable[[Any], Any],
) -> None:
    from itertools import product

    from medhalbench.registry import benchmark
    from medhalbench.report import Page, summary_tables
    from medhalbench.report._page import Section

    long = "openai-api/together/meta-llama/Llama-3.3-70B-Instruct-Turbo-with-a-long-suffix"
    models = ["openai/gpt-4o", long, "anthropic/claude-3-5-haiku-latest"]
    runs = [
        _grid("medhallu", m, knowledge=k, not_sure=n, temperature=0.3, pairing="both")
        for m, k, n in product(models, [False, True], [False, True])
    ]
    runs += [_grid("dahl", m, temperature=t) for m, t in product(models, [0.2, 0.6, 1.0])]
    runs += [_grid("medhal", long, split="test")]
    sections = []
    for name in ("medhallu", "dahl", "medhal"):
        entry = benchmark(name)
        of = [r for r in runs if r.system == name]
        tables = entry.implementation.tables(of, entry.implementation.published())
        sections.append(Section(entry=entry, tables=tables, charts=[], comparisons=[]))
    browser_page = open_page(Page(summary=summary_tables(runs), sections=sections))
    _no_table_past_the_page(browser_page)
    # DAHL's category table, a column per run (9), is in parts each naming the category.
    firsts = browser_page.eval_on_selector_all(
        "table[id^='dahl_categories']", "ts => ts.map(t => t.tHead.rows[0].cells[0].textContent)"
    )
    assert len(firsts) > 1 and set(firsts) == {"Category"}
