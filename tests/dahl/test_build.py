"""The DAHL question builder with a scripted generator."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from helpers import read_csv, scripted_model
from medhalbench.dahl import (
    DahlBuild,
    build_dahl_questions,
    load_dahl_questions,
    parse_generator_output,
)

OUTPUTS = {
    "P1": {
        "category": "Cardiology",
        "questions": [
            "1. What is the first-line treatment of stable angina?",
            "What did this study find about statins?",
            "Which genes are mentioned as risk factors?",
            "Which antibody was used in the assay?",
            "Explain how beta blockers reduce heart rate.",
            "Statins are first-line drugs.",
        ],
    },
    "P2": {"category": "astrology", "questions": ["How does insulin lower blood glucose?"]},
    "P3": "I am sorry, I cannot write questions.",
    "P4": {"category": "oncology", "questions": ["What are the hallmarks of cancer?"]},
}


def reply_for(prompt: str) -> str:
    for paper_id, output in OUTPUTS.items():
        if f"PAPER-{paper_id}" in prompt:
            return output if isinstance(output, str) else json.dumps(output)
    raise AssertionError("unknown paper")


@pytest.fixture
def papers_jsonl(tmp_path: Path) -> Path:
    path = tmp_path / "papers.jsonl"
    path.write_text(
        "".join(
            json.dumps({"id": p, "title": p, "text": f"PAPER-{p} body text."}) + "\n"
            for p in OUTPUTS
        )
    )
    return path


def build(papers: Path, out: Path, model, **kwargs):
    request = DahlBuild(papers=str(papers), out=str(out), **kwargs)
    return asyncio.run(build_dahl_questions(request, model, show_progress=False))


def test_questions_kept_dropped_and_counted(papers_jsonl: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    summary = build(papers_jsonl, out, scripted_model(reply_for))
    assert (summary.kept, summary.dropped, summary.unparseable) == (4, 4, 1)
    # "Which antibody was used in the assay?" asks what the paper's own assay used (`own_study`:
    # "the assay" in a question about what was done); the imperative prompt is kept.
    assert dict(summary.dropped_by_rule) == {
        "demonstrative": 1,
        "paper_reference": 1,
        "not_a_question": 1,
        "own_study": 1,
    }
    rows = read_csv(out / "questions.csv")
    assert [(r["question"], r["category"], r["paper_id"]) for r in rows] == [
        ("What is the first-line treatment of stable angina?", "cardiology", "P1"),
        ("Explain how beta blockers reduce heart rate.", "cardiology", "P1"),
        ("How does insulin lower blood glucose?", "other", "P2"),  # not a DAHL category
        ("What are the hallmarks of cancer?", "oncology", "P4"),
    ]
    dropped = {r["question"]: r["rule"] for r in read_csv(out / "dropped.csv")}
    assert dropped == {
        "What did this study find about statins?": "demonstrative",
        "Which genes are mentioned as risk factors?": "paper_reference",
        "Statins are first-line drugs.": "not_a_question",
        "Which antibody was used in the assay?": "own_study",
    }
    records = [json.loads(line) for line in (out / "papers.jsonl").read_text().splitlines()]
    p3 = next(r for r in records if r["paper_id"] == "P3")
    assert p3["status"] == "unparseable" and "cannot write" in p3["raw_output"]
    loaded = load_dahl_questions(out / "questions.csv")
    assert len(loaded) == 4 and loaded[0].paper_id == "P1"


def test_paper_protocol_keeps_every_question_and_flags_for_review(
    papers_jsonl: Path, tmp_path: Path
) -> None:
    out = tmp_path / "paper"
    summary = build(papers_jsonl, out, scripted_model(reply_for), protocol="paper")
    # The authors filtered by hand: nothing is dropped, the paper's families only flag.
    assert (summary.kept, summary.dropped, summary.flagged) == (8, 0, 3)
    assert dict(summary.flagged_by_rule) == {
        "demonstrative_study_noun": 1,
        "context_verb": 1,
        "was_were_participle": 1,
    }
    flagged = {r["question"]: r["rule"] for r in read_csv(out / "review.csv")}
    assert flagged["Which antibody was used in the assay?"] == "was_were_participle"
    assert (out / "dropped.csv").read_text().count("\n") == 1  # the header alone
    lines = summary.summary()
    assert any("flagged for your review: 3" in line for line in lines)
    assert any("gpt-4-1106-preview" in line for line in lines)


def test_resume_after_failure_redoes_only_the_rest(papers_jsonl: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"

    def failing(prompt: str) -> str:
        if "PAPER-P3" in prompt:
            raise RuntimeError("model server went away")
        return reply_for(prompt)

    with pytest.raises(RuntimeError, match="went away"):
        build(papers_jsonl, out, scripted_model(failing), concurrency=1, cache=False)
    done = [
        json.loads(line)["paper_id"] for line in (out / "papers.jsonl").read_text().splitlines()
    ]
    # Work finished before the failure is kept (P4 may finish while the error propagates).
    assert {"P1", "P2"} <= set(done) and "P3" not in done
    # A crash in the middle of writing leaves a torn last line: it is discarded and redone.
    with (out / "papers.jsonl").open("a") as f:
        f.write('{"paper_id": "P3", "questions": [')
    calls: list[str] = []
    summary = build(papers_jsonl, out, scripted_model(reply_for, calls), cache=False)
    assert summary.skipped_done == len(done) and summary.processed_now == 4 - len(done)
    assert len(calls) == 4 - len(done) and any("PAPER-P3" in c for c in calls)
    ids = [json.loads(line)["paper_id"] for line in (out / "papers.jsonl").read_text().splitlines()]
    assert sorted(ids) == ["P1", "P2", "P3", "P4"]
    fresh = tmp_path / "fresh"
    build(papers_jsonl, fresh, scripted_model(reply_for))
    assert (out / "questions.csv").read_text() == (fresh / "questions.csv").read_text()


@pytest.mark.parametrize(
    ("text", "category", "questions"),
    [
        (
            '{"category": "ent", "questions": ["1. Why do ears ring?", "<question>"]}',
            "ent",
            ["Why do ears ring?"],
        ),
        (
            '```json\n{"category": "ent", "questions": ["Name the ossicles of the ear."]}\n```',
            "ent",
            ["Name the ossicles of the ear."],
        ),
        (
            '{"category": "ent", "questions": ["Why do ears ring?", "What is otitis med',
            "ent",
            ["Why do ears ring?"],
        ),
        (
            "CATEGORY: Dental\nQUESTIONS:\n1. What causes caries?\n2. **Heading**: statement here.",
            "Dental",
            # Every item comes back; the checks decide (and count) which are questions.
            ["What causes caries?", "Heading: statement here."],
        ),
        ("no structure at all", None, []),
    ],
)
def test_generator_output_parsing(text: str, category: str | None, questions: list[str]) -> None:
    parsed = parse_generator_output(text)
    assert (parsed.category, parsed.questions) == (category, questions)
