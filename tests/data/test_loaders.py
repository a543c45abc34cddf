import csv
import json
from pathlib import Path

import pytest

from medhalbench import DataError, ResourceUnavailableError
from medhalbench.data import load_pubmedqa
from medhalbench.medhallu import load_medhallu

ROW = {
    "pubid": "1",
    "Question": "Does X help?",
    "Knowledge": ["Context one.", "Context two."],
    "Ground Truth": "Yes, X helps.",
    "Difficulty Level": "hard",
    "Hallucinated Answer": "No, X harms.",
    "Category of Hallucination": "Incomplete Information",
}


def write_jsonl(path: Path, rows: list[dict], raw_lines: list[str] | None = None) -> Path:
    lines = [json.dumps(r) for r in rows] + (raw_lines or [])
    path.write_text("\n".join(lines) + "\n")
    return path


def test_jsonl_loads_with_published_names(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "m.jsonl", [ROW, {**ROW, "pubid": 2, "Difficulty Level": "Easy"}])
    records = load_medhallu(path)
    assert [r.pubid for r in records] == ["1", "2"]
    assert records[1].difficulty == "easy"
    assert records[0].knowledge_text == "Context one.\nContext two."
    assert records[0].to_published()["Ground Truth"] == "Yes, X helps."


def test_csv_and_parquet_load_the_same_records(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    csv_path = tmp_path / "m.csv"
    with csv_path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(ROW))
        writer.writeheader()
        writer.writerow({**ROW, "Knowledge": str(ROW["Knowledge"])})
    pq.write_table(pa.Table.from_pylist([ROW]), tmp_path / "m.parquet")
    from_csv = load_medhallu(csv_path)[0]
    from_parquet = load_medhallu(tmp_path / "m.parquet")[0]
    assert from_csv.knowledge == ROW["Knowledge"] == from_parquet.knowledge
    assert from_csv.model_dump() == from_parquet.model_dump()


def test_save_to_disk_folder(tmp_path: Path) -> None:
    import datasets

    datasets.DatasetDict(
        {"train": datasets.Dataset.from_list([ROW, {**ROW, "pubid": "2"}])}
    ).save_to_disk(str(tmp_path / "ds"))
    assert len(load_medhallu(tmp_path / "ds")) == 2
    with pytest.raises(DataError, match="split 'test' not found"):
        load_medhallu(tmp_path / "ds", split="test")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no such file") as info:
        load_medhallu(tmp_path / "absent.jsonl")
    assert info.value.path == str(tmp_path / "absent.jsonl")


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    with pytest.raises(DataError, match="empty"):
        load_medhallu(path)


def test_malformed_line_is_named(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "bad.jsonl",
        [ROW, {**ROW, "pubid": "2"}],
        raw_lines=['{"Question": "unterminated'],
    )
    with pytest.raises(DataError) as info:
        load_medhallu(path)
    assert info.value.line == 3
    assert "malformed JSON" in str(info.value) and "bad.jsonl" in str(info.value)


def test_missing_field_names_line_and_field(tmp_path: Path) -> None:
    row = {k: v for k, v in ROW.items() if k != "Ground Truth"}
    path = write_jsonl(tmp_path / "m.jsonl", [ROW, {**row, "pubid": "2"}])
    with pytest.raises(DataError) as info:
        load_medhallu(path)
    assert (info.value.line, info.value.field, info.value.reason) == (2, "Ground Truth", "missing")


def test_empty_field(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "m.jsonl", [{**ROW, "Hallucinated Answer": "   "}])
    with pytest.raises(DataError) as info:
        load_medhallu(path)
    assert (info.value.line, info.value.field, info.value.reason) == (
        1,
        "Hallucinated Answer",
        "empty",
    )


def test_wrong_difficulty_value(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "m.jsonl", [{**ROW, "Difficulty Level": "impossible"}])
    with pytest.raises(DataError) as info:
        load_medhallu(path)
    assert info.value.field == "Difficulty Level"
    assert "'impossible'" in str(info.value) and "easy" in str(info.value)


def test_csv_row_line_numbers_count_the_header(tmp_path: Path) -> None:
    path = tmp_path / "m.csv"
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(ROW))
        writer.writeheader()
        writer.writerow(ROW)
        writer.writerow({**ROW, "pubid": "2", "Question": ""})
    with pytest.raises(DataError) as info:
        load_medhallu(path)
    assert (info.value.line, info.value.field) == (3, "Question")


@pytest.mark.parametrize("separator", [";", "\t"])
def test_a_csv_separated_otherwise_than_by_commas_says_so(tmp_path: Path, separator: str) -> None:
    path = tmp_path / "m.csv"
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(ROW), delimiter=separator)
        writer.writeheader()
        writer.writerow(ROW)
    with pytest.raises(DataError) as info:
        load_medhallu(path)
    assert info.value.line == 1
    assert f"separated by {separator!r}, not commas" in str(info.value)


def test_unknown_suffix(tmp_path: Path) -> None:
    path = tmp_path / "m.xlsx"
    path.write_text("x")
    with pytest.raises(DataError, match="unknown file type"):
        load_medhallu(path)


@pytest.mark.usefixtures("offline_hub")
def test_hub_name_fails_fast_offline() -> None:
    with pytest.raises(ResourceUnavailableError, match="pass a local path"):
        load_medhallu("UTAustin-AIHealth/MedHallu")


def test_pubmedqa_ori_layout(tmp_path: Path) -> None:
    entry = {
        "QUESTION": "Q?",
        "CONTEXTS": ["c1", "c2"],
        "LABELS": ["A", "B"],
        "MESHES": [],
        "YEAR": "2001",
        "final_decision": "yes",
        "LONG_ANSWER": "Long answer.",
    }
    path = tmp_path / "ori_pqal.json"
    path.write_text(json.dumps({"123": entry, "456": {**entry, "final_decision": "perhaps"}}))
    with pytest.raises(DataError) as info:
        load_pubmedqa(path)
    assert info.value.line == "line 1 (entry '456')" and info.value.field == "final_decision"
    path.write_text(json.dumps({"123": entry}))
    record = load_pubmedqa(path)[0]
    assert (record.pubid, record.context_text) == ("123", "c1\nc2")


def test_pubmedqa_hub_layout_in_jsonl(tmp_path: Path) -> None:
    row = {
        "pubid": 9,
        "question": "Q?",
        "context": {"contexts": ["c"], "labels": ["L"], "meshes": ["M"]},
        "long_answer": "A.",
        "final_decision": "no",
    }
    record = load_pubmedqa(write_jsonl(tmp_path / "p.jsonl", [row]))[0]
    assert (record.pubid, record.question, record.contexts, record.final_decision) == (
        "9",
        "Q?",
        ["c"],
        "no",
    )


def test_real_data_loads(shared_data: Path) -> None:
    medhallu = load_medhallu(shared_data / "medhallu" / "pqa_labeled_dev.jsonl")
    pubmedqa = load_pubmedqa(shared_data / "pubmedqa" / "ori_pqal_dev.json")
    assert len(medhallu) == 400 and len(pubmedqa) == 400
    assert {r.difficulty for r in medhallu} == {"easy", "medium", "hard"}
    assert {r.pubid for r in medhallu} == {r.pubid for r in pubmedqa}


def test_an_empty_split_names_every_split_and_the_option(tmp_path: Path) -> None:
    import datasets

    from medhalbench.medhal import load_medhal

    text = datasets.Value("string")
    features = datasets.Features(
        {"id": text, "statement": text, "label": datasets.Value("bool"), "source": text}
    )
    empty = datasets.Dataset.from_dict(
        {"id": [], "statement": [], "label": [], "source": []}, features=features
    )
    full = datasets.Dataset.from_dict(
        {"id": ["a"], "statement": ["Aspirin is an NSAID."], "label": [True], "source": ["qa"]},
        features=features,
    )
    datasets.DatasetDict({"train": full, "test": empty}).save_to_disk(
        str(tmp_path / "dataset"), num_shards={"train": 1, "test": 1}
    )
    with pytest.raises(
        DataError,
        match=r"split 'test' holds no records \(samples per split: train 1, test 0\); pick another with --split \(e\.g\. --split train\)",
    ):
        load_medhal(tmp_path, split="test")


@pytest.mark.parametrize(
    ("source", "revision"),
    [
        ("UTAustin-AIHealth/MedHallu", "515060458a945c633debc6fd5baac7764416b724"),
        ("UTAustin-AIHealth/MedHallu@main", "main"),
    ],
)
def test_hub_datasets_are_read_at_a_pinned_revision(
    source: str, revision: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datasets

    from medhalbench.data import _hub

    asked: list[tuple[str, str | None]] = []

    def load_dataset(name: str, config: str | None, *, split: str, revision: str | None) -> list:
        asked.append((name, revision))
        return []

    monkeypatch.setattr(_hub, "hub_reachable", lambda: True)
    monkeypatch.setattr(datasets, "load_dataset", load_dataset)
    assert load_medhallu(source) == []
    assert asked == [("UTAustin-AIHealth/MedHallu", revision)]


def test_dahl_questions_come_from_a_pinned_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    import urllib.request

    from medhalbench.dahl import DAHL_QUESTIONS_COMMIT, load_dahl_questions

    def offline(url: str, timeout: float) -> None:
        raise OSError("offline")

    # The error names the URL that would have been read.
    monkeypatch.setattr(urllib.request, "urlopen", offline)
    for source, commit in [("github", DAHL_QUESTIONS_COMMIT), ("github@abc123", "abc123")]:
        with pytest.raises(ResourceUnavailableError, match=f"seemdog/DAHL/{commit}/questions.csv"):
            load_dahl_questions(source)
