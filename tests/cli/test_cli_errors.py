"""Every command, every class of bad input: exit code 2, one line on stderr naming the
culprit, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from medhalbench.cli import cli
from medhalbench.examples import illustrative

MEDHALLU = illustrative("medhallu_illustrative.jsonl")
DAHL = illustrative("dahl_illustrative.csv")
MEDHAL = illustrative("medhal_illustrative.jsonl")

CASES: list[tuple[list[str], str]] = [
    # Numbers the CLI must refuse when it parses them.
    (["eval", "medhallu", "--dataset", MEDHALLU, "--limit", "-3"], "--limit"),
    (["eval", "medhallu", "--dataset", MEDHALLU, "--limit", "0"], "--limit"),
    (["eval", "medhallu", "--dataset", MEDHALLU, "--temperature", "-1"], "--temperature"),
    (["eval", "medhallu", "--dataset", MEDHALLU, "--max-tokens", "0"], "--max-tokens"),
    (["eval", "medhallu", "--dataset", MEDHALLU, "--max-connections", "0"], "--max-connections"),
    (["eval", "medhallu", "--dataset", MEDHALLU, "--max-retries", "-1"], "--max-retries"),
    (["eval", "medhallu", "--dataset", MEDHALLU, "--timeout", "0"], "--timeout"),
    (["eval", "medhallu", "--dataset", MEDHALLU, "--attempt-timeout", "0"], "--attempt-timeout"),
    (["eval", "medhallu", "--dataset", MEDHALLU, "--bootstrap", "-5"], "--bootstrap"),
    (["eval", "dahl", "--dataset", DAHL, "--sample", "0"], "--sample"),
    (["eval", "dahl", "--dataset", DAHL, "--sample", "1.5"], "--sample"),
    (["eval", "dahl", "--dataset", DAHL, "--epochs", "0"], "--epochs"),
    (["eval", "dahl", "--dataset", DAHL, "--temperatures", "0.1,abc"], "--temperatures"),
    (["eval", "dahl", "--dataset", DAHL, "--temperatures", "0.1,5"], "--temperatures"),
    (["eval", "medhal", "--dataset", MEDHAL, "--limit", "-1"], "--limit"),
    (["build", "medhallu", "--pubmedqa", "p.json", "--out", "o", "--limit", "-1"], "--limit"),
    (["build", "medhallu", "--pubmedqa", "p.json", "--out", "o", "--attempts", "0"], "--attempts"),
    (["build", "medhallu", "--pubmedqa", "p.json", "--out", "o", "--tau", "1.5"], "--tau"),
    (["build", "medhallu", "--pubmedqa", "p.json", "--out", "o", "--shard", "5/4"], "--shard"),
    (
        ["build", "medhallu", "--pubmedqa", "p.json", "--out", "o", "--concurrency", "0"],
        "--concurrency",
    ),
    (["build", "dahl", "--papers", DAHL, "--out", "o", "--questions", "0"], "--questions"),
    (["build", "dahl", "--papers", DAHL, "--out", "o", "--temperature", "3"], "--temperature"),
    (["build", "medhal", "--source", "medqa", "--out", "o"], "--source"),
    (
        ["build", "medhal", "--source", "medqa=x", "--out", "o", "--facts-per-note", "0"],
        "--facts-per-note",
    ),
    (
        ["build", "medhal", "--source", "medqa=x", "--out", "o", "--nli-threshold", "2"],
        "--nli-threshold",
    ),
    (["analyze", "clusters", "--pubmedqa", "p.json", "--candidates", "0"], "--candidates"),
    (["analyze", "clusters", "--pubmedqa", "p.json", "--threshold", "2"], "--threshold"),
    (["medhal", "train", "--data", "d", "--out", "o", "--steps", "0"], "--steps"),
    (["medhal", "train", "--data", "d", "--out", "o", "--learning-rate", "0"], "--learning-rate"),
    (["demo", "--limit", "0"], "--limit"),
    (["serve", "--port", "0"], "--port"),
    (["compare", "a.eval", "b.eval", "--bootstrap", "0"], "--bootstrap"),
    # Models and model arguments, checked before any work.
    (["eval", "medhallu", "--dataset", MEDHALLU, "-M", "bogus=1"], "bogus"),
    (["eval", "medhallu", "--dataset", MEDHALLU, "-M", "n_ctx=abc"], "n_ctx"),
    (["eval", "medhallu", "--dataset", MEDHALLU, "-M", "novalue"], "-M"),
    (["eval", "medhallu", "--dataset", MEDHALLU, "--model", "foo/bar"], "foo/bar"),
    (
        ["eval", "medhal", "--dataset", MEDHAL, "--model", "embedded/no/such/model.gguf"],
        "no/such/model.gguf",
    ),
    (["eval", "dahl", "--dataset", DAHL, "--checker", "foo/bar"], "--checker foo/bar"),
    (["eval", "dahl", "--dataset", DAHL, "--role-base-url", "judge=http://x"], "--role-base-url"),
    (["eval", "dahl", "--dataset", DAHL, "--role-arg", "splitter=n_ctx"], "--role-arg"),
    (
        ["build", "dahl", "--papers", DAHL, "--out", "o", "--generator", "foo/bar"],
        "--generator foo/bar",
    ),
    (["serve", "--model", "foo/bar"], "--model"),
    # Files.
    (["eval", "medhallu", "--dataset", "missing.jsonl"], "missing.jsonl"),
    (["report", "missing.eval"], "missing.eval"),
    (["retry", "missing.eval"], "missing.eval"),
    (["merge", "--out", "o", "missing_shard"], "missing_shard"),
    (["dahl", "agreement", "--auto", "missing.eval", "--human", "h.csv"], "missing.eval"),
    (["eval", "bogus"], "bogus"),
    (["eval", "medhallu", "--bogus"], "--bogus"),
]


def run(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, args)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("args", "culprit"), CASES, ids=[" ".join(a)[:60] for a, _ in CASES])
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], culprit: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(args)
    assert code == 2, (code, out, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert culprit in lines[0] and lines[0].startswith("error: "), lines[0]
    assert "Traceback" not in out + err


def test_files_that_are_not_logs(tmp_path: Path) -> None:
    jsonl = tmp_path / "rows.jsonl"
    jsonl.write_text(json.dumps({"a": 1}) + "\n")
    for args in (
        ["report", str(jsonl)],
        ["retry", str(jsonl)],
        ["compare", str(jsonl), str(jsonl)],
    ):
        code, out, err = run(args)
        assert code == 2 and "not an inspect log" in err and len(err.strip().splitlines()) == 1, (
            args,
            err,
        )


def test_templates_that_would_run_wrongly(tmp_path: Path) -> None:
    knowledge = tmp_path / "knowledge.txt"
    knowledge.write_text("Knowledge: {knowledge}\nQ: {question}\nA: {answer}")
    code, _, err = run(["eval", "medhallu", "--dataset", MEDHALLU, "--template", str(knowledge)])
    assert code == 2 and "add --knowledge" in err
    braces = tmp_path / "json.txt"
    braces.write_text('Q: {question}\nA: {answer}\nReply as {"verdict": 0}')
    code, _, err = run(["eval", "medhallu", "--dataset", MEDHALLU, "--template", str(braces)])
    assert code == 2 and "doubled, as {{ and }}" in err


def test_an_unexpected_error_is_one_line_with_a_traceback_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import medhalbench.medhallu._task as task_module

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("planted")

    monkeypatch.setattr(task_module, "load_medhallu", broken)
    code, out, err = run(["eval", "medhallu", "--dataset", MEDHALLU])
    assert code == 1 and "Traceback" not in out + err
    [line] = err.strip().splitlines()
    assert "unexpected ZeroDivisionError: planted" in line and "full traceback:" in line
    path = Path(line.rsplit("full traceback: ", 1)[1].rstrip(")"))
    assert "ZeroDivisionError" in path.read_text()


def test_errors_reach_stderr_with_display_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOCAL_API_KEY", raising=False)
    code, _, err = run(
        ["eval", "medhallu", "--dataset", MEDHALLU, "--model", "openai-api/local/x",
         "--model-base-url", "http://127.0.0.1:9/v1", "--display", "none"]
    )  # fmt: skip
    assert code == 2 and "LOCAL_API_KEY" in err and "openai-api/local/x" in err


def test_embedded_model_paths_in_every_unambiguous_form(tmp_path: Path) -> None:
    from medhalbench.models import resolve_gguf, smollm2_gguf_path
    from medhalbench.settings import normalise_model_name

    gguf = smollm2_gguf_path()
    assert normalise_model_name(f"embedded:{gguf}") == f"embedded/{gguf}"
    assert normalise_model_name(str(gguf)) == f"embedded/{gguf}"
    assert resolve_gguf(str(gguf).lstrip("/")) == gguf  # embedded/abs/path.gguf
    with pytest.raises(Exception, match=r"embedded//abs/path\.gguf"):
        resolve_gguf("not/here.gguf")


@pytest.mark.parametrize("name", ["Ground  Truth", "Ground\tTruth", " Ground Truth"])
def test_a_culprit_is_named_as_given_on_one_line(name: str, tmp_path: Path) -> None:
    # The line is flattened at its line breaks only: a name that differs from a right one
    # by its blanks is shown with them (else "unknown field 'Ground Truth'" names the
    # hub's own field).
    row = json.loads(Path(MEDHALLU).read_text().splitlines()[0])
    row[name] = row.pop("Ground Truth")
    data = tmp_path / "rows.jsonl"
    data.write_text(json.dumps(row) + "\n")
    code, _, err = run(["eval", "medhallu", "--dataset", str(data), "--dry-run"])
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    shown = name.replace("\t", "\\t")  # a tab is shown escaped, as every control character
    assert f"'{shown}'" in err, err


def _probe_inputs(folder: Path) -> dict[str, list[str]]:
    """Inputs of each class a blind probe found accepted or crashing, by the culprit the
    refusal must name."""
    rows = [json.loads(line) for line in Path(MEDHALLU).read_text().splitlines()[:2]]
    (folder / "blank_id.jsonl").write_text(
        json.dumps({"id": f"{rows[0]['pubid']}-ground_truth", "verdict": 0}) + "\n"
        + json.dumps({"id": " \t", "verdict": 1}) + "\n"
    )  # fmt: skip
    (folder / "two_samples.jsonl").write_text(
        json.dumps({"id": f"{rows[0]['pubid']}-ground_truth", "question": rows[1]["Question"],
                    "answer": rows[1]["Ground Truth"], "verdict": 0}) + "\n"
    )  # fmt: skip
    (folder / "no_dataset").mkdir()
    (folder / "no_dataset" / "dataset_info.json").write_text("{not json")
    (folder / "theirs").mkdir()
    (folder / "theirs" / "split_user.txt").write_text("Split: {TEXT}")
    (folder / "theirs" / "check_sytem.txt").write_text("Be precise.")
    medhallu = ["eval", "medhallu", "--dataset", MEDHALLU]
    return {
        "line 2": [*medhallu, "--responses", str(folder / "blank_id.jsonl")],
        "by the text it judged": [*medhallu, "--responses", str(folder / "two_samples.jsonl")],
        "--difficulty": [*medhallu, "--difficulty", " , ", "--dry-run"],
        "--split": [*medhallu, "--split", "train", "--dry-run"],  # its default, given
        "no_dataset": ["eval", "medhal", "--dataset", str(folder / "no_dataset"), "--dry-run"],
        "check_sytem.txt": ["eval", "dahl", "--dataset", DAHL, "--paper-prompts",
                            str(folder / "theirs"), "--dry-run"],
        "--reply-seed": [*medhallu, "--responses", str(folder / "blank_id.jsonl"),
                         "--reply-seed", "3"],
        "--stemmer": ["index", MEDHALLU, "--out", str(folder / "index"), "--stemmer", "klingon"],
        "a path holding a secret": [*medhallu, "--log-dir", str(folder / f"logs-{PLANTED}")],
    }  # fmt: skip


PLANTED = "sk-proj-PLANTEDinAPath4f3e2d1c0b9a8"


@pytest.mark.parametrize(
    "culprit",
    ["line 2", "by the text it judged", "--difficulty", "--split", "no_dataset", "check_sytem.txt",
     "--reply-seed", "--stemmer", "a path holding a secret"],
)  # fmt: skip
def test_inputs_a_blind_probe_found_are_refused_in_one_line(
    culprit: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROBE_API_KEY", PLANTED)
    code, out, err = run(_probe_inputs(tmp_path)[culprit])
    assert code == 2 and len(err.strip().splitlines()) == 1, (code, out, err)
    assert culprit in err and "Traceback" not in out + err, err
    assert PLANTED[8:16] not in out + err


@pytest.mark.parametrize(
    "command",
    [["report", "a.eval", "--format", "html"], ["report", "a.eval"], ["rescore", "a.eval"],
     ["compare", "a.eval", "a.eval", "--format", "json"]],
)  # fmt: skip
def test_an_output_never_replaces_another_runs_log(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("a.eval", "b.eval"):
        Path(name).write_bytes(b"a run's log")
    code, _, err = run([*command, "--out", "b.eval"])
    assert code == 2 and "b.eval is a run's log: it would be replaced" in err, err
    assert Path("b.eval").read_bytes() == b"a run's log"
