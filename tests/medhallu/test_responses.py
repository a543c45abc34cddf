"""A detector's outputs written elsewhere (`--responses`): verdicts or replies, matched to
the dataset's answers by id or by text, scored as ours are, and named by `--system`."""

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

MEDHALLU = illustrative("medhallu_illustrative.jsonl")

# Replies the way detectors write them, each with the verdict it means.
REPLIES = [
    ("1", 1),
    ("**Verdict:** 0 (factual)", 0),
    ("The answer is hallucinated: the abstract reports the opposite.\n\nAnswer: 1", 1),
    ('{"verdict": 0}', 0),
    ("<think>The abstract supports it.</think>\n0", 0),
    ("Hallucinated.", 1),
]


def write_outputs(path: Path) -> list[tuple[int, int]]:
    """Outputs for the first eight rows' two answers (named by id or by text, verdicts or
    replies), plus one for an answer the dataset does not hold; returns (label, meant)."""
    rows = [json.loads(line) for line in Path(MEDHALLU).read_text().splitlines()][:8]
    outputs, truth = [], []
    for i, row in enumerate(rows):
        for kind, answer, label in (
            ("ground_truth", row["Ground Truth"], 0),
            ("hallucinated", row["Hallucinated Answer"], 1),
        ):
            n = len(outputs)
            named = (
                {"id": f"{row['pubid']}-{kind}"}
                if n % 2
                else {"question": row["Question"], "answer": f"  {answer} "}
            )
            if n % 3 == 0:
                meant = (label + i) % 2
                outputs.append({**named, "verdict": ["factual", "hallucinated"][meant]})
            else:
                reply, meant = REPLIES[n % len(REPLIES)]
                outputs.append({**named, "reply": reply})
            truth.append((label, meant))
    outputs.append({"question": "Not in the dataset?", "answer": "No.", "verdict": 1})
    path.write_text("".join(json.dumps(o) + "\n" for o in outputs))
    return truth


def test_outputs_written_elsewhere_are_scored_and_named_by_the_system(tmp_path: Path) -> None:
    outputs = tmp_path / "detector_outputs.jsonl"
    truth = write_outputs(outputs)
    result = CliRunner().invoke(
        cli,
        ["eval", "medhallu", "--dataset", MEDHALLU, "--responses", str(outputs),
         "--system", "acme-detector", "--log-dir", str(tmp_path / "logs")],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    [info] = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    assert log.eval.model == "system/acme-detector"
    assert log.eval.metadata and log.eval.metadata["outputs_not_in_dataset"] == 1
    assert log.samples and len(log.samples) == len(truth)
    metrics = log_metrics(log)
    expected = f1_score([label for label, _ in truth], [meant for _, meant in truth])
    assert metrics["f1"] == pytest.approx(expected)
    # The title, its lines joined (the outputs' path as the report shows paths may wrap it).
    title = " ".join(result.stdout.split("MedHallu:", 1)[1].split("┏")[0].split())
    assert "system/acme-detector" in title and "1 outputs not in the dataset" in title
    assert "structured" not in title and "temperature" not in title


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize(
    ("row", "args", "culprits"),
    [
        ({"id": "illustrative-01-ground_truth", "verdict": 1}, ["--temperature", "0.7"],
         ["--temperature", "nothing is generated"]),
        ({"id": "illustrative-01-ground_truth", "verdict": 1}, ["--model", "openai/gpt-4o"],
         ["--model", "--system"]),
        ({"id": "illustrative-01-ground_truth", "verdict": 2}, [],
         ["outputs.jsonl", "line 1", "--not-sure"]),
        ({"id": "illustrative-01-ground_truth", "verdict": "maybe"}, [],
         ["outputs.jsonl", "line 1", "verdict", "'maybe'"]),
        ({"id": "illustrative-01-ground_truth"}, [], ["line 1", "a reply or a verdict"]),
        ({"reply": "1"}, [], ["line 1", "its id, or its question and answer"]),
        ({"id": "no-such-sample", "verdict": 1}, [], ["none of its 1 outputs matches"]),
        ({"id": "illustrative-01-ground_truth", "verdict": 1}, ["--system", "two words"],
         ["--system", "without spaces"]),
    ],
)  # fmt: skip
def test_bad_outputs_and_options_are_one_line(
    row: dict[str, object], args: list[str], culprits: list[str], tmp_path: Path
) -> None:
    outputs = tmp_path / "outputs.jsonl"
    outputs.write_text(json.dumps(row) + "\n")
    result = CliRunner().invoke(
        cli,
        ["eval", "medhallu", "--dataset", MEDHALLU, "--responses", str(outputs),
         "--log-dir", str(tmp_path / "logs"), *args],
    )  # fmt: skip
    line = one_line(result.stderr)
    assert result.exit_code == 2 and all(c in line for c in culprits), line
    assert not (tmp_path / "logs").exists() or not list((tmp_path / "logs").iterdir())


def test_system_names_outputs_given_with_responses_only() -> None:
    result = CliRunner().invoke(
        cli, ["eval", "medhallu", "--dataset", MEDHALLU, "--system", "acme", "--dry-run"]
    )
    assert result.exit_code == 2 and "--responses" in one_line(result.stderr)


# A reasoning block in each layout a server sends, around the verdict each reply means.
LAYOUTS = [
    "<think>\nIs it non-factual? Compare.\n</think>\n\n{v}",
    "<think>Compare with the abstract.</think>\n{v}",
    "{v}\n<think>\nWas it hallucinated? Checked.\n</think>",
    "<think>\nStill weighing the abstract.\n</think>",
    "  {v}\n",
]


def test_replies_given_in_every_reasoning_layout_score_as_the_authors_script(
    tmp_path: Path,
) -> None:
    """The paper column reads each reply as given (`calculate_metrics`' substring tests on
    the whole text, block included), ours the verdict after its block."""
    from authors_code import authors_calculate_metrics

    rows = [json.loads(line) for line in Path(MEDHALLU).read_text().splitlines()][:6]
    outputs, given = [], {}
    for i, row in enumerate(rows):
        for kind, label in (("ground_truth", 0), ("hallucinated", 1)):
            sample = f"{row['pubid']}-{kind}"
            text = LAYOUTS[(2 * i + label) % len(LAYOUTS)].format(v=label)
            outputs.append({"id": sample, "reply": text})
            given[sample] = text
    path = tmp_path / "replies.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in outputs))
    result = CliRunner().invoke(
        cli,
        ["eval", "medhallu", "--dataset", MEDHALLU, "--responses", str(path), "--system",
         "reasoner", "--log-dir", str(tmp_path / "logs"), "--bootstrap", "0"],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    [info] = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    samples = log.samples or []
    texts = [given[str(s.id)] for s in samples]
    labels = [int(s.metadata["label"]) for s in samples]
    difficulties = [str(s.metadata["difficulty"]) for s in samples]
    theirs = authors_calculate_metrics(labels, texts, difficulties)
    metrics = log_metrics(log)
    for name in ("f1", "precision", "recall", "not_sure_rate"):
        assert metrics[f"paper_{name}"] == pytest.approx(theirs[name]), name
    assert {s.scores["detection_verdict"].metadata["paper_text"] for s in samples} == {"as sent"}
