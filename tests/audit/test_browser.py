"""The audit page in a real headless Chromium: answers by mouse and keyboard, the server
killed half way and started again, the answers saved and the summary computed from them."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sklearn.metrics import cohen_kappa_score

from helpers import free_port
from medhalbench.audit import answers_path, audited_logs, draw
from medhalbench.cli import cli

ITEMS, SEED = 6, 3


def start(log: Path, port: int) -> tuple[subprocess.Popen[str], str]:
    """The page's server, and the address it prints (token included) once it listens."""
    process = subprocess.Popen(
        [sys.executable, "-m", "medhalbench.cli", "audit", str(log), "--annotator", "alice",
         "--port", str(port), "--items", str(ITEMS), "--seed", str(SEED)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline()))  # type: ignore[union-attr]
    reader.start()
    reader.join(120)
    found = re.search(rf"http://127\.0\.0\.1:{port}/[\w-]+", lines[0]) if lines else None
    if found is None:
        process.kill()
        pytest.fail(f"the audit page did not start in 120 s: {lines} {process.communicate()}")
    return process, found.group()


def progress(page: Any) -> str:
    return str(page.inner_text("#progress")).strip()


def test_audit_by_mouse_and_keyboard_survives_a_killed_server(
    medhal_log: Path, browser_page: Any, tmp_path: Path
) -> None:
    # The log comes first: it cannot be written while Playwright's event loop runs.
    page = browser_page
    refused: list[str] = []  # what the Content-Security-Policy blocked: nothing of ours
    page.on("console", lambda m: refused.append(m.text) if "Security Policy" in m.text else None)
    port = free_port()
    server, url = start(medhal_log, port)
    try:
        page.goto(f"{url}/")
        assert "Item 1 of 6" in page.inner_text("h1") and progress(page) == "0 of 6 answered"
        assert page.inner_text("section.focus h2").lower() == "statement"  # what is judged
        page.click("button[value=agree]")  # the mouse
        page.wait_for_selector("text=Item 2 of 6")
        page.keyboard.press("d")  # the keyboard
        page.wait_for_selector("text=Item 3 of 6")
        page.fill("#note", "dose unclear")  # typing a note answers nothing
        page.click("h1")
        page.keyboard.press("c")
        page.wait_for_selector("text=Item 4 of 6")
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
        for key, after in (("a", "Item 5 of 6"), ("a", "Item 6 of 6"), ("d", "All 6 items")):
            page.keyboard.press(key)
            page.wait_for_selector(f"text={after}")
        page.goto(f"{again}/item/1")  # an answer given shows when revisited
        assert page.get_attribute("button[value=disagree]", "class") == "given"
    finally:
        server.send_signal(signal.SIGINT)
        out, _ = server.communicate(timeout=30)
    assert server.returncode == 0 and "6 of 6 answered" in out
    assert refused == []

    [log] = audited_logs([medhal_log])
    drawn = draw(log.items, ITEMS, SEED)
    saved = [json.loads(x) for x in answers_path(medhal_log).read_text().splitlines()]
    choices = ["agree", "disagree", "cannot_tell", "agree", "agree", "disagree"]
    assert [(s["key"], s["answer"]) for s in saved] == [
        (i.key, c) for i, c in zip(drawn, choices, strict=True)
    ]
    assert saved[2]["note"] == "dose unclear"
    assert {s["annotator"] for s in saved} == {"alice"} and {s["seed"] for s in saved} == {SEED}

    result = CliRunner().invoke(cli, ["audit", str(medhal_log), "--summary"])
    assert result.exit_code == 0, result.stderr
    row = next(x for x in result.stdout.splitlines() if x.startswith("│ all "))
    cells = [c.strip() for c in row.strip("│").split("│")]
    assert cells[1:5] == ["6", "3", "2", "1"]
    assert cells[5].startswith("0.600 ")  # 3 agree of 5 told
    opposite = {"factual": "not factual", "not factual": "factual"}
    pairs = [
        (i.verdict, i.verdict if c == "agree" else opposite[i.verdict])
        for i, c in zip(drawn, choices, strict=True)
        if c != "cannot_tell"
    ]
    kappa = cohen_kappa_score(*zip(*pairs, strict=True))
    assert cells[6].startswith(f"{kappa:.3f}"), (cells, kappa)


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
