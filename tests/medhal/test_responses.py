"""A judge's replies written elsewhere (`--responses`) scored as ours are, and predict-only
runs (`--predict`): unlabelled statements get a verdict and an explanation each, as JSONL
beside the log, with no figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai.log import list_eval_logs, read_eval_log
from sklearn.metrics import f1_score

from medhalbench.cli import cli
from medhalbench.examples import illustrative
from medhalbench.results import log_metrics

MEDHAL = illustrative("medhal_illustrative.jsonl")

# Replies the way judges write them, with the verdict each means (True: factual; None: none).
REPLIES = [
    ("Factual: NO\nExplanation: The context reports the opposite.", False),
    ("**Factual:** YES", True),
    ("The statement is not factual. The trial found no such effect.", False),
    ('{"factual": "YES", "explanation": ""}', True),
    ("I cannot tell from the context given.", None),
    ("<think>It matches the context.</think>\nFactual: YES", True),
    ("### Verdict\nNO\n\n### Explanation\nThe dose is wrong.", False),
]


def rows() -> list[dict[str, object]]:
    return [json.loads(line) for line in Path(MEDHAL).read_text().splitlines()]


def run(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, args)
    return result.exit_code, result.stdout, result.stderr


def test_replies_written_elsewhere_are_scored_and_named(tmp_path: Path) -> None:
    replies, truth = tmp_path / "replies.jsonl", []
    with replies.open("w") as out:
        for i, row in enumerate(rows()[: len(REPLIES)]):
            reply, meant = REPLIES[i]
            named = {"id": row["id"]} if i % 2 else {"statement": str(row["statement"]).upper()}
            out.write(json.dumps({**named, "reply": reply}) + "\n")
            truth.append((row["label"], meant))
    code, out, err = run(
        ["eval", "medhal", "--dataset", MEDHAL, "--responses", str(replies),
         "--system", "scribe-v2", "--embedder", "none", "--log-dir", str(tmp_path / "logs")]
    )  # fmt: skip
    assert code == 0, err
    [info] = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    assert log.eval.model == "system/scribe-v2" and len(log.samples or []) == len(REPLIES)
    metrics = log_metrics(log)
    # Ours: non-factual is the positive class; a reply without a verdict counts as wrong.
    gold = [not label for label, _ in truth]
    predicted = [meant is False for _, meant in truth]
    assert metrics["f1"] == pytest.approx(f1_score(gold, predicted))
    assert metrics["unparseable"] == sum(meant is None for _, meant in truth)
    title = next(line for line in out.splitlines() if line.startswith("MedHal "))
    assert "system/scribe-v2" in title and "structured" not in title


def write_statements(path: Path) -> list[str]:
    statements = [
        {"statement": "Metformin is a first-line treatment for type 2 diabetes."},
        {"id": "amox", "statement": "Amoxicillin is an antiviral drug.",
         "context": "Amoxicillin is a penicillin antibiotic used for bacterial infections."},
        {"statement": "Aspirin irreversibly inhibits cyclooxygenase.", "source": "pharmacology"},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(s) + "\n" for s in statements))
    return ["line-1", "amox", "line-3"]


def predictions_of(folder: Path) -> dict[str, dict[str, object]]:
    [path] = folder.glob("*.predictions.jsonl")
    [log] = folder.glob("*.eval")
    assert path.name == log.name.removesuffix(".eval") + ".predictions.jsonl"
    return {row["id"]: row for row in map(json.loads, path.read_text().splitlines())}


def test_predict_only_writes_each_verdict_and_explanation(tmp_path: Path) -> None:
    statements = tmp_path / "statements.jsonl"
    ids = write_statements(statements)
    replies = tmp_path / "replies.jsonl"
    replies.write_text(
        json.dumps({"id": "line-1", "reply": "Factual: YES"}) + "\n"
        + json.dumps({"id": "amox", "reply": "Factual: NO\nExplanation: It is an antibiotic."})
        + "\n"
        + json.dumps({"statement": "aspirin irreversibly inhibits cyclooxygenase.",
                      "reply": "Hard to say without more context."}) + "\n"
    )  # fmt: skip
    code, out, err = run(
        ["eval", "medhal", "--dataset", str(statements), "--predict", "--responses",
         str(replies), "--log-dir", str(tmp_path / "logs")]
    )  # fmt: skip
    assert code == 0, err
    found = predictions_of(tmp_path / "logs")
    assert sorted(found) == sorted(ids)
    assert found["line-1"]["factual"] is True
    assert found["amox"]["factual"] is False
    assert found["amox"]["explanation"] == "It is an antibiotic."
    assert found["amox"]["context"] and found["line-3"]["source"] == "pharmacology"
    assert found["line-3"]["factual"] is None  # unreadable: counted, never guessed
    assert "F1" not in out and "Written:" in out
    counts = next(line for line in out.splitlines() if "│ system/replies" in line).split("│")
    assert [c.strip() for c in counts[3:7]] == ["3", "1", "1", "1"]


@pytest.mark.slow
def test_predict_only_on_the_embedded_model(tmp_path: Path) -> None:
    statements = tmp_path / "statements.jsonl"
    ids = write_statements(statements)
    code, _, err = run(
        ["eval", "medhal", "--dataset", str(statements), "--predict",
         "--log-dir", str(tmp_path / "logs")]
    )  # fmt: skip
    assert code == 0, err
    found = predictions_of(tmp_path / "logs")
    assert sorted(found) == sorted(ids)
    assert all(row["reply"] and row["factual"] in (True, False, None) for row in found.values())
    assert all((row["factual"] is None) == (row["read_by"] is None) for row in found.values())


def test_unlabelled_statements_without_predict_say_how(tmp_path: Path) -> None:
    statements = tmp_path / "statements.jsonl"
    write_statements(statements)
    code, _, err = run(["eval", "medhal", "--dataset", str(statements), "--dry-run"])
    assert code == 2 and "line 1, field 'id': missing" in err and "--predict" in err, err


# A reasoning block in each layout a server sends, around the verdict each reply means: the
# authors read the first yes/no word of the whole text, wherever the block stands.
LAYOUTS = [
    "<think>\nDoes the context say no? Compare.\n</think>\n\nFactual: {v}",
    "<think>Yes or no?</think>\nFactual: {v}\nExplanation: Checked against the context.",
    "Factual: {v}\n<think>\nDoes the context say no to it? Compared.\n</think>",
    "<think>\nNo verdict yet: the context is long.\n</think>",
    "  Factual: {v}\n",
]


def test_replies_given_in_every_reasoning_layout_score_as_the_authors_parser(
    tmp_path: Path,
) -> None:
    from authors_code import authors_evaluate
    from medhalbench.embeddings import Embedder
    from medhalbench.settings import DEFAULT_EMBEDDER

    dataset = Path(__file__).parent / "data" / "statements.jsonl"  # the authors' source names
    given = {}
    for i, row in enumerate(json.loads(line) for line in dataset.read_text().splitlines()):
        verdict = "YES" if row["label"] else "NO"
        given[str(row["id"])] = LAYOUTS[i % len(LAYOUTS)].format(v=verdict)
    replies = tmp_path / "replies.jsonl"
    replies.write_text("".join(json.dumps({"id": k, "reply": v}) + "\n" for k, v in given.items()))
    code, _, err = run(
        ["eval", "medhal", "--dataset", str(dataset), "--responses", str(replies), "--system",
         "reasoner", "--bootstrap", "0", "--log-dir", str(tmp_path / "logs")]
    )  # fmt: skip
    assert code == 0, err
    [info] = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    samples = log.samples or []
    theirs = authors_evaluate(
        [
            {"label": s.metadata["label"], "source": {"acn": "acm"}.get(s.metadata["source"], s.metadata["source"]),
             "explanation": s.metadata["explanation"], "output": given[str(s.id)]}
            for s in samples
        ],
        Embedder(DEFAULT_EMBEDDER),
    )  # fmt: skip
    metrics = log_metrics(log)
    for name, value in theirs.items():
        assert metrics[name] == pytest.approx(value, abs=1e-6), name
    assert {s.scores["factuality_verdict"].metadata["paper_text"] for s in samples} == {"as sent"}
