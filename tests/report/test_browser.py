"""The HTML report in a real headless Chromium: no console errors, and the numbers shown."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from medhalbench.report import write_report

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def browser_page():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(
                "chromium is not installed; the test set-up (scripts/install.sh --test) installs it"
            )
        pytest.skip("chromium is not installed (scripts/install.sh --test installs it)")
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser.new_page()
        finally:
            browser.close()


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
        "rows => rows.map(r => Object.fromEntries([...r.cells].map(c => [c.dataset.column, c.textContent])))",
    )
    expected = []
    for info in list_eval_logs(str(report_logs)):
        log = read_eval_log(info, header_only=True)
        if log.eval.task.endswith("medhallu"):
            m = {n: v.value for s in log.results.scores for n, v in s.metrics.items()}
            expected.append(f"{m['f1']:.3f} [{m['f1_ci_low']:.3f}, {m['f1_ci_high']:.3f}]")
    assert sorted(r["F1"] for r in shown if "(published)" not in r["Model"]) == sorted(expected)
    # The papers' figures are reference rows, marked as such.
    assert browser_page.locator("#medhallu tr.published").count() > 10
    assert browser_page.locator("svg").count() >= 3
    assert browser_page.locator("#provenance tbody tr").count() == 5
