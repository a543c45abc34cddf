"""The audit page in a real headless Chromium: blind until answered, answers by mouse and
keyboard, the server killed half way and started again, the answers saved and each role's
summary computed from them; the splitter's three questions by keyboard."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sklearn.metrics import cohen_kappa_score

from helpers import free_port, start_audit
from medhalbench.audit import answers_path, audit_tables, audited_logs, draw
from medhalbench.cli import cli

ITEMS, SEED = 6, 3


def start(
    log: Path, port: int, *, items: int = ITEMS, seed: int = SEED
) -> tuple[subprocess.Popen[str], str]:
    """The page's server, and the address it prints (token included) once it listens."""
    process, line = start_audit(
        log, "--annotator", "alice", "--port", str(port), "--items", str(items), "--seed", str(seed)
    )
    found = re.search(rf"http://127\.0\.0\.1:{port}/[\w-]+", line) if line else None
    if found is None:
        process.kill()
        pytest.fail(f"the audit page did not start in 120 s: {line!r} {process.communicate()}")
    return process, found.group()


def progress(page: Any) -> str:
    return str(page.inner_text("#progress")).strip()


def choice(item: Any, key: int) -> str:
    """The answer a number key gives on a single-question item."""
    return (*item.questions[0].choices, "cannot tell")[key - 1]


def test_a_blind_audit_by_mouse_and_keyboard_survives_a_killed_server(
    medhal_log: Path, browser_page: Any, tmp_path: Path
) -> None:
    # The log comes first: it cannot be written while Playwright's event loop runs.
    page = browser_page
    refused: list[str] = []  # what the Content-Security-Policy blocked: nothing of ours
    page.on("console", lambda m: refused.append(m.text) if "Security Policy" in m.text else None)
    [log] = audited_logs([medhal_log])
    drawn = draw(log.items, ITEMS, SEED)
    port = free_port()
    server, url = start(medhal_log, port)
    keys = [1, 2, 3, 1, 1, 2]
    try:
        page.goto(f"{url}/")
        assert "Item 1 of 6" in page.inner_text("h1") and progress(page) == "0 of 6 answered"
        # Blind: the judge's reading, the sample's id and the log's name are not on the page.
        body = page.inner_text("body")
        assert page.locator("#reveal").count() == 0
        assert drawn[0].sample_id not in body and medhal_log.name not in body
        assert "MedHal" in page.inner_text("#run")  # the run is named
        page.click(f"button[value='{choice(drawn[0], keys[0])}']")  # the mouse
        page.wait_for_selector("#reveal")  # answered: now the judge's reading and the ids
        assert drawn[0].sample_id in page.inner_text("#where")
        assert drawn[0].verdict in page.inner_text("#reveal")
        page.keyboard.press("n")  # the next unanswered
        page.wait_for_selector("text=Item 2 of 6")
        page.keyboard.press(str(keys[1]))  # the keyboard
        page.wait_for_selector("#reveal")
        page.keyboard.press("n")
        page.wait_for_selector("text=Item 3 of 6")
        page.fill("#note", "dose unclear")  # typing a note answers nothing
        page.click("h1")
        page.keyboard.press(str(keys[2]))
        page.wait_for_selector("#reveal")
        assert progress(page) == "3 of 6 answered"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 1280, width  # nothing wider than the window at 1280 px
        page.screenshot(path=str(tmp_path / "audit.png"), full_page=True)
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    server, again = start(medhal_log, port)
    assert again != url  # a new token at each start
    try:
        page.goto(f"{url}/")  # the old address is no longer served
        assert "token" in page.inner_text("body")
        page.goto(f"{again}/")
        assert "Item 4 of 6" in page.inner_text("h1") and progress(page) == "3 of 6 answered"
        for index in (3, 4, 5):
            page.keyboard.press(str(keys[index]))
            page.wait_for_selector("#reveal")
            page.keyboard.press("n")
            page.wait_for_selector(f"text=Item {index + 2} of 6" if index < 5 else "text=All 6")
        page.goto(f"{again}/item/1")  # an answer given shows when revisited, with the reveal
        given = choice(drawn[1], keys[1])
        assert page.get_attribute(f"button[value='{given}']", "class") == "given"
        assert page.locator("#reveal").count() == 1
    finally:
        server.send_signal(signal.SIGINT)
        out, _ = server.communicate(timeout=30)
    assert server.returncode == 130 and "6 of 6 answered" in out  # stopped by Ctrl-C
    assert refused == []

    saved = [json.loads(x) for x in answers_path(medhal_log).read_text().splitlines()]
    assert [(s["key"], s["answers"]["verdict"]) for s in saved] == [
        (i.key, choice(i, k)) for i, k in zip(drawn, keys, strict=True)
    ]
    assert all(s["blind"] for s in saved) and saved[2]["note"] == "dose unclear"
    assert {s["annotator"] for s in saved} == {"alice"} and {s["seed"] for s in saved} == {SEED}

    result = CliRunner().invoke(cli, ["audit", str(medhal_log), "--summary"])
    assert result.exit_code == 0 and "reader" in result.stdout, result.stderr
    [agreement, _] = audit_tables(audited_logs([medhal_log]), resamples=0)
    rows = {row[0]: row for row in agreement.rows}
    told = [(i, choice(i, k)) for i, k in zip(drawn, keys, strict=True)]
    for role in ("reader", "detector"):
        pairs = [(i.verdict, g) for i, g in told if i.role == role and g != "cannot tell"]
        agree = sum(j == g for j, g in pairs)
        assert rows[role][3] == agree
        assert rows[role][7].value == pytest.approx(agree / len(pairs))
        if len({j for j, _ in pairs}) > 1 and len({g for _, g in pairs}) > 1:
            kappa = cohen_kappa_score(*zip(*pairs, strict=True))
            assert rows[role][8].value == pytest.approx(kappa)


def test_the_splitter_questions_are_answered_by_keyboard(dahl_log: Path, browser_page: Any) -> None:
    page = browser_page
    [log] = audited_logs([dahl_log])
    drawn = draw(log.items, 40, 0)
    position = next(n for n, i in enumerate(drawn) if i.role == "splitter")
    server, url = start(dahl_log, free_port(), items=40, seed=0)
    try:
        page.goto(f"{url}/item/{position}")
        assert page.locator("fieldset").count() == 3  # stated? one fact? a repeat?
        assert "atomic unit" in page.inner_text("section.focus").lower()
        for key in ("1", "1", "2"):  # yes, yes, no: as the splitter holds
            page.keyboard.press(key)
        page.keyboard.press("Enter")
        page.wait_for_selector("#reveal")
        assert page.locator("#reveal td.disagree").count() == 0
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)
    [saved] = [json.loads(x) for x in answers_path(dahl_log).read_text().splitlines()]
    assert saved["role"] == "splitter"
    assert saved["answers"] == {"stated": "yes", "atomic": "yes", "repeat": "no"}


def test_a_port_in_use_is_one_line(medhal_log: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(cli, ["audit", str(medhal_log), "--port", str(port)])
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert result.exit_code == 2 and len(lines) == 1, result.stderr
    assert f"--port {port}: in use" in lines[0]
    assert os.path.exists(medhal_log) and not answers_path(medhal_log).exists()
