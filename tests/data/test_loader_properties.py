"""Property-based tests: on arbitrary input, loaders raise our clear errors (naming the file)
or return valid records."""

from __future__ import annotations

import json
import string
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from medhalbench import DataError
from medhalbench.dahl import load_dahl_questions
from medhalbench.data import load_pubmedqa
from medhalbench.medhallu import MedHalluRecord, load_medhallu

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
