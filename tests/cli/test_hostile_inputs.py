"""Property: whatever a user gives (any option of any command set to a hostile value, any file
in any format holding hostile content), a command either does its work (exit 0) or refuses in
one line of at most 300 characters (exit 2); never an unexpected error (exit 1), never a hang,
never a file written outside the log folder. Commands run in-process, planning (`--dry-run`)
where they would call models, so that the property is checked broadly and fast."""

from __future__ import annotations

import contextlib
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from medhalbench.cli import cli

HANG_S = 20
"""Seconds one command may take before it counts as a hang (a dry run takes about one)."""

HOSTILE_VALUES = [
    "", " ", "-1", "0", "1", "nan", "inf", "-inf", "1e309", str(10**30), f"-{10**30}",
    "x" * 5000, "\x1b[2J\x07", "a,,b", ",", "é", "\u202e", "%s%n", "{text}", "{0}", "{}",
    "../../..", "~", "/", "http://[::1", "http://", "ftp://host", "http://h:99999/v1",
    "embedded/", "openai/", "openai-api//x", "nosuchprovider/model", "embedded/x.gguf",
    "true", "None", "null", "[]", "a=b", "=", "NAME=", "-M", "--help", "0/0", "3/2", "-1/2",
]  # fmt: skip
"""Values that have broken command lines: empty, huge, negative, non-finite, markup, control
characters, format strings, malformed URLs and model names, option-like values."""

HOSTILE_FILES = {
    "fifo.jsonl": None,  # a named pipe: opening it to read would block forever
    "folder.csv": "dir",
    "binary.jsonl": b"\x00\x01\x02\xff" * 64,
    "latin1.csv": "question,category\ncaf\xe9,cardiology\n".encode("latin-1"),
    "empty.jsonl": b"",
    "deep.jsonl": ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}\n").encode(),
    "unbalanced.csv": b'question,category\n"What is A?,cardiology\nWhat is B?,oncology\n',
    "swallowed.csv": b'question,category\nWhat is A?,"cardiology\nWhat is B?,oncology"\n',
    "extra.csv": b"question,category\nWhat?,cardiology,extra\n",
    "bomb.yaml": (
        'a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x"]\n'
        + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 8)}]\n" for i in range(1, 10))
    ).encode(),
    "deep.yaml": ("a: " + "[" * 20_000 + "]" * 20_000 + "\n").encode(),
    "notyaml.yaml": b"models: [\n  - {name: \n",
    "list.json": b"[1, 2, 3]",
    "scalar.json": b'"just a string"',
    "bom.jsonl": b'\xef\xbb\xbf{"Question": "q"}\n',
    "fake.parquet": b"PAR1 not really",
    "fake.eval": b"PK\x03\x04 not a zip",
    "huge-line.jsonl": b'{"Question": "' + b"x" * 5_000_000 + b'"}\n',
    "braces.txt": b"Answer {question} {nope} {text:>999999999} {0}",
    "many.txt": b"{question}" * 40,
}
"""Files in every format a command reads, each hostile in its own way."""


@pytest.fixture(scope="module")
def hostile_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    for name, content in HOSTILE_FILES.items():
        path = folder / name
        if content is None:
            os.mkfifo(path)
        elif content == "dir":
            path.mkdir()
        else:
            assert isinstance(content, bytes)
            path.write_bytes(content)
    return folder


class Hang(Exception):
    """A command ran past `HANG_S`."""


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def files_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def check(args: list[str], cwd: Path, log_folder: str = "logs") -> None:
    """Run a command line in `cwd` and check the property (files may be written under
    `log_folder` only)."""
    before = files_under(cwd)
    with time_limit(HANG_S):
        result = CliRunner().invoke(cli, args)
    assert not isinstance(result.exception, Hang), args
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args,
        result.exception,
    )
    assert result.exit_code in (0, 2), (args, result.exit_code, result.stderr[-600:])
    if result.exit_code == 2:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, result.stderr[-600:])
        assert len(lines[0]) <= 300, (args, lines[0])
    allowed = os.path.relpath(os.path.abspath(os.path.join(cwd, log_folder)), cwd)
    written = {
        p for p in files_under(cwd) - before if not (p + "/").startswith(allowed.rstrip("/") + "/")
    }
    assert not written, (args, written)


def _options(path: list[str]) -> list[click.Option]:
    ctx = click.Context(cli)
    command: click.Command | None = cli
    for name in path:
        assert isinstance(command, click.Group)
        command = command.get_command(ctx, name)
    assert command is not None
    return [p for p in command.params if isinstance(p, click.Option) and "--help" not in p.opts]


EVALS = {name: _options(["eval", name]) for name in ("medhallu", "dahl", "medhal")}
"""Every option of every benchmark's eval command."""

values = st.one_of(
    st.sampled_from(HOSTILE_VALUES),
    st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=40),
    st.sampled_from(sorted(HOSTILE_FILES)).map(lambda name: f"@{name}"),
)
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def value_of(raw: str, files: Path) -> str:
    return str(files / raw[1:]) if raw.startswith("@") else raw


@SETTINGS
@given(
    benchmark=st.sampled_from(sorted(EVALS)),
    data=st.data(),
)
def test_every_eval_option_takes_hostile_values_and_files(
    benchmark: str, data: st.DataObject, hostile_files: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    args = ["eval", benchmark, "--dry-run"]
    chosen = data.draw(st.lists(st.sampled_from(EVALS[benchmark]), min_size=1, max_size=3))
    for option in chosen:
        flag = max(option.opts, key=len)
        if option.is_flag or option.count:
            args.append(flag)
        else:
            args += [flag, value_of(data.draw(values), hostile_files)]
    if "--dataset" not in args and "--responses" not in args:
        args += ["--dataset", "example"]
    check(args, tmp_path)


@SETTINGS
@given(name=st.sampled_from(sorted(HOSTILE_FILES)), benchmark=st.sampled_from(sorted(EVALS)))
def test_every_file_option_takes_hostile_files(
    name: str, benchmark: str, hostile_files: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    for option in ("--dataset", "--responses", "--prompt", "--template", "--prices"):
        if any(option in o.opts for o in EVALS[benchmark]):
            extra = [] if option in ("--dataset", "--responses") else ["--dataset", "example"]
            check(
                ["eval", benchmark, "--dry-run", option, str(hostile_files / name), *extra],
                tmp_path,
            )


suite_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.sampled_from(HOSTILE_VALUES)),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(st.sampled_from(["name", "args", "roles", "benchmark", "dataset", "limit", "x"]), children, max_size=3),
    ),
    max_leaves=8,
)  # fmt: skip
suites = st.fixed_dictionaries(
    {},
    optional={
        "log_dir": suite_values,
        "settings": suite_values,
        "models": st.lists(st.one_of(st.sampled_from(["embedded/smollm2", "", "x"]), suite_values), max_size=2),
        "runs": st.lists(
            st.one_of(
                st.fixed_dictionaries({"benchmark": st.sampled_from(["medhallu", "dahl", "nope", ""]), "args": suite_values}),
                suite_values,
            ),
            max_size=2,
        ),
    },
)  # fmt: skip


@SETTINGS
@given(suite=suites, command=st.sampled_from(["plan", "run"]))
def test_suites_with_hostile_fields(
    suite: dict, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    if command == "run":
        # A run would call models: only suites that are refused before any work are run.
        suite = {**suite, "models": [{"name": "nosuchprovider/model"}]}
    path = tmp_path / "suite.yaml"
    path.write_text(json.dumps(suite, default=str))  # JSON is YAML
    log_dir = suite.get("log_dir")
    check([command, str(path)], tmp_path, log_dir if isinstance(log_dir, str) else "logs")


@SETTINGS
@given(
    name=st.sampled_from(sorted(HOSTILE_FILES)),
    command=st.sampled_from(["retry", "plan", "run", "report", "compare"]),
)
def test_commands_reading_files_take_hostile_files(
    name: str, command: str, hostile_files: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    path = str(hostile_files / name)
    args = {"compare": [command, path, path], "report": [command, path, "--out", "logs/r.html"]}
    check(args.get(command, [command, path]), tmp_path)
