"""Shared fixtures: isolated inspect cache/log dirs, the real data folder, a real
OpenAI-compatible server (llama.cpp's, through `medhalbench serve`) on 127.0.0.1, and a
headless Chromium page."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# Before anything imports inspect: retry back-offs of milliseconds, here and in every process
# the tests start (see tests/_fast/sitecustomize.py).
_FAST = str(Path(__file__).parent / "_fast")
sys.path.insert(0, _FAST)
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [_FAST, os.environ.get("PYTHONPATH")]))
import sitecustomize  # noqa: E402, F401, I001

# pytest-xdist's workers start with a terminal size (COLUMNS=80, LINES=24) that a serial run
# has not: every test sees piped output as a user's pipe does, and sets a width it needs.
for _size in ("COLUMNS", "LINES"):
    os.environ.pop(_size, None)

# A suite started as a background job of a script (`./scripts/test.sh &`, nohup, CI runners)
# starts with SIGINT and SIGQUIT ignored, and every command a test starts would inherit that:
# the tests of Ctrl-C stop commands that must take it as a user's terminal gives it.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
if signal.getsignal(signal.SIGQUIT) == signal.SIG_IGN:
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)

import pytest  # noqa: E402

from helpers import LocalServer, served_locally  # noqa: E402
from tests_data import shared_data_or_skip  # noqa: E402


def _group(item: pytest.Item) -> str | None:
    mark = item.get_closest_marker("xdist_group")
    return None if mark is None else str(mark.args[0] if mark.args else mark.kwargs.get("name"))


def _shares_a_module_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    return info is not None and any(
        defs[-1].scope == "module" for defs in info.name2fixturedefs.values() if defs
    )


def pytest_itemcollected(item: pytest.Item) -> None:
    """The tests of a module that share a module-scoped fixture run on one worker, one after
    another (--dist loadgroup): split across workers, or between other modules' tests, the
    fixture would be made again each time."""
    if _group(item) is None and _shares_a_module_fixture(item):
        item.add_marker(pytest.mark.xdist_group(item.module.__name__ if item.module else ""))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests (marked slow, and every test of a group holding one) first, each part in
    the random order pytest-randomly gave it: on few workers a long test started last would
    hold the whole run up."""
    slow = {_group(item) for item in items if item.get_closest_marker("slow")}
    items.sort(
        key=lambda item: (
            item.get_closest_marker("slow") is None
            and (_group(item) is None or _group(item) not in slow)
        )
    )


@pytest.fixture(autouse=True, scope="session")
def _isolated_inspect(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    # Tests must neither read nor fill the user's inspect cache.
    cache = tmp_path_factory.mktemp("inspect-cache")
    old = os.environ.get("INSPECT_CACHE_DIR")
    os.environ["INSPECT_CACHE_DIR"] = str(cache)
    yield
    if old is None:
        os.environ.pop("INSPECT_CACHE_DIR", None)
    else:
        os.environ["INSPECT_CACHE_DIR"] = old


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The embedded model name of a tiny random llama GGUF (`tiny_model.py`), written once per
    test process: the real engine and provider in milliseconds a call, for pipeline tests."""
    from tiny_model import write_tiny_model

    path = write_tiny_model(tmp_path_factory.mktemp("tiny-model") / "tiny.gguf")
    return f"embedded/{path}"


@pytest.fixture(scope="session")
def warm_cli() -> Iterator[list[str]]:
    """The command line that runs `medhalbench ARGS` in a process of its own, forked from one
    warm process that imported the CLI once (`warm_cli.py`): `[*warm_cli, ARGS...]` stands
    where `[sys.executable, "-m", "medhalbench.cli", ARGS...]` would."""
    program = str(Path(__file__).with_name("warm_cli.py"))
    # A short folder of its own: a socket's path is limited to about 100 characters.
    folder = Path(tempfile.mkdtemp(prefix="warm-cli-"))
    address = str(folder / "cli.sock")
    server = subprocess.Popen(
        [sys.executable, program, "--serve", address], stdout=subprocess.PIPE, text=True
    )
    assert server.stdout is not None
    try:
        ready = server.stdout.readline()
        assert ready == "ready\n", f"the warm CLI server did not start: {ready!r}"
        yield [sys.executable, "-S", "-E", program, address]
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def shared_data() -> Path:
    """The real data folder; skips the test when it is absent (e.g. a user's fresh clone)."""
    return shared_data_or_skip()


@pytest.fixture
def offline_hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The Hugging Face Hub offline (HF_HUB_OFFLINE=1), with no reachability remembered from
    before the test, nor left for the tests after it."""
    from medhalbench.data import _hub

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    _hub.hub_reachable.cache_clear()
    yield
    _hub.hub_reachable.cache_clear()


@pytest.fixture
def sample_path() -> str:
    """The packaged illustrative MedHallu sample (12 rows we wrote)."""
    from medhalbench.examples import illustrative

    return illustrative("medhallu_illustrative.jsonl")


@pytest.fixture(scope="session")
def llama_server(
    tiny_model: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LocalServer]:
    """llama.cpp's server (`medhalbench serve`) on the tiny model: the real server, SDK and
    provider path; tests whose point is what a reply says use the realistic server."""
    with served_locally(tiny_model, "tiny", tmp_path_factory.mktemp("server")) as base_url:
        yield LocalServer(base_url=base_url, model="tiny")


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
def browser_page() -> Iterator[Any]:
    """A page of headless Chromium at 1280 x 900 (Playwright)."""
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
            yield browser.new_page(viewport={"width": 1280, "height": 900})
        finally:
            browser.close()
