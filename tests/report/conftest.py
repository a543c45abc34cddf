"""Logs of all three systems, made quickly with scripted models, for report tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval

from helpers import hallucinated_answers, medhallu_verdicts, read_jsonl, scripted_model
from medhalbench.dahl import dahl
from medhalbench.examples import illustrative
from medhalbench.medhal import medhal
from medhalbench.medhallu import medhallu


def reply(prompt: str) -> str:
    if "one fact" in prompt:
        return "Fact one is here.\nFact two is here."
    if "true or false" in prompt.lower():
        return "True" if "one" in prompt.split("Statement:")[-1] else "False"
    if "Factual:" in prompt or "Statement:" in prompt and "Reply in exactly" not in prompt:
        return "Factual: NO\nExplanation: It is vitamin C."
    if "single digit" in prompt:
        return (
            "1"
            if any(
                a in prompt
                for a in hallucinated_answers(illustrative("medhallu_illustrative.jsonl"))
            )
            else "Not sure"
        )
    return "An answer. Another sentence."


@pytest.fixture(scope="session")
def report_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("report-logs")
    model = scripted_model(reply)
    statements = folder / "medhal.jsonl"
    statements.write_text(
        "".join(
            json.dumps(
                {
                    "id": f"x{i}",
                    "statement": f"Scurvy is caused by vitamin {v}.",
                    "label": v == "C",
                    "explanation": None if v == "C" else "It is vitamin C.",
                    "source": s,
                }
            )
            + "\n"
            for i, (v, s) in enumerate(
                [
                    ("C", "medqa"),
                    ("K", "medqa"),
                    ("C", "mednli"),
                    ("A", "mednli"),
                    ("C", "sumpubmed"),
                ]
            )
        )
    )
    tasks = [
        medhallu(dataset=illustrative("medhallu_illustrative.jsonl")),
        medhallu(
            dataset=illustrative("medhallu_illustrative.jsonl"), knowledge=True, not_sure=True
        ),
        dahl(dataset=illustrative("dahl_illustrative.csv"), temperature=0.2),
        dahl(dataset=illustrative("dahl_illustrative.csv"), temperature=0.8),
        medhal(dataset=str(statements)),
    ]
    logs = eval(
        tasks,
        model=model,
        model_roles={"splitter": model, "checker": model},
        log_dir=str(folder),
        display="none",
    )
    # A detector's verdicts written elsewhere, on the rows of the first MedHallu run.
    rows = read_jsonl(illustrative("medhallu_illustrative.jsonl"))
    verdicts = medhallu_verdicts(folder / "detector.jsonl", rows)
    logs += eval(
        medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), responses=str(verdicts)),
        model="system/acme-detector",
        log_dir=str(folder),
        display="none",
    )
    assert all(log.status == "success" for log in logs), [log.error for log in logs]
    return folder


@pytest.fixture
def open_page(browser_page: Any, tmp_path: Path) -> Callable[[Any], Any]:
    """Render a report `Page` to an HTML file and open it in the browser's page (returned)."""
    from medhalbench.report import render_html

    def open_(page: Any) -> Any:
        html = tmp_path / "report.html"
        html.write_text(render_html(page), encoding="utf-8")
        browser_page.goto(html.as_uri())
        return browser_page

    return open_


@pytest.fixture
def summary_fits() -> Callable[[Any], None]:
    """A check that a page's summary, every fold open, fits the window's 1280 pixels: the
    page does not scroll sideways, nor does any summary table within it."""

    def check(page: Any) -> None:
        for d in page.locator("#section-summary details").all():
            d.evaluate("e => e.open = true")
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        cut = page.eval_on_selector_all(
            "#section-summary .scroll",
            "ss => ss.filter(s => s.scrollWidth > s.clientWidth + 1)"
            ".map(s => [s.firstElementChild.id, s.scrollWidth])",
        )
        assert cut == []

    return check
