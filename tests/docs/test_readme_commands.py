"""Every shell command in the READMEs and the docs runs, so that the docs cannot go stale.

Each command of a ```bash block of README.md, the docs folder, the benchmarks' READMEs and
the examples' README is run as written, in a folder holding the files it names (made from
the packaged examples), with these rules:

- a command that calls a paid API (a model of a provider other than the embedded model,
  outputs written elsewhere or a scripted model) runs with `--dry-run`: the data is loaded
  and checked, the model names and options are checked, nothing is called;
- a command on the embedded model runs for real, on the example data, with `--limit 1`
  where it has no limit of its own (training: `--steps 2`);
- a command that needs the Hugging Face hub (a published dataset, a hub NLI model, `hf/`
  weights) runs offline and must stop with one clear line and exit code 2;
- `inspect eval` runs for real against a local OpenAI-compatible stub server;
- a command that serves a page runs until it says where, then is stopped;
- the few slow real runs (the demo, sweeps, epochs, training, an embedded build) are marked
  `slow`; all but the demo run on the tiny model (`tests/tiny_model.py`) in place of the
  embedded default, named where the command names it or leaves it implicit (the command, not
  the model, is their point; the demo shows the default as a first run does); the install
  and test scripts are not run here (CI runs them on a fresh machine).

A command these rules do not cover fails the test, so a new README command comes with its way
of being run.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai import eval as inspect_eval

from helpers import stub_at
from medhalbench.examples import illustrative
from medhalbench.settings import DEFAULT_MODEL
from stub_server import canned_reply

ROOT = Path(__file__).parents[2]
READMES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "src" / "medhalbench").glob("*/README.md")),
]
OFFLINE_PROVIDERS = ("embedded", "system", "mockllm", "none")
"""Providers that call no paid API: the embedded model, outputs written elsewhere, scripts."""
MODEL_OPTIONS = (
    "--model", "--judge", "--splitter", "--checker", "--generator", "--discriminator",
    "--refiner", "--converter", "--extractor", "--base",
)  # fmt: skip
NOT_RUN = {
    "./scripts/install.sh": "installs the package and its test tools into .venv; CI runs it "
    "on a fresh machine (docs/measured.md)",
    "./scripts/test.sh": "runs the whole suite, this test included",
    "source .venv/bin/activate": "activates the environment in the reader's shell; the "
    "commands here run in this process's",
    "pip install vllm": "a GPU machine's set-up (none here); the eval against its server runs "
    "as a plan",
    "vllm serve": "serves a model on a GPU (none here)",
}
"""Commands not run here, by how they start, and why."""
SLOW = (
    (r"^medhalbench demo\b", "the whole demo: three benchmarks on the embedded model"),
    (r"--temperatures ", "a sweep: one run per temperature"),
    (r"--epochs \d", "several answers per question"),
    (r"^medhalbench medhal train\b", "fine-tunes a model"),
    (r"^medhalbench build medhallu\b(?!.*--dry-run)(?!.*--generator)", "an embedded build"),
    (r"--model hf/medhal_evaluator/", "the models `medhal train` writes"),
)
"""Real runs marked slow (run with `-m slow` and in the whole suite), and why."""


@dataclass(frozen=True)
class Command:
    """A shell command of a README."""

    readme: str
    line: int
    text: str

    @property
    def id(self) -> str:
        return f"{self.readme}:{self.line}"


@dataclass
class Plan:
    """How a command runs here.

    Attributes:
        program: `medhalbench`, `inspect`, or None (not run).
        args: Its arguments, as run.
        how: `real run`, `dry run`, `offline error`, `served`, `not run`.
        why: Why it runs so (or not at all).
        slow: A slow real run.
        env: Environment it runs with.
    """

    program: str | None
    args: list[str] = field(default_factory=list)
    how: str = "real run"
    why: str = ""
    slow: bool = False
    env: dict[str, str] = field(default_factory=dict)

    @property
    def on_tiny(self) -> bool:
        """A slow real run other than the demo: it runs on the tiny model."""
        return self.slow and self.how == "real run" and self.args[0] != "demo"

    def args_on(self, tiny: str | None) -> list[str]:
        """Its arguments, with the tiny model (`tiny`) in place of the embedded default where
        it runs on the tiny model."""
        if tiny is None or not self.on_tiny:
            return self.args
        args = [tiny if a == DEFAULT_MODEL else a for a in self.args]
        if "--model" not in args and args[0] == "eval":
            args += ["--model", tiny, "--judge", tiny]
        elif "--model" not in args and args[0] == "build":
            args += ["--model", tiny]
        return args


def readme_commands() -> list[Command]:
    """Every command of a ```bash block (continuation lines joined, comments dropped)."""
    found = []
    for readme in READMES:
        text = readme.read_text(encoding="utf-8")
        for block in re.finditer(r"```(?:bash|sh|shell)\n(.*?)```", text, re.DOTALL):
            start = text[: block.start()].count("\n") + 2
            lines = block.group(1).split("\n")
            i = 0
            while i < len(lines):
                line, first = lines[i], i
                while line.rstrip().endswith("\\") and i + 1 < len(lines):
                    i += 1
                    line = line.rstrip()[:-1] + " " + lines[i].strip()
                i += 1
                command = re.sub(r"\s+#\s.*$", "", line).strip()
                if command and not command.startswith("#"):
                    for part in command.split(" && "):  # each step of a chain on its own
                        part = part.strip().removeprefix(".venv/bin/")
                        found.append(Command(str(readme.relative_to(ROOT)), start + first, part))
    return found


def _models(words: list[str]) -> list[str]:
    return [words[i + 1] for i, w in enumerate(words[:-1]) if w in MODEL_OPTIONS]


def _paid(name: str) -> bool:
    return name.split("/")[0] not in OFFLINE_PROVIDERS and not name.endswith(".gguf")


def plan(command: Command) -> Plan:
    """How a README command is run here (see the module's rules)."""
    for start, why in NOT_RUN.items():
        if command.text.startswith(start):
            return Plan(None, how="not run", why=why)
    words = shlex.split(command.text)
    # Variables set before the command (`VLLM_API_KEY=none medhalbench ...`) go with it.
    env = {}
    while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    return dataclasses.replace(_plan(command, words), env=env)


def _plan(command: Command, words: list[str]) -> Plan:
    if "--help" in words:
        return Plan("medhalbench", words[1:], why="a help page")
    slow = next((why for pattern, why in SLOW if re.search(pattern, command.text)), "")
    if words[0] == "inspect":
        return Plan("inspect", [*words[1:], "--limit", "2"], why="against the stub server")
    if words[0] != "medhalbench":
        raise AssertionError(f"{command.id}: no rule runs `{words[0]}` commands")
    args = words[1:]
    if args[:2] == ["eval", "medhallu"] and "--dataset" not in args or (
        "--nli" in args and args[args.index("--nli") + 1] not in ("llm",) and "--dry-run" not in args
        and not any(_paid(m) for m in _models(args))
    ):  # fmt: skip
        return Plan("medhalbench", args, how="offline error", why="needs the Hugging Face hub")
    if args[0] == "reproduce" and args[1:2] != ["--list"] and "--view" not in args:
        # A table's run or plan loads the paper's own data first.
        return Plan("medhalbench", args, how="offline error", why="needs the Hugging Face hub")
    if not slow and any(m.startswith("hf/") for m in _models(args)):
        # Transformers weights from the hub: loaded even to check the name.
        return Plan("medhalbench", args, how="offline error", why="needs the Hugging Face hub")
    if args[0] == "audit" and "--summary" not in args:
        return Plan("medhalbench", args, how="served", why="serves a page until stopped")
    if any(_paid(m) for m in _models(args)):
        dry = args if "--dry-run" in args else [*args, "--dry-run"]
        return Plan(
            "medhalbench", dry, how="dry run", why=slow or "calls a paid API", slow=bool(slow)
        )
    if args[0] == "eval" and "--limit" not in args and "--dry-run" not in args:
        args = [*args, "--limit", "1"]
    if "--temperatures" in args:  # a sweep: its first two temperatures show it runs
        at = args.index("--temperatures") + 1
        args = [*args[:at], ",".join(args[at].split(",")[:2]), *args[at + 1 :]]
    if args[:2] == ["medhal", "train"]:  # the pipeline, not a useful evaluator
        for option, value in (("--steps", "2"), ("--batch-size", "2"), ("--max-length", "256")):
            args = args if option in args else [*args, option, value]
    return Plan("medhalbench", args, why=slow or "offline", slow=bool(slow))


def produces(command: Command) -> bool:
    """Whether a command writes what later commands of its README read (`--out`)."""
    found = plan(command)
    return found.how == "real run" and "--out" in found.args


def _write_jsonl(path: Path, rows: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _inputs(folder: Path) -> None:
    """The files the READMEs' commands name, made from the packaged examples."""
    medhallu = [json.loads(x) for x in open(illustrative("medhallu_illustrative.jsonl"))]
    medhal = [json.loads(x) for x in open(illustrative("medhal_illustrative.jsonl"))]
    shutil.copy(illustrative("medhallu_illustrative.jsonl"), folder / "pqa_labeled.jsonl")
    shutil.copy(illustrative("dahl_illustrative.csv"), folder / "questions.csv")
    data = folder / "medhal_data"
    data.mkdir()
    for split in ("train", "validation", "test"):
        _write_jsonl(data / f"{split}.jsonl", medhal)
    _write_jsonl(folder / "statements.jsonl",
                 [{"id": r["id"], "statement": r["statement"]} for r in medhal])  # fmt: skip
    _write_jsonl(folder / "detector.jsonl",
                 [{"id": f"{r['pubid']}-{kind}", "verdict": i % 2} for r in medhallu
                  for i, kind in enumerate(("ground_truth", "hallucinated"))])  # fmt: skip
    _write_jsonl(folder / "replies.jsonl",
                 [{"id": r["id"], "reply": "Factual: NO" if i % 2 else "Factual: YES"}
                  for i, r in enumerate(medhal)])  # fmt: skip
    with open(illustrative("dahl_illustrative.csv"), newline="") as f:
        questions = [r["question"] for r in csv.DictReader(f)]
    answer = "Aspirin inhibits cyclooxygenase. It lowers fever."
    with (folder / "answers.csv").open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["question", "response"])
        writer.writerows([q, answer] for q in questions)
    _write_jsonl(
        folder / "my_answers.jsonl", [{"question": q, "response": answer} for q in questions]
    )
    with (folder / "human.csv").open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["question", "human_true", "human_units"])
        writer.writerows([q, 1, 2] for q in questions)
    (folder / "prices.yaml").write_text("openai/gpt-4o-mini: {input: 0.15, output: 0.60}\n")
    pubmedqa = {
        str(r["pubid"]).replace("illustrative-", "9000"): {
            "QUESTION": r["Question"],
            "CONTEXTS": r["Knowledge"] if isinstance(r["Knowledge"], list) else [r["Knowledge"]],
            "LABELS": ["RESULTS"],
            "MESHES": [], "final_decision": "yes", "LONG_ANSWER": r["Ground Truth"],
        }
        for r in medhallu[:4]
    }  # fmt: skip
    (folder / "ori_pqal.json").write_text(json.dumps(pubmedqa))
    _medhal_sources(folder)


def _medhal_sources(folder: Path) -> None:
    """One small file of each MedHal source layout, and papers as text."""
    (folder / "medqa.json").write_text(json.dumps({
        "q1": {"question": "Which vitamin deficiency causes scurvy?",
               "options": {"A": "Vitamin A", "B": "Vitamin C", "C": "Vitamin D", "D": "Vitamin K"},
               "answer": "B"},
    }))  # fmt: skip
    _write_jsonl(folder / "medmcqa.jsonl", [{
        "id": "m1", "question": "Which drug reverses heparin?", "opa": "Protamine sulfate",
        "opb": "Vitamin K", "opc": "Naloxone", "opd": "Flumazenil", "cop": 0,
        "exp": "Protamine binds heparin.",
    }])  # fmt: skip
    _write_jsonl(folder / "mli_train_v1.jsonl", [
        {"sentence1": "The patient has a fever of 39 C.", "sentence2": "The patient is febrile.",
         "gold_label": "entailment", "pairID": "p1"},
        {"sentence1": "The patient has a fever of 39 C.", "sentence2": "The patient is afebrile.",
         "gold_label": "contradiction", "pairID": "p2"},
    ])  # fmt: skip
    notes = [
        {"idx": i, "note": f"A {age}-year-old patient with chest pain.",
         "summary": json.dumps({"patient information": {"age": str(age), "sex": sex}})}
        for i, (age, sex) in enumerate([(54, "male"), (61, "female")])
    ]  # fmt: skip
    _write_jsonl(folder / "augmented_clinical_notes.jsonl", notes)
    text = (
        "Aspirin irreversibly inhibits cyclooxygenase in platelets, which lowers thromboxane "
        "production. In a cohort of 120 adults, low-dose aspirin reduced platelet aggregation "
        "within one week of treatment."
    )
    for root in (folder, folder.parent / "shared" / "data"):
        for name in ("text", "abstract"):
            (root / "sumpubmed" / name).mkdir(parents=True)
            (root / "sumpubmed" / name / f"{name}_1.txt").write_text(text)
    _write_jsonl(folder / "pubmed_abstracts.jsonl",
                 [{"id": "a1", "title": "Aspirin and platelets", "text": text}])  # fmt: skip
    # A user's own questions with the document that answers each (`medhalbench recall`).
    _write_jsonl(folder / "my_questions.jsonl",
                 [{"question": "Does low-dose aspirin stop platelets clumping?", "gold": "a1"}])  # fmt: skip
    shared = folder.parent / "shared" / "data" / "pubmedqa"
    shared.mkdir(parents=True)
    shutil.copy(folder / "ori_pqal.json", shared / "ori_pqal_dev.json")
    # The authors' prompts, where a command takes them (one here; ours stand in for the rest).
    (folder / "their_prompts").mkdir()
    (folder / "their_prompts" / "check_user.txt").write_text("True or false? {statement}\n")


def _reply(messages: list[dict[str, object]]) -> str:
    return canned_reply(messages)  # type: ignore[arg-type]


def _logs(folder: Path, base_url: str) -> None:
    """The logs the commands name (logs/a.eval, logs/b.eval, logs/run_dahl.eval, ...),
    made against the stub server, and four shards of a MedHallu build to merge."""
    from medhalbench.dahl import dahl
    from medhalbench.medhal import medhal
    from medhalbench.medhallu import medhallu

    logs = folder / "logs"
    made = inspect_eval(
        [
            medhallu(dataset=str(folder / "pqa_labeled.jsonl"), limit=4),
            medhallu(dataset=str(folder / "pqa_labeled.jsonl"), limit=4, knowledge=True),
            dahl(dataset=str(folder / "questions.csv")),
            medhal(dataset=str(folder / "medhal_data"), limit=4),
        ],
        model="openai-api/stub/docs", model_base_url=base_url,
        model_roles={"splitter": "openai-api/stub/docs", "checker": "openai-api/stub/docs"},
        log_dir=str(folder / "made"), display="none",
    )  # fmt: skip
    assert all(log.status == "success" for log in made), [log.error for log in made]
    logs.mkdir()
    for log, name in zip(made, ["a", "b", "run_dahl", "run_medhal"], strict=True):
        shutil.copy(log.location, logs / f"{name}.eval")


def _shards(folder: Path, base_url: str) -> None:
    from medhalbench.cli import cli

    for k in range(4):
        result = CliRunner().invoke(
            cli,
            ["build", "medhallu", "--pubmedqa", str(folder / "ori_pqal.json"), "--out",
             str(folder / f"shard{k}"), "--shard", f"{k}/4", "--model", "openai-api/stub/docs",
             "--model-base-url", base_url, "--nli", "llm"],
        )  # fmt: skip
        assert result.exit_code == 0, result.output


@pytest.fixture(scope="session")
def _made_sandbox(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Path, str, dict[str, str]]]:
    """The folder the commands run in, its inputs and logs made once per test process (the
    READMEs' groups of tests run apart, on either worker), the stub server answering, and the
    environment the commands run with."""
    # A folder beside `shared/data`, as the repository stands beside the shared data.
    folder = tmp_path_factory.mktemp("docs") / "repo"
    folder.mkdir()
    with stub_at(_reply) as base_url:
        environment = {
            # A paid provider's key, should a command call it: the stub answers.
            "OPENAI_API_KEY": "sk-docs-test", "OPENAI_BASE_URL": base_url,
            "ANTHROPIC_API_KEY": "docs-test", "TOGETHER_API_KEY": "docs-test",
            "PERPLEXITY_API_KEY": "docs-test", "STUB_API_KEY": "docs-test",
            "STUB_BASE_URL": base_url,
            "HF_HUB_OFFLINE": "1", "INSPECT_LOG_DIR": str(folder / "inspect-logs"),
        }  # fmt: skip
        with pytest.MonkeyPatch.context() as patch:
            for name, value in environment.items():
                patch.setenv(name, value)
            _inputs(folder)
            _logs(folder, base_url)
            _shards(folder, base_url)
        yield folder, base_url, environment


@pytest.fixture
def sandbox(
    _made_sandbox: tuple[Path, str, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, str]:
    folder, base_url, environment = _made_sandbox
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    return folder, base_url


def _run(
    found: Plan, folder: Path, monkeypatch: pytest.MonkeyPatch, tiny: str | None
) -> tuple[int, str, str]:
    monkeypatch.chdir(folder)
    for name, value in found.env.items():
        monkeypatch.setenv(name, value)
    if found.how == "served":
        return _served(found, folder)
    if found.program == "inspect":
        from inspect_ai._cli.main import inspect

        result = CliRunner().invoke(inspect, found.args)
    else:
        from medhalbench.cli import cli

        result = CliRunner().invoke(cli, found.args_on(tiny))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _served(found: Plan, folder: Path) -> tuple[int, str, str]:
    """Start a command that serves a page, wait until it names its address, stop it."""
    process = subprocess.Popen(
        [sys.executable, "-m", "medhalbench.cli", *found.args],
        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert process.stdout is not None
    seen, deadline = "", time.monotonic() + 60
    while "http://127.0.0.1:" not in seen and time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line and process.poll() is not None:
            break
        seen += line
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
    code = 0 if "http://127.0.0.1:" in seen else (process.returncode or 1)
    return code, seen, ""


COMMANDS = readme_commands()


def test_every_readme_command_has_a_way_to_run() -> None:
    assert len(COMMANDS) > 30
    plans = {c.id: plan(c) for c in COMMANDS}
    not_run = {i: p.why for i, p in plans.items() if p.program is None}
    # Only the install and test scripts are left to CI, and a few steps of a reader's own
    # shell or GPU machine, each with its reason.
    assert all(why for why in not_run.values()) and len(not_run) <= len(NOT_RUN) + 1, not_run


def _params(slow: bool) -> list[object]:
    return [
        # A README's commands on one worker (pytest-xdist --dist loadgroup): its outputs
        # are made once.
        pytest.param(
            c, id=c.id, marks=[pytest.mark.xdist_group(c.readme), *([pytest.mark.slow] * slow)]
        )
        for c in COMMANDS
        if (p := plan(c)).program is not None and p.slow == slow
    ]


_PRODUCED: set[tuple[Path, str]] = set()
"""Commands with outputs already run in a sandbox (a folder, a command's id)."""


def _run_producers(
    command: Command, folder: Path, monkeypatch: pytest.MonkeyPatch, tiny: str | None
) -> None:
    """Run, once per sandbox, the earlier commands of the README that write what this one
    may read (whatever order the tests run in)."""
    for earlier in COMMANDS:
        if earlier.readme != command.readme or earlier.line >= command.line:
            continue
        if produces(earlier) and (folder, earlier.id) not in _PRODUCED:
            _PRODUCED.add((folder, earlier.id))
            code, out, err = _run(plan(earlier), folder, monkeypatch, tiny)
            assert code == 0, f"{earlier.id} (run before {command.id}) exited {code}:\n{err}"


def _check(
    command: Command,
    sandbox: tuple[Path, str],
    monkeypatch: pytest.MonkeyPatch,
    tiny: str | None = None,
) -> None:
    folder, _ = sandbox
    found = plan(command)
    _run_producers(command, folder, monkeypatch, tiny)
    if produces(command):
        if (folder, command.id) in _PRODUCED:
            return  # ran already, before a later command that reads its output
        _PRODUCED.add((folder, command.id))
    code, out, err = _run(found, folder, monkeypatch, tiny)
    if found.how == "offline error":
        lines = [line for line in err.splitlines() if line.strip()]
        assert code == 2 and len(lines) == 1, (command.text, out, err)
        assert "hub" in lines[0] or "huggingface" in lines[0].lower(), lines[0]
        assert "Traceback" not in out + err
        return
    assert code == 0, f"{command.id}: `{command.text}` ({found.how}) exited {code}:\n{out}\n{err}"
    assert "Traceback" not in out + err
    if found.why == "a help page":
        assert "Examples:" in out, out
    if found.args[:1] == ["demo"] and found.how == "real run":
        # A first run's demo, on the embedded default: its closing lines, then its picture.
        flat = " ".join(out.split())
        assert "SmolLM2-135M (the embedded model) proves that the pipelines run" in flat, out
        assert "its figures say nothing about model quality" in flat
        _check_the_readme_picture(folder / "report.html", command)


PICTURE = ROOT / "docs" / "report-summary.png"
"""The README's picture of the demo's report summary."""
UPDATE_PICTURE = "MEDHALBENCH_UPDATE_PICTURE"


def _check_the_readme_picture(report: Path, command: Command) -> None:
    """The README's picture is the summary of the report the demo writes now, as Chromium
    shows it 1280 pixels wide (`scripts/report_picture.py`); with MEDHALBENCH_UPDATE_PICTURE=1
    the test writes it."""
    import numpy as np
    from PIL import Image

    if not shutil.which("chromium"):
        pytest.skip("Chromium is not installed: the picture cannot be taken")
    taken = report.with_name("report-summary.png")
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "report_picture.py"), str(report), str(taken)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    if os.environ.get(UPDATE_PICTURE) == "1":
        shutil.copyfile(taken, PICTURE)
    now, shown = (np.asarray(Image.open(p).convert("L"), dtype=float) for p in (taken, PICTURE))
    stale = (
        f"{PICTURE.relative_to(ROOT)} is not the summary of the demo's report now: "
        f"{UPDATE_PICTURE}=1 pytest 'tests/docs/test_readme_commands.py::"
        f"test_a_slow_readme_command_runs[{command.id}]' writes it"
    )
    assert now.shape == shown.shape, stale
    assert np.mean(np.abs(now - shown) > 16) < 0.002, stale  # a font's hinting, no figure


@pytest.mark.parametrize("command", _params(slow=False))
def test_a_readme_command_runs(
    command: Command, sandbox: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _check(command, sandbox, monkeypatch)


@pytest.mark.parametrize("command", _params(slow=True))
def test_a_slow_readme_command_runs(
    command: Command, sandbox: tuple[Path, str], monkeypatch: pytest.MonkeyPatch, tiny_model: str
) -> None:
    _check(command, sandbox, monkeypatch, tiny_model)


def test_the_readme_counts_what_the_repository_holds() -> None:
    """Numbers the README and the docs state about the repository are what it holds now."""
    text = " ".join(" ".join(r.read_text(encoding="utf-8").split()) for r in READMES)
    match = re.search(
        r"`tests/\{(\w+),(\w+),(\w+)\}/data/replies\.jsonl` hold (\d+), (\d+) and (\d+) replies",
        text,
    )
    assert match, "the docs no longer state the reply corpora's sizes"
    for name, stated in zip(match.groups()[:3], match.groups()[3:], strict=True):
        path = ROOT / "tests" / name / "data" / "replies.jsonl"
        held = sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
        assert int(stated) == held, f"README: {stated} {name} replies; the file holds {held}"
    # A file a README says holds N lines (replies, rows) holds N.
    for readme in READMES:
        said = " ".join(readme.read_text(encoding="utf-8").split())
        for name, stated in re.findall(r"`(tests/[\w/]+\.jsonl)` holds (\d+) ", said):
            held = sum(1 for line in (ROOT / name).read_text().splitlines() if line.strip())
            assert int(stated) == held, f"{readme.name}: {name} holds {held}, not {stated}"
    # Every command a table of measured figures cites exists as written.
    for script in re.findall(r"`\.venv/bin/python ((?:bench|scripts)/[\w./]+\.py)", text):
        assert (ROOT / script).is_file(), f"the README cites {script}, which is not there"
