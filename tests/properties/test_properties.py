"""Property-based tests: on arbitrary input, loaders raise our clear errors or return valid
records, parsers return a verdict or a counted non-answer, and cleaning never crashes."""

from __future__ import annotations

import json
import string
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from medhalbench import DataError
from medhalbench.dahl import load_dahl_questions, parse_truth_verdict, parse_units
from medhalbench.data import load_pubmedqa
from medhalbench.judging import parse_yes_no
from medhalbench.medhal import parse_factual_verdict
from medhalbench.medhallu import (
    DetectionLabel,
    MedHalluRecord,
    load_medhallu,
    parse_choice,
    parse_detection_verdict,
)
from medhalbench.text import clean_response, split_sentences

FIELDS = [
    "pubid",
    "Question",
    "Knowledge",
    "Ground Truth",
    "Difficulty Level",
    "Hallucinated Answer",
    "Category of Hallucination",
    "question",
    "category",
]
values = st.one_of(
    st.none(),
    st.text(max_size=20),
    st.integers(),
    st.floats(allow_nan=False),
    st.lists(st.text(max_size=10), max_size=3),
    st.booleans(),
)
rows = st.dictionaries(st.sampled_from(FIELDS), values, max_size=len(FIELDS))
lines = st.one_of(rows.map(json.dumps), st.text(max_size=40), st.just(""), st.just("[1, 2]"))
SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def write(tmp_path: Path, name: str, content: str) -> Path:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return path


@SETTINGS
@given(content=st.lists(lines, max_size=6).map("\n".join))
def test_medhallu_jsonl_loader(tmp_path: Path, content: str) -> None:
    path = write(tmp_path, "m.jsonl", content)
    try:
        records = load_medhallu(path)
    except DataError as ex:
        assert str(path) in str(ex)
        return
    assert all(
        isinstance(r, MedHalluRecord) and r.question and r.difficulty in ("easy", "medium", "hard")
        for r in records
    )


@SETTINGS
@given(content=st.text(alphabet=string.printable, max_size=300))
def test_csv_and_json_loaders(tmp_path: Path, content: str) -> None:
    for name, load in (
        ("q.csv", load_dahl_questions),
        ("p.json", load_pubmedqa),
        ("m.csv", load_medhallu),
    ):
        path = write(tmp_path, name, content)
        try:
            records = load(path)
        except DataError as ex:
            assert str(path) in str(ex)
            continue
        assert isinstance(records, list)


replies = st.one_of(
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


@settings(max_examples=400, deadline=None)
@given(reply=replies, allow=st.booleans())
def test_verdict_parsers_never_crash(reply: str, allow: bool) -> None:
    verdict = parse_detection_verdict(reply, allow_not_sure=allow)
    assert verdict.label is None or isinstance(verdict.label, DetectionLabel)
    assert verdict.reason
    if not allow:
        assert verdict.label is not DetectionLabel.NOT_SURE
    assert parse_truth_verdict(reply) in ("true", "false", "unknown")
    assert parse_yes_no(reply) in (True, False, None)
    assert parse_choice(reply) in (1, 2, None)
    factual = parse_factual_verdict(reply)
    assert factual.factual in (True, False, None) and (
        factual.factual is not None or factual.explanation is None
    )
    assert all(u.strip() for u in parse_units(reply))


@settings(max_examples=300, deadline=None)
@given(
    question=st.text(max_size=40),
    answer=st.text(max_size=300),
    truncated=st.sampled_from([True, False, None]),
)
def test_cleaning_keeps_a_subset_of_the_answer(
    question: str, answer: str, truncated: bool | None
) -> None:
    cleaned = clean_response(question, answer, truncated=truncated)
    kept = split_sentences(cleaned.text)
    original = split_sentences(answer)
    assert len(kept) <= len(original) or cleaned.removed_question
    assert all(s in answer for s in kept) or cleaned.removed_question
    assert cleaned.removed_repeats >= 0
