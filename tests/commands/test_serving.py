"""`medhalbench serve` behaves as its peers (vLLM, llama.cpp's server): only its own model
(404 otherwise), only under its own Host names, CORS only for its own pages, the key asked
for; it ends as a supervised server should (SIGTERM within seconds with 143) and refuses a
bad engine option in one line with exit code 2."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from helpers import free_port

SERVE = [sys.executable, "-m", "medhalbench.cli", "serve"]


def test_sigterm_stops_it_within_seconds_as_a_stop(tiny_model: str, tmp_path: Path) -> None:
    process = subprocess.Popen(
        [*SERVE, "--model", tiny_model, "--port", str(free_port())],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        preexec_fn=lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL),
    )  # fmt: skip
    assert process.stdout is not None
    assert "http://127.0.0.1:" in process.stdout.readline()  # ready
    sent = time.monotonic()
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert time.monotonic() - sent < 15 and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["-M", "n_ctx=lots"], "n_ctx"),
        (["-M", "n_ctx=99999999999999999999"], "n_ctx"),  # past what the engine takes
        (["-M", "n_ctx=100000", "-M", "parallel=40000"], "n_ctx x parallel"),
        (["--allow-host", "box.local:port"], "--allow-host"),
        (["--allow-host", "box.local:99999"], "--allow-host"),
    ],
)
def test_a_bad_option_is_refused_in_one_line(tiny_model: str, args: list[str], named: str) -> None:
    done = subprocess.run([*SERVE, "--model", tiny_model, *args], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert named in line and "Traceback" not in done.stderr


def _serve(tiny_model: str, tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    process = subprocess.Popen(
        [*SERVE, "--model", tiny_model, "--port", str(port), "--alias", "tiny", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert process.stdout is not None
    assert f"http://127.0.0.1:{port}/v1" in process.stdout.readline()
    return process, port


def _ask(port: int, path: str, body: dict[str, object] | None = None, **headers: str):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **headers},
        method="POST" if body is not None else headers.pop("method", "GET"),
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as ex:
        return ex.code, dict(ex.headers), ex.read()


CHAT = {"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 2}


def test_it_answers_only_its_model_under_its_own_names(tiny_model: str, tmp_path: Path) -> None:
    process, port = _serve(tiny_model, tmp_path, "--allow-host", "box.internal:9000")
    try:
        for other in ("gpt-4o", "smollm2", "tiny ", "TINY"):
            code, _, body = _ask(port, "/v1/chat/completions", {**CHAT, "model": other})
            assert code == 404 and "serves `tiny`" in json.loads(body)["error"]["message"]
        code, _, body = _ask(port, "/v1/chat/completions", {**CHAT, "model": "tiny"})
        assert code == 200 and json.loads(body)["model"] == "tiny"
        # A page elsewhere that points its name at 127.0.0.1 sends its own Host.
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1:1"):
            assert _ask(port, "/v1/models", Host=host)[0] == 403
        assert _ask(port, "/v1/models", Host="box.internal:9000")[0] == 200
        # CORS for its own pages only.
        own, foreign = f"http://localhost:{port}", "http://evil.example"
        code, headers, _ = _ask(port, "/v1/models", Origin=own)
        assert code == 200 and headers.get("access-control-allow-origin") == own
        code, headers, _ = _ask(port, "/v1/models", Origin=foreign)
        assert "access-control-allow-origin" not in {k.lower() for k in headers}
        preflight = {"method": "OPTIONS", "Access-Control-Request-Method": "POST"}
        assert _ask(port, "/v1/chat/completions", Origin=foreign, **preflight)[0] == 403
        assert _ask(port, "/v1/chat/completions", Origin=own, **preflight)[0] == 204
        assert _ask(port, "/slots")[0] == 404  # only the API is forwarded
    finally:
        process.terminate()
        process.communicate(timeout=60)


def test_a_key_set_is_asked_for(tiny_model: str, tmp_path: Path) -> None:
    process, port = _serve(tiny_model, tmp_path, "--api-key", "serve-k3y-123")
    try:
        assert _ask(port, "/v1/models")[0] == 401
        assert _ask(port, "/v1/models", Authorization="Bearer wrong")[0] == 401
        assert _ask(port, "/v1/models", Authorization="Bearer serve-k3y-123")[0] == 200
    finally:
        process.terminate()
        _, err = process.communicate(timeout=60)
    assert "serve-k3y-123" not in err


def test_an_alias_holding_control_characters_is_refused(tiny_model: str) -> None:
    done = subprocess.run(
        [*SERVE, "--model", tiny_model, "--alias", "t\x1b]0;x\x07"], capture_output=True, text=True
    )
    assert done.returncode == 2 and "\x1b" not in done.stderr
