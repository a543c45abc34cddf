"""A server on 127.0.0.1 that misbehaves, answers slowly or echoes the key, through the
command line: one retry policy (ours, counted once), malformed replies retried then named,
time limits enforced, SIGTERM answered like Ctrl-C, and no secret in anything written."""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from helpers import free_port
from medhalbench.data import MAX_REDIRECTS
from medhalbench.examples import illustrative
from stub_server import StubHandler, serve

DATASET = illustrative("medhallu_illustrative.jsonl")
SECRET = "sk-planted-SECRET-9b1e2d"


class Stub:
    """A stub server with a fault schedule and a delay; counts its chat requests."""

    def __init__(self, fault: Callable[[int], str], delay: float = 0.0) -> None:
        self.port = free_port()
        self.seen = 0
        self.server = serve(self.port, delay, fault=self._fault)
        self.server.block_on_close = False
        self._schedule = fault

    def _fault(self, n: int) -> str:
        self.seen += 1
        return self._schedule(self.seen)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


@pytest.fixture
def stubs() -> Iterator[list[Stub]]:
    started: list[Stub] = []
    yield started
    for stub in started:
        stub.server.shutdown()
        stub.server.server_close()


Medhalbench = Callable[..., subprocess.CompletedProcess[str]]
"""`medhalbench(*ARGS, cwd=..., timeout=...)`: the command's result, in a process of its own."""


@pytest.fixture
def medhalbench(warm_cli: list[str]) -> Medhalbench:
    def run(*args: str, cwd: Path, timeout: float = 240) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*warm_cli, *args], capture_output=True, text=True, cwd=cwd, timeout=timeout,
            env={**os.environ, "STUB_API_KEY": SECRET},
        )  # fmt: skip

    return run


def eval_args(base_url: str, *extra: str) -> list[str]:
    return [
        "eval", "medhallu", "--dataset", DATASET, "--limit", "2", "--model",
        "openai-api/stub/m", "--model-base-url", base_url, "--no-cache", "--log-dir", "logs",
        "--display", "none", *extra,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("fault", "named"),
    [
        ("nonjson", "not JSON (an HTML page?)"),
        ("nonutf8", "not UTF-8 text"),
        ("cutjson", "not JSON, or cut off"),
        ("nochoices", "not a chat completion"),
        ("badtypes", "not a chat completion"),
    ],
)
def test_a_malformed_reply_is_retried_then_named_in_one_line(
    medhalbench: Medhalbench, fault: str, named: str, stubs: list[Stub], tmp_path: Path
) -> None:
    stubs.append(stub := Stub(lambda n: fault))
    result = medhalbench(*eval_args(stub.base_url, "--max-retries", "1"), cwd=tmp_path)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and named in lines[0] and stub.base_url in lines[0], lines
    assert "Traceback" not in result.stderr and "RetryError" not in result.stderr
    assert stub.seen >= 2  # retried: the reply could have been a passing fault


def test_replies_that_ended_early_are_counted_and_explained(
    medhalbench: Medhalbench, stubs: list[Stub], tmp_path: Path
) -> None:
    kinds = ["cutreply", "ok", "filtered", "cutreply"]
    stubs.append(stub := Stub(lambda n: kinds[(n - 1) % len(kinds)]))
    result = medhalbench(*eval_args(stub.base_url, "--max-connections", "1"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    flat = " ".join(result.stdout.split())
    assert (
        "openai-api/stub/m (medhallu): 3 of 4 replies ended early: 2 cut at the token limit" in flat
    )
    assert "1 stopped by the provider's content filter" in flat
    assert "4 samples, 3 unparseable" in flat  # counted, not guessed


def test_a_chat_completion_without_a_choice_is_named_in_one_line(
    medhalbench: Medhalbench, stubs: list[Stub], tmp_path: Path
) -> None:
    stubs.append(stub := Stub(lambda n: "emptychoices"))
    result = medhalbench(*eval_args(stub.base_url, "--max-retries", "1"), cwd=tmp_path)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and "holds no choice" in lines[0] and stub.base_url in lines[0], lines
    assert "IndexError" not in result.stderr and "Traceback" not in result.stderr


def test_a_server_that_redirects_again_and_again_is_named_not_retried(
    medhalbench: Medhalbench, stubs: list[Stub], tmp_path: Path
) -> None:
    stubs.append(stub := Stub(lambda n: "redirect"))
    args = eval_args(stub.base_url, "--max-retries", "3", "--max-connections", "1")
    result = medhalbench(*args, cwd=tmp_path)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2 and len(lines) == 1, result.stderr
    assert "redirects the request again and again" in lines[0] and stub.base_url in lines[0]
    # One attempt (not retried) of the first sample: the request and its redirects.
    assert stub.seen == MAX_REDIRECTS + 1, stub.seen


@pytest.mark.parametrize("retries", [0, 1])
def test_retries_are_ours_and_counted_once(
    medhalbench: Medhalbench, retries: int, stubs: list[Stub], tmp_path: Path
) -> None:
    stubs.append(stub := Stub(lambda n: "500"))
    result = medhalbench(
        *eval_args(stub.base_url, "--max-retries", str(retries), "--max-connections", "1"),
        cwd=tmp_path,
    )
    assert result.returncode == 2 and "server error (5xx)" in result.stderr
    # One connection, the run stops at its first failed sample: that sample's attempts only
    # (the SDK's own two retries per attempt are off).
    assert stub.seen == retries + 1, stub.seen


@pytest.mark.parametrize(("fault", "delay"), [("ok", 4.0), ("timeout", 0.0)])
def test_the_time_limit_holds_for_slow_and_hanging_servers(
    medhalbench: Medhalbench, fault: str, delay: float, stubs: list[Stub], tmp_path: Path
) -> None:
    StubHandler.hang = 60
    stubs.append(stub := Stub(lambda n: fault, delay))
    started = time.monotonic()
    result = medhalbench(*eval_args(stub.base_url, "--timeout", "2"), cwd=tmp_path)
    assert result.returncode == 2 and "timed out (no reply within 2 s)" in result.stderr
    # Not the server's hang, nor the default 300 s attempt (the scenario's bound, not the
    # machine's speed).
    assert time.monotonic() - started < StubHandler.hang


def test_bad_base_urls_are_one_line_without_the_key(
    medhalbench: Medhalbench, tmp_path: Path
) -> None:
    for url, named in (("htp:/x", "expected an http:// or https:// URL"),
                       (f"http://user:{SECRET}@127.0.0.1:9/v1", "holds a key or password")):  # fmt: skip
        result = medhalbench(*eval_args(url), cwd=tmp_path)
        assert result.returncode == 2 and named in result.stderr
        assert SECRET not in result.stdout + result.stderr


def test_a_file_that_is_not_gguf_is_refused_before_any_work(
    medhalbench: Medhalbench, tmp_path: Path
) -> None:
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"PK\x03\x04 not a model")
    result = medhalbench(
        "eval", "medhallu", "--dataset", DATASET, "--model", str(fake), cwd=tmp_path
    )
    assert result.returncode == 2 and "is not a GGUF file" in result.stderr
    assert "retry" not in result.stderr


def test_sigterm_stops_a_run_like_ctrl_c(
    warm_cli: list[str], stubs: list[Stub], tmp_path: Path
) -> None:
    stubs.append(stub := Stub(lambda n: "ok", 1.0))
    process = subprocess.Popen(
        [*warm_cli, *eval_args(stub.base_url, "--max-connections", "1")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "STUB_API_KEY": SECRET},
    )  # fmt: skip
    deadline = time.monotonic() + 90
    while stub.seen < 1 and time.monotonic() < deadline:
        time.sleep(0.2)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143, err
    assert "medhalbench retry" in err and "Traceback" not in err


def test_a_key_echoed_by_the_server_is_in_nothing_written(
    medhalbench: Medhalbench, stubs: list[Stub], tmp_path: Path
) -> None:
    traces = Path.home() / ".local" / "share" / "inspect_ai" / "traces"
    before = set(traces.glob("trace-*")) if traces.is_dir() else set()
    stubs.append(stub := Stub(lambda n: "echokey" if n % 2 else "ok"))
    result = medhalbench(*eval_args(stub.base_url, "--max-retries", "0"), cwd=tmp_path)
    assert result.returncode == 2
    report = medhalbench("report", "logs", "--out", "report.html", cwd=tmp_path)
    assert SECRET not in result.stdout + result.stderr + report.stdout + report.stderr
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.suffix == ".eval" for p in written)
    for path in written:
        data = path.read_bytes()
        if path.suffix == ".eval":
            import zipfile

            with zipfile.ZipFile(path) as log:
                data = b"".join(log.read(name) for name in log.namelist())
        assert SECRET.encode() not in data, path
    for trace in set(traces.glob("trace-*")) - before:
        opener = gzip.open if trace.suffix == ".gz" else open
        with opener(trace, "rb") as f:
            assert SECRET.encode() not in f.read(), trace


def test_a_request_the_server_refuses_is_one_line_with_its_address_and_reason(
    medhalbench: Medhalbench, stubs: list[Stub], tmp_path: Path
) -> None:
    stubs.append(stub := Stub(lambda n: "400"))
    result = medhalbench(*eval_args(stub.base_url), cwd=tmp_path)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and stub.base_url in lines[0], lines
    assert "400" in lines[0] and "model 'nope' does not exist" in lines[0]
    assert "Traceback" not in result.stderr and "unexpected" not in result.stderr


def test_a_404_with_a_reason_and_a_key_http_cannot_carry_are_named() -> None:
    from medhalbench.commands._failures import _kind_of

    kind, reason = _kind_of(
        "NotFoundError(\"Error code: 404 - {'error': {'message': 'The model `x` does not "
        "exist.', 'type': 'NotFoundError'}}\")",
        "openai.NotFoundError: Error code: 404",
    )
    assert kind == "misbehaving" and "The model `x` does not exist." in reason
    assert "no such endpoint" in _kind_of("Error code: 404 - <html>", "x.NotFoundError: 404")[1]
    # A 404 is a status: the number elsewhere in a traceback (a line, a port, an address) is not.
    timed_out = _kind_of("Request timed out.", 'File "x.py", line 404\nopenai.APITimeoutError')
    assert timed_out == ("server", "timed out")
    kind, reason = _kind_of(
        "'ascii' codec can't encode character '\\xfc' in position 13",
        "builtins.UnicodeEncodeError: 'ascii' codec can't encode character",
    )
    assert kind == "input" and "HTTP header" in reason


def test_a_tool_call_no_tool_was_offered_for_is_the_replys_last_turn(
    medhalbench: Medhalbench, stubs: list[Stub], tmp_path: Path
) -> None:
    stubs.append(stub := Stub(lambda n: "toolcall"))
    result = medhalbench(*eval_args(stub.base_url), cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    assert stub.seen == 4  # one call a sample: the call is read, never answered as a tool
    assert "4 samples" in " ".join(result.stdout.split())
