"""`medhalbench recall INDEX QUESTIONS`: recall@k and MRR@10 of a user's own questions, as a
table or as JSON, each with its 95% interval; a question file it cannot use ends in one line
naming the culprit, exit code 2, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from medhalbench.cli import cli
from medhalbench.evidence import build_index
from medhalbench.settings import DenseSettings

sys.path.insert(0, str(Path(__file__).parents[1] / "evidence"))
from corpora import write_jsonl, write_other_embedder  # noqa: E402

QUESTIONS = [
    # BM25 finds these from their words ...
    {"question": "Which cotransporter do loop diuretics such as furosemide inhibit?", "gold": "loop-diuretics"},
    {"question": "Does metformin cause hypoglycaemia on its own?", "gold": "metformin"},
    {"question": "Do radon and asbestos raise the risk of lung cancer?", "gold": "lung-cancer"},
    # ... not this one, asked in words of no document.
    {"question": "Do jabs keep protecting you years later?", "gold": "vaccines"},
]  # fmt: skip

pytestmark = pytest.mark.xdist_group("recall-command")


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("recall")
    build_index([write_jsonl(folder / "c.jsonl")], folder / "index", progress=False)
    return folder / "index"


def questions(folder: Path, rows: list[dict[str, object]] = QUESTIONS) -> Path:
    path = folder / "questions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def recall(warm_cli: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*warm_cli, "recall", *args], capture_output=True, text=True, timeout=120)


def test_json_gives_each_figure_with_its_interval(
    warm_cli: list[str], index: Path, tmp_path: Path
) -> None:
    done = recall(warm_cli, str(index), str(questions(tmp_path)), "--format", "json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    # An index without vectors is searched by BM25: 3 of 4 found, each first.
    assert result["retriever"] == f"bm25:{index}"
    assert {k: result[k] for k in ("recall@1", "recall@5", "recall@10", "mrr@10", "n")} == {
        "recall@1": 0.75, "recall@5": 0.75, "recall@10": 0.75, "mrr@10": 0.75, "n": 4,
    }  # fmt: skip
    for name in ("recall@1", "recall@5", "recall@10", "mrr@10"):
        low, high = result["ci"][name]
        assert 0 <= low <= result[name] <= high <= 1
    done = recall(warm_cli, str(index), str(questions(tmp_path)), "--format", "json", "--k", "2")
    assert set(json.loads(done.stdout)) >= {"recall@2", "mrr@10", "n"}
    assert "recall@1" not in json.loads(done.stdout)


def test_the_table_names_the_retriever_and_the_questions(
    warm_cli: list[str], index: Path, tmp_path: Path
) -> None:
    done = recall(warm_cli, str(index), str(questions(tmp_path)), "--k", "1,3", "--bootstrap", "0")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "Retrieval of the gold document: 4 questions, bm25:" in text
    cells = [[c.strip() for c in line.split("│")[1:-1]] for line in done.stdout.splitlines()]
    rows = {c[0]: c[1] for c in cells if len(c) == 2}
    assert rows == {"recall@1": "0.750", "recall@3": "0.750", "MRR@10": "0.750"}
    assert "no intervals (--bootstrap 0)" in text


def _bad_json(t: Path) -> Path:
    (t / "q.jsonl").write_text('{"question": "a?", "gold": "metformin"}\n{"question": \n')
    return t / "q.jsonl"


BAD = {
    "missing file": (lambda t: t / "nope.jsonl", "nope.jsonl: no such file or folder"),
    "malformed row": (_bad_json, "q.jsonl, line 2: malformed JSON"),
    "no question": (
        lambda t: questions(t, [{"question": " ", "gold": "metformin"}]),
        "questions.jsonl, line 1, field 'question': no question",
    ),
    "no gold": (
        lambda t: questions(t, [{"question": "Why?"}]),
        "questions.jsonl, line 1, field 'gold': no gold document id",
    ),
    "several golds": (
        lambda t: questions(t, [{"question": "Why?", "gold": ["metformin", "aspirin"]}]),
        "questions.jsonl, line 1, field 'gold': one gold document per question (got 2)",
    ),
    "unknown gold": (
        lambda t: questions(t, [*QUESTIONS, {"question": "Why?", "gold": "aspirin"}]),
        "questions.jsonl, line 5, field 'gold': gold 'aspirin' is no document of the index "
        "(ids as the corpus gives them, e.g. 'loop-diuretics')",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_questions_end_in_one_line(
    warm_cli: list[str], index: Path, tmp_path: Path, case: str
) -> None:
    make, expected = BAD[case]
    done = recall(warm_cli, str(index), str(make(tmp_path)))
    assert done.returncode == 2, done.stdout
    [line] = done.stderr.strip().splitlines()
    assert expected in line and "Traceback" not in done.stderr


def test_an_index_that_is_not_one_and_bad_options_end_in_one_line(
    warm_cli: list[str], index: Path, tmp_path: Path
) -> None:
    asked = str(questions(tmp_path))
    for args, expected in [
        ((str(tmp_path), asked), "not an index folder (build one with medhalbench index"),
        (
            (str(index), asked, "--k", "0,5"),
            "--k: input should be greater than or equal to 1 (got '0')",
        ),
        ((str(index), asked, "--retriever", "dense"), "holds no passage vectors"),
    ]:
        done = recall(warm_cli, *args)
        assert done.returncode == 2, (args, done.stdout)
        [line] = done.stderr.strip().splitlines()
        assert expected in line, line


def test_hybrid_by_default_with_vectors_and_only_with_the_index_model(tmp_path: Path) -> None:
    other_embedder = write_other_embedder(tmp_path)
    build_index(
        [write_jsonl(tmp_path / "c.jsonl")], tmp_path / "index", dense=DenseSettings(),
        progress=False,
    )  # fmt: skip
    asked = str(questions(tmp_path))
    result = CliRunner().invoke(cli, ["recall", str(tmp_path / "index"), asked, "--format", "json"])
    assert result.exit_code == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["retriever"].startswith(f"hybrid:{tmp_path / 'index'} (bm25 + all-MiniLM-L6-v2")
    assert found["recall@1"] == 1.0 and found["n"] == 4  # the vectors find the jabs
    refused = CliRunner().invoke(
        cli, ["recall", str(tmp_path / "index"), asked, "--dense-model", other_embedder]
    )
    assert refused.exit_code == 2
    [line] = refused.stderr.strip().splitlines()
    assert "passage vectors were made by all-MiniLM-L6-v2" in line
    assert "would not be comparable" in line


def test_a_gold_given_as_a_list_of_one_id_is_that_id(tmp_path: Path) -> None:
    from medhalbench.evidence import read_questions

    path = questions(
        tmp_path, [{"question": "Why?", "gold": [" metformin "]}, {"question": "How?", "gold": 7}]
    )
    assert [(q.question, q.gold) for q in read_questions(path)] == [
        ("Why?", "metformin"),
        ("How?", "7"),
    ]
