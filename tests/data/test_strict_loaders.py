"""Loaders account for every record: a file is checked before it is opened, CSV is read
as Python's csv module reads it (a quote never closed is named, with its line), JSON nesting
is limited, and settings files are parsed with limits; everything else is read right."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medhalbench import DataError
from medhalbench._prompts import check_placeholders, read_prompt
from medhalbench.dahl import load_dahl_questions
from medhalbench.data import check_input_file, read_rows, read_settings_file
from medhalbench.medhallu import load_medhallu

HEADER = "question,category\n"


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("body", "line"),
    [
        # A quote opened at the start of a field and never closed where it should be.
        ('"What is A?,cardiology\nWhat is B?,oncology\nWhat is C?,"cardiology"\n', 2),
        # A closing quote followed by more text.
        ('What is A?,"cardio"logy\nWhat is B?,oncology\n', 2),
        # A quote opened on a record's second line, never closed: that line is named.
        ('"What is A,\nreally?","cardiology\nWhat is B?,oncology\n', 3),
        # A quote opened on the last row, never closed.
        ('What is A?,cardiology\nWhat is B?,"oncology\n', 3),
        # Too many and too few cells.
        ("What is A?,cardiology,extra\n", 2),
        ("What is A?,cardiology\nWhat is B?\n", 3),
    ],
)
def test_a_malformed_csv_names_its_file_and_line(tmp_path: Path, body: str, line: int) -> None:
    path = write(tmp_path, "q.csv", HEADER + body)
    with pytest.raises(DataError) as info:
        load_dahl_questions(str(path))
    assert info.value.path == str(path) and info.value.line == line, str(info.value)
    assert len(str(info.value)) < 300


def test_a_field_over_several_lines_is_read_when_it_swallows_no_row(tmp_path: Path) -> None:
    text = 'question,category\n"What is A,\nin two lines?",cardiology\nWhat is B?,oncology\n'
    rows = list(read_rows(write(tmp_path, "q.csv", text)))
    assert rows == [
        (2, {"question": "What is A,\nin two lines?", "category": "cardiology"}),
        (4, {"question": "What is B?", "category": "oncology"}),
    ]


def test_a_field_over_lines_with_doubled_quotes_is_read_as_spreadsheets_write_it(
    tmp_path: Path,
) -> None:
    text = 'question,category\n"He said ""why?""\nWhat is A?",cardiology\nWhat is B?,oncology\n'
    rows = list(read_rows(write(tmp_path, "q.csv", text)))
    assert rows[0] == (2, {"question": 'He said "why?"\nWhat is A?', "category": "cardiology"})
    assert rows[1][1]["question"] == "What is B?"


def test_a_header_naming_a_column_twice_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "q.csv", "question,question\na,b\n")
    with pytest.raises(DataError, match="names the column 'question' twice"):
        list(read_rows(path))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(
                st.characters(exclude_categories=["Cs"], exclude_characters="\r\n\x00"), min_size=1
            ),
            st.text(
                st.characters(exclude_categories=["Cs"], exclude_characters="\r\n\x00"), min_size=1
            ),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_every_row_a_csv_writer_writes_is_read_back(rows: list[tuple[str, str]]) -> None:
    import tempfile

    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["a", "b"])
    writer.writerows(rows)
    with tempfile.TemporaryDirectory() as folder:
        path = write(Path(folder), "rows.csv", buffer.getvalue())
        read = [(r["a"], r["b"]) for _, r in read_rows(path)]
    assert read == [(a, b) for a, b in rows]


def test_json_nested_too_deep_is_refused_naming_the_line(tmp_path: Path) -> None:
    good = json.dumps({"Question": "q"})
    deep = '{"a": ' + "[" * 200_000 + "]" * 200_000 + "}"
    path = write(tmp_path, "m.jsonl", f"{good}\n{deep}\n")
    with pytest.raises(DataError) as info:
        list(read_rows(path))
    assert info.value.line == 2 and "nested more than" in str(info.value)
    # Deep enough to pass the parser, still refused.
    path = write(tmp_path, "m.json", '[{"a": ' + "[" * 80 + "]" * 80 + "}]")
    with pytest.raises(DataError, match="nested more than"):
        list(read_rows(path))


def test_a_fifo_is_refused_before_it_is_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "data.jsonl"
    os.mkfifo(fifo)
    # Had it been opened for reading, the test would block here until a writer came.
    with pytest.raises(DataError, match="named pipe"):
        list(read_rows(fifo))


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda p: p.mkdir(), "a folder"),
        (lambda p: p.write_bytes(b'{"a": 1}\x00\x01\x02'), "binary file"),
        (lambda p: p.write_bytes(b'{"a": "caf\xe9"}\n'), "not UTF-8"),
        (lambda p: p.write_bytes(b""), "empty"),
    ],
)
def test_what_is_no_text_file_is_refused(tmp_path: Path, make: object, expected: str) -> None:
    path = tmp_path / "x.jsonl"
    make(path)  # type: ignore[operator]
    with pytest.raises(DataError, match=expected) as info:
        check_input_file(path)
    assert info.value.path == str(path)


def test_a_device_is_refused() -> None:
    with pytest.raises(DataError, match="character device"):
        check_input_file("/dev/null")


def test_a_file_above_the_size_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEDHALBENCH_MAX_INPUT_BYTES", "10")
    path = write(tmp_path, "m.jsonl", json.dumps({"Question": "long enough"}) + "\n")
    with pytest.raises(DataError, match="more than the limit of 10"):
        list(read_rows(path))


def test_a_yaml_alias_bomb_is_refused_at_once(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    path = write(tmp_path, "suite.yaml", "\n".join(lines) + "\n")
    # Refused as it expands (10^10 strings, were it expanded whole).
    with pytest.raises(DataError, match="expands to more than"):
        read_settings_file(path)


def test_a_malformed_settings_file_names_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "s.yaml", "models:\n  - name: a\n  bad: [\n")
    with pytest.raises(DataError, match="malformed YAML") as info:
        read_settings_file(path)
    assert isinstance(info.value.line, int) and "\n" not in str(info.value)
    deep = write(tmp_path, "d.yaml", "a: " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(DataError, match="nested more than"):
        read_settings_file(deep)


def test_a_prompt_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "p.txt", b"\xff\xfeAnswer {question}\n")
    with pytest.raises(DataError, match="not UTF-8") as info:
        read_prompt(None, "x.txt", path)
    assert info.value.path == str(path)


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("{text:>999999999999}", "has a format"),
        ("{text!r}", "has a format"),
        ("{text}" * 17, "placeholders 17 times"),
    ],
)
def test_a_template_that_would_expand_without_bound_is_refused(
    template: str, expected: str
) -> None:
    with pytest.raises(DataError, match=expected):
        check_placeholders(template, {"text"}, source="t.txt")


# --- a key given twice: which value is meant cannot be known -------------------------------


@pytest.mark.parametrize(
    ("name", "body", "where"),
    [
        ("rows.jsonl", '{"question": "a?", "category": "x"}\n{"question": "b?", "question": "c?"}\n', "line 2"),
        ("rows.json", '[{"question": "a?", "category": "x", "category": "y"}]', "category"),
        ("rows.json", '{"rows": [{"q": {"deep": 1, "deep": 2}}]}', "deep"),
    ],
)  # fmt: skip
def test_a_json_key_given_twice_is_refused(
    tmp_path: Path, name: str, body: str, where: str
) -> None:
    with pytest.raises(DataError, match="given twice") as raised:
        list(read_rows(write(tmp_path, name, body)))
    assert where in str(raised.value) and name in str(raised.value)


@pytest.mark.parametrize(
    "body",
    ["models: [a]\nmodels: [b]\n", "runs:\n  - {benchmark: x, args: {limit: 1, limit: 2}}\n",
     "a: 1\nb: {c: 2, c: 3}\n"],
)  # fmt: skip
def test_a_yaml_key_given_twice_is_refused_with_its_line(tmp_path: Path, body: str) -> None:
    with pytest.raises(DataError, match="given twice in one mapping") as raised:
        read_settings_file(write(tmp_path, "suite.yaml", body))
    assert "line" in str(raised.value)


@pytest.mark.parametrize("blank", ["", " ", "\t"])
def test_an_empty_id_is_refused_naming_its_field(tmp_path: Path, blank: str) -> None:
    row = {"Question": "Does x help?", "Knowledge": ["ctx"], "Ground Truth": "Yes.",
           "Hallucinated Answer": "No.", "Difficulty Level": "easy",
           "Category of Hallucination": "x", "pubid": blank}  # fmt: skip
    with pytest.raises(DataError, match="field 'pubid': an empty id"):
        load_medhallu(write(tmp_path, "rows.jsonl", json.dumps(row) + "\n"))


MEDHALLU_ROW = {
    "pubid": "p1", "Question": "Does X help?", "Knowledge": ["X helped."],
    "Ground Truth": "Yes.", "Difficulty Level": "hard", "Hallucinated Answer": "No.",
    "Category of Hallucination": "Incomplete Information",
}  # fmt: skip


def _misspelt(name: str) -> str:
    """A field's name with two of its letters swapped (`Qeustion`)."""
    return name[0] + name[2] + name[1] + name[3:]


@pytest.mark.parametrize("field", [f for f in MEDHALLU_ROW if len(f) > 4])
def test_a_misspelt_field_is_named_for_what_it_is(tmp_path: Path, field: str) -> None:
    row = dict(MEDHALLU_ROW)
    row[_misspelt(field)] = row.pop(field)
    path = write(tmp_path, "rows.jsonl", json.dumps(MEDHALLU_ROW) + "\n" + json.dumps(row) + "\n")
    with pytest.raises(DataError, match=rf"line 2: unknown field .*did you mean '{field}'"):
        load_medhallu(path)
    # Beside the right one too: a typo is no column of its own.
    row[field] = MEDHALLU_ROW[field]
    path.write_text(json.dumps(row) + "\n")
    with pytest.raises(DataError, match=rf"line 1: unknown field .*did you mean '{field}'"):
        load_medhallu(path)
    # A column that is no misspelling is kept (a note beside the fields).
    path.write_text(json.dumps({**MEDHALLU_ROW, "note": "x"}) + "\n")
    assert len(load_medhallu(path)) == 1


@pytest.mark.parametrize("layout", ["array", "object"])
@pytest.mark.parametrize(
    ("change", "named"),
    [
        (None, "given twice"),  # a key given twice: JSON text json.dumps cannot write
        (lambda r: {k: v for k, v in r.items() if k != "Ground Truth"}, "field 'Ground Truth'"),
        (lambda r: {**r, "pubid": ""}, "field 'pubid'"),
        (lambda r: {_misspelt(k) if k == "Question" else k: v for k, v in r.items()}, "Qeustion"),
    ],
)
def test_an_item_of_a_json_file_is_named_by_its_line(
    tmp_path: Path, layout: str, change: object, named: str
) -> None:
    """A refusal names the line where the item starts, in an array or an object of items
    (written as people and json.dump(indent=2) write them), as for JSONL and CSV."""
    rows = [MEDHALLU_ROW, change(MEDHALLU_ROW) if change else MEDHALLU_ROW]  # type: ignore[operator]
    items = [json.dumps(r, indent=2) for r in rows]
    if change is None:
        items[1] = items[1].replace('"Question"', '"Question": "x",\n  "Question"', 1)
    if layout == "array":
        text = "[\n" + ",\n".join(items) + "\n]\n"
    else:
        text = "{\n" + ",\n".join(f'"p{i}": {item}' for i, item in enumerate(items)) + "\n}\n"
    line = 2 + items[0].count("\n") + 1  # the second item's first line
    with pytest.raises(DataError, match=named) as raised:
        load_medhallu(write(tmp_path, "rows.json", text))
    assert f"line {line}" in str(raised.value) and "rows.json" in str(raised.value)
