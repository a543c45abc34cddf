"""Each benchmark's table in the report: rows of runs that differ say how (what sets each run
apart, in the summary's words), identical reruns are numbered, and no two rows read alike."""

from __future__ import annotations

from helpers import record_of
from medhalbench.medhal._report import medhal_settings, medhal_table
from medhalbench.medhallu._report import detection_table
from medhalbench.results import ResultTable, RunResult, run_title


def _run(
    system: str, value: float, data: str = "pqa_labeled.jsonl", **arguments: object
) -> RunResult:
    given = {"dataset": f"/data/{data}", **arguments}
    samples = {"dataset_fingerprint": data[:6], "seed": 42, "rows": 12}
    if system == "medhallu":
        samples["pairing"] = "both"
    return RunResult(
        system=system, model="embedded/smollm2",
        metrics={"f1": value, "f1_ci_low": value - 0.1, "f1_ci_high": value + 0.1,
                 "paper_f1": value, "samples": 24.0, "unparseable": 0.0},
        record=record_of({**samples, **given}), log=f"{system}-{value}-{data}.eval",
        status="success",
    )  # fmt: skip


def _distinct(table: ResultTable) -> list[tuple[str, ...]]:
    narrow = table.ours().narrow()
    rows = [tuple(narrow.formatted(row)) for row in narrow.rows]
    assert len(set(rows)) == len(rows), rows
    return rows


def test_medhallu_rows_that_differ_in_settings_without_a_column_say_how() -> None:
    plain = {"knowledge": False, "not_sure": False, "temperature": 0.3, "structured": False}
    runs = [
        _run("medhallu", 0.50, **plain),
        _run("medhallu", 0.51, **plain),  # a rerun
        _run("medhallu", 0.40, **{**plain, "temperature": 0.7}),
        _run("medhallu", 0.60, "medhallu_illustrative.jsonl", **plain),
        _run("medhallu", 0.70, **{**plain, "knowledge": True}),
    ]
    table = detection_table(runs)
    narrow = table.narrow()
    headers = [c.name for c in narrow.columns]
    assert headers[:4] == ["Model", "Settings", "Knowledge", "Not sure"]
    settings = [str(row[1]) for row in narrow.rows]
    assert settings[0].endswith("(run 1)") and settings[1].endswith("(run 2)")
    assert "temperature 0.7" in settings[2]
    assert "data /data/medhallu_illustrative.jsonl" in settings[3]  # a path as paths are shown
    # Knowledge has a column of its own: not repeated under Settings.
    assert not any("knowledge" in s for s in settings)
    _distinct(table)
    assert any(note.startswith("Settings:") for note in table.notes)


def test_a_table_of_runs_alike_keeps_its_empty_settings_to_the_wide_view() -> None:
    table = detection_table([_run("medhallu", 0.5, knowledge=False, temperature=0.3)])
    assert "Settings" not in [c.name for c in table.narrow().columns]
    assert "Settings" in [c.name for c in table.columns]  # CSV and the full view keep it
    assert not any(note.startswith("Settings:") for note in table.notes)


def test_medhal_rows_of_two_splits_say_which() -> None:
    # A folder saved with `datasets` has splits (one local file has none).
    runs = [
        _run("medhal", 0.5, "medhal_saved", split="test", structured=False),
        _run("medhal", 0.6, "medhal_saved", split="validation", structured=False),
    ]
    rows = _distinct(medhal_table(runs))
    assert [row[1] for row in rows] == ["split test", "split validation"]
    dataset = [c.name for c in medhal_table(runs).columns].index("Dataset")
    assert [row[dataset] for row in medhal_table(runs).ours().rows] == [
        "/data/medhal_saved (test)", "/data/medhal_saved (validation)",
    ]  # fmt: skip


def test_a_run_on_one_local_file_names_no_split_it_could_not_have() -> None:
    [run] = [_run("medhal", 0.5, "medhal.jsonl", split="test", structured=False)]
    table = medhal_table([run])
    dataset = [c.name for c in table.columns].index("Dataset")
    assert table.ours().rows[0][dataset] == "/data/medhal.jsonl"
    assert "split" not in run_title("MedHal", run, medhal_settings(run.record))
