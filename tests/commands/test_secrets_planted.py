"""A planted key reaches nothing we write or print. Every command (eval of the three
benchmarks, build of the three, retry of a failed and of a killed run, run, report, compare,
audit, serve, a plan) runs against an OpenAI-compatible server on 127.0.0.1 that quotes the
key back: in 401s, in errors with a colour code inside the key, in successful replies (whole,
cut by a line wrap, and in every form a server may give it back in: upper case, every byte
percent-encoded, `\\uXXXX`, HTML references, base64 at each alignment, hex, its middle, and
spelt by the log-probabilities' tokens), in response headers. Then every byte written under the work folder,
inspect's response cache, the temporary folder and inspect's data folder (traces, sample
buffers), and both output streams of every command, are searched for any run of 8
characters of the key, read back from each of those forms; `--display full` with inspect's tracebacks showing local variables,
on a narrow terminal, is among them."""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import inspect_ai.log  # noqa: F401 - zipfile reads the logs' zstd members once it is imported
import pytest

from helpers import ScheduledStub, free_port, readings
from medhalbench._secrets import _ANSI, FRAGMENT_LENGTH
from medhalbench.examples import illustrative

# One worker builds the session that every test here reads (--dist loadgroup).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("secrets_planted")]

KEY = "sk-proj-PLANTEDq8Zx41vN0cKe3xWm7TbR4u-7741"
ARG_KEY = "sk-arg-PLANTED-given-with-M-5e6f7a8b9c"
SERVE_KEY = "serve-key-PLANTED-0f9e8d7c6b5a"
MODEL = "openai-api/stub/stub"
ECHOES = ["keyreply", "keyansi", "keyheader", "keywrap", "echokey", "keyencoded", "ok"]


def fragments(secret: str) -> set[str]:
    return {secret[i : i + FRAGMENT_LENGTH] for i in range(len(secret) - FRAGMENT_LENGTH + 1)}


@dataclass
class Session:
    """Where everything is written, and what every command printed."""

    root: Path
    env: dict[str, str]
    program: list[str]
    """How a command starts: the warm CLI (a process of its own, forked ready)."""
    printed: list[tuple[str, str]] = field(default_factory=list)

    @property
    def work(self) -> Path:
        return self.root / "work"

    def run(
        self,
        *args: str,
        timeout: float = 300,
        ok: tuple[int, ...] = (0,),
        env: dict[str, str] | None = None,
    ) -> str:
        result = subprocess.run(
            [*self.program, *args],
            capture_output=True, text=True, cwd=self.work, env=env or self.env, timeout=timeout,
        )  # fmt: skip
        self.printed.append((" ".join(args[:2]), result.stdout + result.stderr))
        assert result.returncode in ok, (args, result.returncode, result.stderr[-3000:])
        return result.stdout + result.stderr


def echoing(n: int) -> str:
    return ECHOES[(n - 1) % len(ECHOES)]


def write_inputs(work: Path) -> None:
    (work / "papers.jsonl").write_text(
        "".join(
            json.dumps({"id": f"p{i}", "text": f"Paper {i}: metformin lowers glucose output."})
            + "\n"
            for i in range(2)
        )
    )
    (work / "ori_pqal.json").write_text(
        json.dumps(
            {
                str(1000 + i): {
                    "QUESTION": f"Does treatment {i} improve outcome {i}?",
                    "CONTEXTS": [f"Patients received treatment {i} or placebo."],
                    "final_decision": "yes",
                    "LONG_ANSWER": f"Yes. Treatment {i} improved outcome {i} against placebo.",
                }
                for i in range(2)
            }
        )
    )
    (work / "medqa.jsonl").write_text(
        "".join(
            json.dumps(
                {"question": f"Which drug treats condition {i}?", "answer": "Metformin",
                 "options": {"A": "Metformin", "B": "Aspirin", "C": "Heparin", "D": "Insulin"},
                 "answer_idx": "A"}
            ) + "\n"
            for i in range(2)
        )
    )  # fmt: skip


@pytest.fixture(scope="module")
def session(warm_cli: list[str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    root = tmp_path_factory.mktemp("planted")
    for name in ("work", "cache", "tmp", "data", "xdg-cache", "xdg-config"):
        (root / name).mkdir()
    env = {
        **os.environ,
        "STUB_API_KEY": KEY,
        "MEDHALBENCH_SERVE_API_KEY": "",
        "INSPECT_CACHE_DIR": str(root / "cache"),
        "TMPDIR": str(root / "tmp"),
        "XDG_DATA_HOME": str(root / "data"),  # inspect's traces and sample buffers
        "XDG_CACHE_HOME": str(root / "xdg-cache"),
        "XDG_CONFIG_HOME": str(root / "xdg-config"),
        "COLUMNS": "60",  # narrow: tracebacks and tables wrap, cutting the key
        "INSPECT_TRACEBACK_LOCALS": "1",  # tracebacks show the SDK's local variables
    }
    env.pop("PYTEST_CURRENT_TEST", None)
    session = Session(root, env, warm_cli)
    write_inputs(session.work)
    echo = ScheduledStub(echoing)
    refusing = ScheduledStub(lambda n: "key401")
    slow = ScheduledStub(echoing, delay=0.5)
    try:
        run_every_command(session, echo, refusing, slow)
        yield session
    finally:
        for server in (echo, refusing, slow):
            server.stop()


def eval_args(benchmark: str, url: str, *extra: str) -> list[str]:
    return [
        "eval", benchmark, "--model", MODEL, "--model-base-url", url, "--max-retries", "6",
        "--log-dir", "logs", *extra,
    ]  # fmt: skip


def run_every_command(
    session: Session, echo: ScheduledStub, refusing: ScheduledStub, slow: ScheduledStub
) -> None:
    medhal = illustrative("medhal_illustrative.jsonl")
    # eval x 3, through inspect's full display (tracebacks and all), cache on.
    session.run(
        *eval_args("medhallu", echo.base_url, "--dataset", "example", "--limit", "2"),
        "--display", "full",
    )  # fmt: skip
    session.run(
        *eval_args("dahl", echo.base_url, "--dataset", "example", "--limit", "1", "--splitter",
                   MODEL, "--checker", MODEL),
        ok=(0, 1),
    )  # fmt: skip
    session.run(*eval_args("medhal", echo.base_url, "--dataset", medhal))
    # A run the server refuses with a 401 quoting the key; retried once the key is "fixed".
    failed = session.run(
        *eval_args("medhallu", refusing.base_url, "--dataset", "example", "--limit", "2",
                   "--log-dir", "refused"),
        "--display", "full", ok=(1, 2),
    )  # fmt: skip
    [log] = re.findall(r"medhalbench retry (\S+\.eval)", failed)
    refusing.schedule = echoing
    session.run("retry", log, "--display", "full")
    # A run killed mid-way (no chance to clean up), then retried: a process of the installed
    # package's own (a warm CLI's launcher would die alone).
    killed_dir = session.work / "killed"
    process = subprocess.Popen(
        [sys.executable, "-m", "medhalbench.cli",
         *eval_args("medhallu", slow.base_url, "--dataset", "example", "--limit", "4",
                    "--log-dir", str(killed_dir), "--max-connections", "1")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=session.work,
        env=session.env,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while slow.seen < 4 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)  # a flush of the log's realtime samples
    process.send_signal(signal.SIGKILL)
    out, err = process.communicate(timeout=30)
    session.printed.append(("killed eval", out + err))
    [killed] = killed_dir.glob("*.eval")
    session.run("retry", str(killed))
    # A key given with -M (none in the environment): kept nowhere, given again to retry.
    no_env = {k: v for k, v in session.env.items() if k != "STUB_API_KEY"}
    refusing.schedule = lambda n: "500" if n % 3 == 0 else "keyreply"
    failed = session.run(
        *eval_args("medhallu", refusing.base_url, "--dataset", "example", "--limit", "4",
                   "--log-dir", "model-args"),
        "-M", f"api_key={ARG_KEY}", "--max-retries", "0", "--no-cache", env=no_env, ok=(1, 2),
    )  # fmt: skip
    [log] = re.findall(r"medhalbench retry (\S+\.eval)", failed)
    refusing.schedule = echoing
    asked = session.run("retry", log, env=no_env, ok=(2,))
    assert "api_key" in asked and len(asked.strip().splitlines()) == 1
    session.run("retry", log, "-M", f"api_key={ARG_KEY}", env=no_env)
    # A suite.
    suite = session.work / "suite.yaml"
    suite.write_text(
        f"log_dir: {session.work / 'suite-logs'}\n"
        f'settings: {{model_base_url: "{echo.base_url}", max_retries: 6}}\n'
        f"models:\n  - name: {MODEL}\n"
        "runs:\n  - benchmark: medhallu\n    args: {dataset: example, limit: 2}\n"
    )
    session.run("run", str(suite))
    # Reports, a comparison, the audit's summary and its page.
    session.run("report", "logs", "--out", "report.html")
    session.run("report", "logs", "--out", "report.md", "--format", "markdown")
    session.run("report", "logs", "--out", "report.csv", "--format", "csv")
    medhallu_logs = sorted(
        str(p) for p in (session.work / "logs").glob("*medhallu*.eval")
    ) + sorted(str(p) for p in (session.work / "refused").glob("*.eval"))
    session.run("compare", medhallu_logs[0], medhallu_logs[-1], ok=(0, 2))
    session.run("audit", medhallu_logs[0], "--summary")
    audit_page(session, medhallu_logs[0])
    # build x 3.
    session.run(
        "build", "dahl", "--papers", "papers.jsonl", "--out", "built/dahl", "--generator",
        MODEL, "--model-base-url", echo.base_url, "--max-retries", "6", "--concurrency", "1",
        ok=(0, 1),
    )  # fmt: skip
    session.run(
        "build", "medhallu", "--pubmedqa", "ori_pqal.json", "--out", "built/medhallu",
        "--model", MODEL, "--nli", f"llm:{MODEL}", "--model-base-url", echo.base_url,
        "--max-retries", "6", "--attempts", "2", "--concurrency", "1", "--limit", "1",
        ok=(0, 1),
    )  # fmt: skip
    session.run(
        "build", "medhal", "--source", "medqa=medqa.jsonl", "--out", "built/medhal",
        "--converter", MODEL, "--model-base-url", echo.base_url, "--max-retries", "6",
        ok=(0, 1),
    )  # fmt: skip
    # A key in a base URL: refused in one line, in a plan as in a run.
    for url in (f"{echo.base_url}?api_key={KEY}", f"http://user:{KEY}@127.0.0.1:{echo.port}/v1"):
        refused = session.run(
            *eval_args("medhallu", url, "--dataset", "example", "--dry-run"), ok=(2,)
        )
        assert "environment variable" in refused and len(refused.strip().splitlines()) == 1
    serve_briefly(session)


def audit_page(session: Session, log: str) -> None:
    process = subprocess.Popen(
        [*session.program, "audit", log, "--port", "0", "--items", "4"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=session.work,
        env=session.env,
    )  # fmt: skip
    assert process.stdout is not None
    first = process.stdout.readline()
    url = re.search(r"http://127\.0\.0\.1:\d+/[\w-]+/", first)
    assert url, first
    pages = [urllib.request.urlopen(url.group() + f"item/{i}", timeout=30).read() for i in range(4)]
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    session.printed.append(("audit page", first + out + err + b"".join(pages).decode()))


def serve_briefly(session: Session) -> None:
    port = free_port()
    process = subprocess.Popen(
        [*session.program, "serve", "--port", str(port),
         "--api-key", SERVE_KEY],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=session.work,
        env=session.env,
    )  # fmt: skip
    assert process.stdout is not None
    first = process.stdout.readline()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/models", headers={"Authorization": f"Bearer {SERVE_KEY}"}
    )
    assert b"smollm2" in urllib.request.urlopen(request, timeout=60).read()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    session.printed.append(("serve", first + out + err))


def found_in(data: str) -> list[str]:
    """The pieces of a planted key in text, in any form a server may give it back in."""
    texts = [r.lower() for r in readings(_ANSI.sub("", data))]
    secrets = (KEY, SERVE_KEY, ARG_KEY)
    return sorted(
        {g for secret in secrets for g in fragments(secret) if any(g.lower() in t for t in texts)}
    )


def contents(path: Path) -> str:
    data = path.read_bytes()
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            data = b"".join(archive.read(name) for name in archive.namelist())
    elif data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("latin-1")


def test_every_command_ran_against_the_echoing_server(session: Session) -> None:
    ran = [name for name, _ in session.printed]
    for expected in ("eval medhallu", "eval dahl", "eval medhal", "retry", "killed eval",
                     "run", "report", "compare", "audit page", "build dahl",
                     "build medhallu", "build medhal", "serve"):  # fmt: skip
        assert any(name.startswith(expected) for name in ran), expected
    written = [p for p in session.root.rglob("*") if p.is_file()]
    assert any(p.suffix == ".eval" for p in written)
    assert list((session.root / "cache").rglob("*")), "inspect's response cache was used"
    assert (session.work / "built" / "medhallu" / "records.jsonl").exists()
    # The server did quote the key: the replies carry the redaction mark where it stood.
    assert "[redacted]" in "".join(contents(p) for p in written if p.suffix == ".eval")


def test_no_piece_of_the_key_in_anything_printed(session: Session) -> None:
    leaks = {name: found_in(text) for name, text in session.printed if found_in(text)}
    assert not leaks, leaks


def test_no_piece_of_the_key_in_anything_written(session: Session) -> None:
    leaks = {}
    for path in session.root.rglob("*"):
        if path.is_file() and (found := found_in(contents(path))):
            leaks[str(path.relative_to(session.root))] = found
    assert not leaks, leaks
