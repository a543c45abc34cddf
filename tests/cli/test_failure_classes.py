"""Bad input of every kind ends in one line naming the culprit, exit code 2, no traceback,
and nothing written: files (encodings, sizes, duplicates, labels, splits), folders one cannot
write, suites checked as strictly as the command line, prices, model names in plans,
conflicting options, builders' prompts and sources."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from medhalbench.cli import cli
from medhalbench.examples import illustrative

MEDHALLU = illustrative("medhallu_illustrative.jsonl")
DAHL = illustrative("dahl_illustrative.csv")
EXTRACT_PROMPT = str(resources.files("medhalbench.judging").joinpath("prompts", "extract_user.txt"))
MEDHAL = illustrative("medhal_illustrative.jsonl")


def run(args: list[str], **env: str) -> tuple[int, str, str]:
    result = CliRunner(env=env or None).invoke(cli, args)
    return result.exit_code, result.stdout, result.stderr


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("warning")]
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and "Traceback" not in err, err
    return lines[0]


def medhallu_rows(path: Path, rows: int = 3, **changes: object) -> Path:
    lines = Path(MEDHALLU).read_text().splitlines()[:rows]
    path.write_text("\n".join(json.dumps({**json.loads(x), **changes}) for x in lines) + "\n")
    return path


def test_a_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    text = Path(MEDHALLU).read_text().splitlines()[0].replace("Does", "Does café")
    path.write_bytes(text.encode("latin-1") + b"\n")
    code, _, err = run(["eval", "medhallu", "--dataset", str(path), "--dry-run"])
    line = one_line(err)
    assert code == 2 and "latin1.jsonl" in line and "line 1" in line and "not UTF-8" in line
    csv = tmp_path / "questions.csv"
    csv.write_bytes("question,category\nQué es la fiebre?,immunology\n".encode("latin-1"))
    code, _, err = run(["eval", "dahl", "--dataset", str(csv), "--dry-run"])
    assert code == 2 and "questions.csv" in one_line(err) and "not UTF-8" in err


def test_a_spreadsheet_csv_with_a_byte_order_mark_reads(tmp_path: Path) -> None:
    path = tmp_path / "excel.csv"
    path.write_bytes(b"\xef\xbb\xbf" + Path(DAHL).read_bytes())
    code, out, err = run(["eval", "dahl", "--dataset", str(path), "--dry-run"])
    assert code == 0, err
    assert "DAHL" in out and "4 samples" in out


def test_an_absurdly_large_field_stops_early_with_the_limit(tmp_path: Path) -> None:
    path = medhallu_rows(tmp_path / "big.jsonl", 2)
    row = json.loads(path.read_text().splitlines()[0])
    row["Knowledge"] = ["x" * 5_000]
    path.write_text(json.dumps(row) + "\n" + path.read_text().splitlines()[1] + "\n")
    code, _, err = run(
        ["eval", "medhallu", "--dataset", str(path), "--knowledge", "--dry-run"],
        MEDHALBENCH_MAX_FIELD_CHARS="1000",
    )
    line = one_line(err)
    assert code == 2 and "big.jsonl" in line and "line 1" in line
    assert "MEDHALBENCH_MAX_FIELD_CHARS" in line


def test_duplicate_rows_fail_the_plan_naming_file_and_lines(tmp_path: Path) -> None:
    path = tmp_path / "dup.jsonl"
    first = Path(MEDHALLU).read_text().splitlines()[0]
    path.write_text(first + "\n" + first + "\n")
    code, _, err = run(["eval", "medhallu", "--dataset", str(path), "--dry-run"])
    line = one_line(err)
    assert code == 2 and "dup.jsonl" in line and "line 2" in line and "line 1" in line


def test_medhal_split_and_labels_are_read_strictly(tmp_path: Path) -> None:
    folder = tmp_path / "splits"
    folder.mkdir()
    (folder / "train.jsonl").write_text(Path(MEDHAL).read_text())
    for split in ("test", "nosuch"):
        code, _, err = run(
            ["eval", "medhal", "--dataset", str(folder), "--split", split, "--dry-run"]
        )
        line = one_line(err)
        assert code == 2 and f"no split '{split}'" in line and "train" in line
    for label in ("1", "yes", 1):
        rows = [json.loads(x) for x in Path(MEDHAL).read_text().splitlines()]
        rows[0]["label"] = label
        path = tmp_path / f"labels-{label}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
        code, _, err = run(["eval", "medhal", "--dataset", str(path), "--dry-run"])
        line = one_line(err)
        assert code == 2 and "field 'label'" in line and "expected true (factual) or false" in line


def test_folders_and_files_that_cannot_be_written(tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    read_only = "/proc/medhalbench-cannot-write"  # a read-only file system, even for root
    for target in (str(a_file), read_only):
        code, _, err = run(["eval", "medhallu", "--dataset", MEDHALLU, "--log-dir", target])
        assert code == 2 and "--log-dir" in one_line(err) and target in err
    code, _, err = run(
        ["report", str(tmp_path), "--out", f"{read_only}/r.md", "--format", "markdown"]
    )
    assert code == 2 and read_only in one_line(err)


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        ("{limit: -4}", "runs[1].args.limit"),
        ("{temperature: 7}", "runs[1].args.temperature"),
        ('{temperature: "hot"}', "runs[1].args.temperature"),
        ("{pairing: sometimes}", "runs[1].args.pairing"),
        ("{difficulty: [easy, extreme]}", "runs[1].args.difficulty"),
        (
            f"{{extract_prompt: '{EXTRACT_PROMPT}'}}",
            "runs[1].args.extract_prompt': applies only with a model for the extractor role",
        ),
    ],
)
def test_a_suite_entry_passes_the_checks_of_its_command_line_twin(
    args: str, culprit: str, tmp_path: Path
) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(
        f"models: [embedded/smollm2]\nruns:\n  - {{benchmark: medhallu, args: {args}}}\n"
    )
    code, _, err = run(["plan", str(suite)])
    assert code == 2 and culprit in one_line(err), err


def test_suite_settings_are_checked(tmp_path: Path) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(
        "settings: {max_retries: -1}\nmodels: [embedded/smollm2]\nruns: [{benchmark: medhallu}]\n"
    )
    code, _, err = run(["plan", str(suite)])
    assert code == 2 and "settings.max_retries" in one_line(err)


SUITE_SECRET = "pw-SUITEk3y9Lm"


@pytest.mark.parametrize(
    ("settings", "model", "culprit"),
    [
        ("{}", "{name: openai/gpt-4o, argz: {}}", "field 'models[1].argz': no such setting (it takes name, args, roles, run_args, paper_model, substitute)"),
        (f"{{model_base_url: 'user:{SUITE_SECRET}@localhost/v1'}}", "openai/gpt-4o",
         "field 'settings.model_base_url': expected an http"),
        ("{model_base_url: 'ftp://localhost/v1'}", "openai/gpt-4o",
         "field 'settings.model_base_url'"),
        (f"{{model_base_url: 'http://u:{SUITE_SECRET}@localhost/v1'}}", "openai/gpt-4o",
         "field 'settings.model_base_url': the URL"),
        ("{}", f"{{name: openai/gpt-4o, args: {{default_headers: 'X-Key {SUITE_SECRET}'}}}}",
         "field 'models[1].args': default_headers: expected a mapping"),
        ("{}", f"{{name: openai/gpt-4o, args: {{default_headers: {{X-Key: \"a\\n{SUITE_SECRET}\"}}}}}}",
         "field 'models[1].args': default_headers: the value of 'X-Key'"),
    ],
)  # fmt: skip
def test_a_suite_model_is_checked_by_its_own_fields(
    settings: str, model: str, culprit: str, tmp_path: Path
) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(f"settings: {settings}\nmodels: [{model}]\nruns: [{{benchmark: medhallu}}]\n")
    code, _, err = run(["plan", str(suite)])
    line = one_line(err)
    assert code == 2 and culprit in line, err
    assert SUITE_SECRET not in err and "--model-base-url" not in err and "-M" not in err


@pytest.mark.parametrize("price", ["-0.5", ".nan", ".inf", "cheap", "true"])
def test_prices_must_be_finite_and_not_negative(price: str, tmp_path: Path) -> None:
    prices = tmp_path / "prices.yaml"
    prices.write_text(f"embedded/smollm2: {{input: {price}, output: 1}}\n")
    code, _, err = run(
        ["eval", "medhallu", "--dataset", MEDHALLU, "--dry-run", "--prices", str(prices)]
    )
    assert code == 2 and "embedded/smollm2.input" in one_line(err)


@pytest.mark.parametrize(
    ("model", "culprit"),
    [("gpt4", "gpt4"), ("nosuch/model", "nosuch"), ("openai/", "empty part"),
     ("openai-api/svc/", "empty part")],
)  # fmt: skip
def test_a_plan_checks_model_names(model: str, culprit: str) -> None:
    code, _, err = run(["eval", "medhallu", "--dataset", MEDHALLU, "--dry-run", "--model", model])
    assert code == 2 and culprit in one_line(err)


@pytest.mark.parametrize("model", ["openai-api/stub/m", "openai/gpt-4o-mini"])
def test_a_plan_checks_model_arguments_without_a_key_or_an_endpoint(model: str) -> None:
    """A plan needs no key nor base URL, and still refuses an argument a run would refuse."""
    args = ["eval", "medhallu", "--dataset", MEDHALLU, "--dry-run", "--model", model]
    code, _, err = run([*args, "-M", "n_ctx=12"], OPENAI_API_KEY="", STUB_API_KEY="")
    assert code == 2 and "n_ctx" in one_line(err) and model in one_line(err)


def test_a_plan_does_not_need_an_api_key() -> None:
    code, out, err = run(
        ["eval", "medhallu", "--dataset", MEDHALLU, "--dry-run", "--model", "openai/gpt-4o-mini"],
        OPENAI_API_KEY="",
    )
    assert code == 0, err
    assert "openai/gpt-4o-mini" in out


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (["--temperature", "0.5", "--temperatures", "0.1,0.2"], "--temperatures"),
        (["--responses", MEDHALLU, "--epochs", "3", "--judge", "embedded/smollm2"], "--epochs"),
        (
            ["--responses", MEDHALLU, "--temperature", "0.1", "--judge", "embedded/smollm2"],
            "--temperature",
        ),
        (["--published"], "--published: needs --wide"),
        (["--batch-delay", "5"], "--batch-delay: needs --batch"),
        (
            ["--dataset", DAHL, "--categories", "cardiologyy"],
            "--categories cardiologyy: no question",
        ),
        (
            ["--extract-prompt", EXTRACT_PROMPT],
            "--extract-prompt: applies only with a model for the extractor role (--extractor)",
        ),
        # A setting of one value of another (the batch checker's prompt in unit mode).
        (
            ["--check-batch-prompt", EXTRACT_PROMPT],
            "--check-batch-prompt: needs --check-mode batch",
        ),
        (
            ["--paper-prompts", ".", "--no-paper-protocol"],
            "--paper-prompts: needs --paper-protocol",
        ),
    ],
)
def test_options_that_would_be_ignored_are_refused(args: list[str], culprit: str) -> None:
    code, _, err = run(["eval", "dahl", "--dataset", DAHL, "--dry-run", *args])
    assert code == 2 and culprit in one_line(err)


def test_a_role_setting_applies_once_its_role_names_a_model() -> None:
    """`--extract-prompt` sets the extractor's calls: taken with `--extractor`, refused
    without (above), and not checked where the roles are not known (the Python API)."""
    code, _, err = run(
        ["eval", "dahl", "--dataset", DAHL, "--dry-run", "--extract-prompt", EXTRACT_PROMPT,
         "--extractor", "embedded/smollm2"]
    )  # fmt: skip
    assert code == 0, err
    from medhalbench.medhallu import MedHalluSettings

    assert MedHalluSettings.of(extract_prompt=EXTRACT_PROMPT).extract_prompt == EXTRACT_PROMPT


def test_builders_check_their_prompts_and_sources(tmp_path: Path) -> None:
    papers = tmp_path / "papers"
    papers.mkdir()
    (papers / "text_1.txt").write_text("Metformin lowers hepatic glucose output in patients.")
    for text in ("Questions about {paper} and {bogus} ({count}, {categories})",
                 'Reply as {"questions": []} about {paper} ({count}, {categories})'):  # fmt: skip
        prompt = tmp_path / "prompt.txt"
        prompt.write_text(text)
        code, _, err = run(
            ["build", "dahl", "--papers", str(papers), "--out", str(tmp_path / "o"),
             "--prompt", str(prompt), "--dry-run"]
        )  # fmt: skip
        assert code == 2 and "prompt.txt" in one_line(err)
    code, _, err = run(
        ["build", "medhal", "--source", f"medqa={MEDHAL}", "--source", f"medqa={MEDHAL}",
         "--out", str(tmp_path / "o"), "--dry-run"]
    )  # fmt: skip
    assert code == 2 and "given more than once" in one_line(err) and "--source" in err


def test_papers_that_are_not_text_are_left_out_and_counted(tmp_path: Path) -> None:
    from medhalbench.dahl import load_papers

    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "text_1.txt").write_text("Aspirin inhibits cyclooxygenase.")
    (folder / "text_2.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR")
    (folder / "text_3.txt").write_bytes("Fièvre élevée.".encode("latin-1"))
    unreadable: list[str] = []
    papers = load_papers(folder, unreadable=unreadable)
    assert [p.id for p in papers] == ["text_1"]
    assert unreadable == ["text_2.txt", "text_3.txt"]


@pytest.mark.parametrize(
    ("key", "args", "culprit"),
    [
        ("sk-line\nbreak", [], "--model openai/gpt-4o: the API key"),
        ("sk-not-ascii-é", [], "--model openai/gpt-4o: the API key"),
        ("sk-ok", ["-M", 'default_headers={"X-Key": "a\\r\\nb"}'], "the value of 'X-Key'"),
        ("sk-ok", ["-M", 'default_headers={"X Key": "v"}'], "a header's name is not a token"),
    ],
)
def test_a_key_or_header_no_request_can_carry_is_refused_before_any_call(
    key: str, args: list[str], culprit: str
) -> None:
    # Every call would fail before reaching the server, and be retried for minutes.
    code, _, err = run(
        ["eval", "medhallu", "--dataset", MEDHALLU, "--model", "openai/gpt-4o",
         "--model-base-url", "http://127.0.0.1:9/v1", "--display", "none", *args],
        OPENAI_API_KEY=key,
    )  # fmt: skip
    assert code == 2 and culprit in one_line(err), err
    assert "line\nbreak" not in err and "not-ascii" not in err


@pytest.mark.parametrize(
    "args",
    [
        ["-M", "api_key:Colon5ecretArg77=x"],  # a colon for the '='
        ["-M", "AbCdEf5ecretArg77XyZ="],  # a base64 key given bare
        ["-M", "sk-Name5ecretArg77=1"],
        ["-M", "Temperature=0.5", "-M", "n ctx=1"],
        ["--role-arg", "extractor:api_key:Colon5ecretArg77=x"],
        ["--role-arg", "sk-Role5ecretArg77:api_key=1"],
    ],
)
def test_a_key_given_where_a_name_goes_is_refused_unshown(args: list[str]) -> None:
    """A model argument's name is a lower-case Python name; anything else may be a key given
    in the wrong place: refused before any call, and never shown."""
    code, out, err = run(
        ["eval", "medhallu", "--dataset", MEDHALLU, "--model", "openai/gpt-4o",
         "--model-base-url", "http://127.0.0.1:9/v1", "--display", "none", *args],
        OPENAI_API_KEY="sk-ok",
    )  # fmt: skip
    assert code == 2 and "not shown: it may hold a key" in one_line(err), err
    assert "5ecretArg77" not in out + err and "Temperature" not in err


@pytest.mark.parametrize(
    "name", ["bad\x1b]0;title\x07", "red\x1b[31m", "back\x08space", "a\u202eb", "two words", " "]
)
@pytest.mark.parametrize("option", [["eval", "medhallu", "--responses", "x.jsonl", "--system"],
                                    ["audit", "logs", "--annotator"]])  # fmt: skip
def test_a_name_given_as_an_option_holds_nothing_a_terminal_acts_on(
    option: list[str], name: str
) -> None:
    code, out, err = run([*option, name])
    assert code == 2 and "control characters" in one_line(err)
    assert not any(c in out + err for c in "\x1b\x07\x08\u202e")


@pytest.mark.parametrize("acting", ["\x1b]0;title\x07", "\x1b[2J", "\r", "\x9b31m", "\u202e"])
@pytest.mark.parametrize(
    "args",
    [
        ["eval", "medhallu", "--dataset", "missing{}.jsonl"],
        ["report", "missing{}.eval"],
        ["run", "suite{}.yaml"],
        ["eval", "medhallu", "--dataset", MEDHALLU, "--log-dir", "/proc/no{}/logs"],
    ],
)
def test_a_value_echoed_in_an_error_is_shown_escaped(args: list[str], acting: str) -> None:
    code, out, err = run([a.replace("{}", acting) for a in args])
    line = one_line(err)
    assert code == 2 and ascii(acting)[1:-1] in line, line
    assert acting not in out + err


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (["medhallu", "--dataset", MEDHALLU, "--split", "test"], "--split: picks a part"),
        (["medhallu", "--dataset", MEDHALLU, "--config", "pqa_artificial"], "--config: picks a"),
        (["medhal", "--dataset", MEDHAL, "--split", "train"], "--split: picks a part"),
    ],
)
def test_a_part_of_a_source_that_has_none_is_refused(args: list[str], culprit: str) -> None:
    code, _, err = run(["eval", *args, "--dry-run"])
    assert code == 2 and culprit in one_line(err)


def test_a_row_asked_with_knowledge_that_has_none_is_named(tmp_path: Path) -> None:
    rows = medhallu_rows(tmp_path / "rows.jsonl")
    lines = rows.read_text().splitlines()
    lines[1] = json.dumps({**json.loads(lines[1]), "Knowledge": [" "]})
    rows.write_text("\n".join(lines) + "\n")
    code, _, err = run(["eval", "medhallu", "--dataset", str(rows), "--knowledge", "--dry-run"])
    assert code == 2 and "line 2, field 'Knowledge': no knowledge" in one_line(err)
    assert run(["eval", "medhallu", "--dataset", str(rows), "--dry-run"])[0] == 0


def _outputs_over_inputs(folder: Path) -> list[list[str]]:
    """A command per kind of output, each told to write over one of its own inputs."""
    questions = folder / "questions.csv"
    questions.write_text("question\nWhat is X?\n")
    corpus = folder / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text("Aspirin thins the blood.")
    log = folder / "run.eval"
    log.write_bytes(b"PK")
    return [
        ["dahl", "filter", str(questions), "--out", str(questions)],
        ["index", str(corpus), "--out", str(corpus)],
        ["report", str(log), "--out", str(log)],
        # A log folder's kind of file, inside the folder: read as a log (or one already).
        ["report", str(folder), "--out", str(log), "--format", "json"],
        ["report", str(folder), "--out", str(folder / "new.json")],
        ["compare", str(log), str(log), "--out", str(log), "--format", "json"],
        ["build", "dahl", "--papers", str(corpus), "--out", str(corpus), "--dry-run"],
    ]


def test_no_command_writes_over_its_own_input(tmp_path: Path) -> None:
    for args in _outputs_over_inputs(tmp_path):
        before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
        code, _, err = run(args)
        assert code == 2 and "it would write over" in one_line(err), (args, err)
        assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (["--out", "x.md", "--format", "html"], "--out: x.md names markdown, not --format html"),
        (["--out", "x.csv", "--format", "json"], "--out: x.csv names csv, not --format json"),
    ],
)
def test_a_report_is_not_written_under_another_formats_suffix(
    args: list[str], culprit: str, tmp_path: Path
) -> None:
    log = tmp_path / "run.eval"
    log.write_bytes(b"PK")
    code, _, err = run(["report", str(log), *args])
    assert code == 2 and culprit in one_line(err)


# After three lines of models, each fault, its place and its line.
SUITE_FAULTS = {
    "runs:\n  - benchmark: medhalu\n": ("runs[1].benchmark", 5, "unknown benchmark"),
    "runs:\n  - benchmark: medhallu\n    args:\n      limt: 3\n": ("runs[1].args.limt", 7, "no such"),
    "runs:\n  - benchmark: medhallu\n  - args: {dataset: example}\n": ("runs[2].benchmark", 6, "required"),
    "runs:\n  - benchmark: medhallu\n\n    args: {limit: -1}\n": ("runs[1].args.limit", 7, ""),
    "runs:\n  - {benchmark: dahl, args: {}}\nsettings:\n  max_retries: -4\n": ("settings.max_retries", 7, ""),
    "runs:\n  - benchmark: medhallu\n    args:\n      dataset: nope.jsonl\n": ("runs[1].args.dataset", 7, "no such file"),
}  # fmt: skip


@pytest.mark.parametrize("runs", SUITE_FAULTS)
def test_a_suite_fault_is_named_by_its_line(runs: str, tmp_path: Path) -> None:
    suite = tmp_path / "suite.yaml"
    head = "# a suite\nmodels:\n  - name: embedded/smollm2\n"
    suite.write_text(head + runs)
    field, number, reason = SUITE_FAULTS[runs]
    code, _, err = run(["plan", str(suite)])
    line = one_line(err)
    assert code == 2 and f"line {number}, field '{field}'" in line and reason in line, line


def test_a_base_url_from_the_environment_is_checked_as_the_options_are() -> None:
    code, _, err = run(
        ["eval", "medhallu", "--dataset", MEDHALLU, "--model", "openai/gpt-4o-mini"],
        OPENAI_API_KEY="sk-x", OPENAI_BASE_URL="127.0.0.1:9/v1",
    )  # fmt: skip
    assert code == 2 and "the base URL set in OPENAI_BASE_URL: expected an http" in one_line(err)
