"""Helpers shared by tests: scripted models, log readers, local servers."""

from __future__ import annotations

import base64
import contextlib
import csv
import html
import json
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, GenerateConfig, Model, ModelOutput, ModelUsage, get_model

from medhalbench.results import RunFacts, RunRecord
from medhalbench.results import log_metrics as log_metrics
from medhalbench.settings import SETTINGS_KEY

HEAVY_MODULES = (
    "inspect_ai", "pandas", "scipy", "numpy", "matplotlib", "torch", "transformers",
    "sentence_transformers", "sklearn", "datasets", "bm25s", "openai", "anthropic", "xllamacpp",
    "jinja2", "starlette", "rich",
)  # fmt: skip
"""What a help page never loads: the libraries that take seconds to import."""


def hallucinated_answers(path: str) -> set[str]:
    """The hallucinated answers of a MedHallu JSONL file."""
    return {json.loads(line)["Hallucinated Answer"] for line in Path(path).read_text().splitlines()}


def scripted_model(
    reply: Callable[[str], str],
    calls: list[str] | None = None,
    chats: list[list[ChatMessage]] | None = None,
) -> Model:
    """A mockllm model whose reply is a function of the last message (the last messages, and
    the whole chats, are recorded where lists are given)."""

    def respond(
        messages: list[ChatMessage], tools: object, tool_choice: object, config: GenerateConfig
    ) -> ModelOutput:
        user = messages[-1].text
        if calls is not None:
            calls.append(user)
        if chats is not None:
            chats.append(messages)
        output = ModelOutput.from_content(model="mockllm", content=reply(user))
        # Set usage so mockllm does not count tokens with tiktoken (a download, offline here).
        output.usage = ModelUsage(
            input_tokens=len(user.split()), output_tokens=1, total_tokens=len(user.split()) + 1
        )
        return output

    return get_model("mockllm/model", custom_outputs=respond)


@dataclass(frozen=True)
class LocalServer:
    """An OpenAI-compatible server running on 127.0.0.1 for a test session."""

    base_url: str
    model: str


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def interrupt_once_logged(
    process: subprocess.Popen[str], folder: Path, *, logs: int = 1, settle: float = 2.0
) -> str:
    """Ctrl-C a running command once `folder` holds `logs` logs (its start-up can be slow on
    a loaded machine) and `settle` seconds more have let a sample or two run; its stderr
    once it has ended."""
    deadline = time.monotonic() + 120
    while len(list(folder.glob("*.eval"))) < logs and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(settle)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    return err


@contextlib.contextmanager
def served_locally(model: str, alias: str, folder: Path) -> Iterator[str]:
    """`medhalbench serve` (llama.cpp's server) on `model` under the name `alias`, on a free
    port of 127.0.0.1, its output in `folder/server.log`; yields its base URL once it
    answers, and stops it after."""
    port = free_port()
    log = folder / "server.log"
    command = [
        sys.executable, "-m", "medhalbench.cli", "serve", "--model", model, "--port", str(port),
        "--alias", alias, "-M", "n_ctx=4096",
    ]  # fmt: skip
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                pytest.fail(f"server exited early:\n{log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{base_url}/models", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"server did not start in 120 s:\n{log.read_text()[-2000:]}")
                time.sleep(0.5)
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def reply_corpus(path: Path) -> list[dict[str, Any]]:
    """A benchmark's reply corpus: replies in many models' styles, each with the reading a
    careful reader gives it (`expected`), its `style` and, where written, its `kind`."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def corpus_disagreements(
    cases: list[dict[str, Any]], reading: Callable[[dict[str, Any]], tuple[Any, Any]]
) -> list[tuple[Any, ...]]:
    """The cases a parser reads otherwise than the careful reader (verdict, and the
    explanation where the case states one); prints the agreement by kind."""
    wrong = []
    for case in cases:
        label, explanation = reading(case)
        if label != case["expected"] or explanation != case.get("explanation", explanation):
            wrong.append((case.get("kind", case["style"]), case["reply"], case["expected"], label))
    kinds = Counter(c.get("kind", c["style"]) for c in cases)
    missed = Counter(w[0] for w in wrong)
    print(f"\nagreement {1 - len(wrong) / len(cases):.3f} on {len(cases)} replies")
    for kind, n in sorted(kinds.items()):
        print(f"  {kind}: {n - missed[kind]}/{n}")
    return wrong


def reply_texts() -> Any:
    """A hypothesis strategy of model replies: any text, and verdict-like words inside text."""
    from hypothesis import strategies as st

    return st.one_of(
        st.text(max_size=80),
        st.sampled_from(
            [
                "0",
                "1",
                "2",
                "Not sure",
                "not 1",
                "1 or 0",
                "Factual: YES",
                "Factual: no",
                "True",
                "false",
                "yes",
                "Answer 2",
            ]
        ).flatmap(
            lambda s: st.tuples(st.text(max_size=15), st.text(max_size=15)).map(
                lambda t: t[0] + s + t[1]
            )
        ),
    )


@contextlib.contextmanager
def stub_at(reply: Callable[[list[dict[str, Any]]], str]) -> Iterator[str]:
    """An OpenAI-compatible server on 127.0.0.1 answering with `reply` (chat completions and
    the Responses API, as `openai-api/` and `openai/` call them); yields its base URL."""
    from stub_server import serve

    port = free_port()
    server = serve(port, 0.0, reply=reply)
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def openai_served(
    reply: Callable[[list[dict[str, Any]]], str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """`stub_at`, with the `openai` SDK pointed at it (its base URL and a local key in the
    environment, as a user sets them); yields its base URL."""
    with stub_at(reply) as base_url:
        monkeypatch.setenv("OPENAI_BASE_URL", base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-local-test")
        yield base_url


def record_of(settings: Mapping[str, Any]) -> RunRecord:
    """A run's record as its log would hold it, from a test's settings by name: the facts a
    task computes (`RunFacts`: fingerprints, rows, ...) taken as such, the rest as the
    task's settings, and its temperature and max tokens as sent (unless the replies were
    written elsewhere)."""
    sent = ("temperature", "max_tokens")
    given = {
        k: v
        for k, v in settings.items()
        if k not in RunFacts.model_fields and not (k in sent and v is None)
    }
    config = GenerateConfig(
        temperature=given.get("temperature"), max_tokens=given.get("max_tokens")
    )
    return RunRecord.of({**settings, SETTINGS_KEY: given}, config)


class ScheduledStub:
    """The stub server (bench/stub_server.py) on 127.0.0.1 with a fault schedule: `schedule(n)`
    decides the n-th chat request's fault ("ok" for none), and may be changed while it runs;
    `seen` counts the requests it was asked about."""

    def __init__(
        self, schedule: Callable[[int], str], *, delay: float = 0.0, port: int | None = None
    ) -> None:
        from stub_server import serve

        self.schedule = schedule
        self.seen = 0
        self.lock = threading.Lock()
        self.port = port or free_port()
        self.server = serve(self.port, delay, fault=self._fault)
        self.server.block_on_close = False

    def _fault(self, _: int) -> str:
        with self.lock:
            self.seen += 1
            return self.schedule(self.seen)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a JSON lines file."""
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def read_csv(path: Path) -> list[dict[str, str]]:
    """The rows of a CSV file with a header, by column name."""
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def write_jsonl(path: Path, rows: Iterable[Mapping[str, Any]]) -> Path:
    """Writes `rows` to `path` as JSON lines; returns `path`."""
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def medhallu_verdicts(path: Path, rows: Iterable[Mapping[str, Any]]) -> Path:
    """A detector's outputs written elsewhere, at `path`: the right verdict on both samples
    (ground truth and hallucinated) of each MedHallu row."""
    return write_jsonl(
        path,
        (
            {"id": f"{r['pubid']}-{kind}", "verdict": int(kind == "hallucinated")}
            for r in rows
            for kind in ("ground_truth", "hallucinated")
        ),
    )


def dahl_replies(answers: Mapping[str, str], check: Callable[[str], str]) -> Callable[[str], str]:
    """A scripted model's replies to DAHL's prompts: `answers[question]` to a question, one
    unit per sentence to the splitter, and `check(statement)` to the checker."""

    def reply(prompt: str) -> str:
        if "one fact" in prompt:
            text = prompt.split("TEXT:")[-1].split("SENTENCES:")[0]
            return "\n".join(s.strip() + "." for s in text.strip().split(".") if s.strip())
        if "true or false" in prompt.lower():
            return check(prompt.split("Statement:")[-1])
        return next(a for q, a in answers.items() if q in prompt)

    return reply


def dahl_run(
    questions: Iterable[str],
    reply: Callable[[str], str],
    folder: Path,
    *,
    category: str = "x",
    **settings: Any,
) -> EvalLog:
    """DAHL's run on `questions` (each of `category`, written to a CSV in `folder`), one
    scripted model answering, splitting and checking by `reply`; its log is in `folder`."""
    from inspect_ai import eval as inspect_eval

    from medhalbench.dahl import dahl

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "questions.csv"
    path.write_text("question,category\n" + "".join(f"{q},{category}\n" for q in questions))
    model = scripted_model(reply)
    [log] = inspect_eval(
        dahl(dataset=str(path), **settings),
        model=model,
        model_roles={"splitter": model, "checker": model},
        log_dir=str(folder),
        display="none",
    )
    return log


def start_audit(log: Path, *args: str) -> tuple[subprocess.Popen[str], str | None]:
    """`medhalbench audit LOG ARGS` in a process of its own, and the first line it printed
    within 120 s (None where it printed none)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "medhalbench.cli", "audit", str(log), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline()))  # type: ignore[union-attr]
    reader.start()
    reader.join(120)
    return process, lines[0] if lines else None


def readings(text: str) -> list[str]:
    """Text as each encoding a server may give a key back in is read back (an oracle of what
    a redactor must find, independent of it): line breaks taken out, URL-unquoted,
    HTML-unescaped, `\\uXXXX` unescaped, every run of hex or base64 decoded at every
    alignment."""
    flat = text.replace("\\r", "").replace("\\n", "").replace("\r", "").replace("\n", "")
    found = [flat, unquote(flat), html.unescape(flat)]
    found.append(re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), flat))
    # Every per-character escape at once (a server may mix them).
    # ... and layer after layer (JSON inside JSON: a tool call's arguments in a log).
    layer = flat
    for _ in range(4):
        layer = re.sub(
            r"\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|\\([\\\"/])",
            lambda m: chr(int(m.group(1) or m.group(2), 16)) if m.group(3) is None else m.group(3),
            unquote(html.unescape(layer)),
        )
        found.append(layer)
    # Hex bytes apart (a dump's spaces, colons or hyphens) read as if run together.
    together = re.sub(r"\b([0-9a-fA-F]{2})[ :-](?=[0-9a-fA-F]{2}\b)", r"\1", flat)
    for run in re.findall(r"[0-9a-fA-F]{16,}", f"{flat} {together}"):
        for start in (0, 1):
            cut = run[start:][: (len(run) - start) // 2 * 2]
            found.append(bytes.fromhex(cut).decode("latin-1"))
    for run in re.findall(r"[A-Za-z0-9+/_-]{8,}", flat):
        for start in range(4):
            cut = run[start:].translate(str.maketrans("-_", "+/"))
            cut = cut[: len(cut) // 4 * 4]
            with contextlib.suppress(ValueError):
                found.append(base64.b64decode(cut).decode("latin-1"))
    return found
