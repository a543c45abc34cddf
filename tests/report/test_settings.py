"""Which settings applied to a run, read from its recorded settings and what each setting
declares: the report shows only those (a local file has no hub config or split)."""

from __future__ import annotations

from pathlib import Path

from helpers import record_of
from medhalbench.report import applied, collect, settings_of
from medhalbench.results import RunResult

HUB = "UTAustin-AIHealth/MedHallu"
SETTINGS = {"config": "pqa_labeled", "split": "train", "knowledge": False, "temperature": 0.3}


def _run(**settings: object) -> RunResult:
    return RunResult(
        system="medhallu", model="openai/gpt-4o", metrics={}, log="run.eval", status="success",
        record=record_of({"dataset_fingerprint": "abc", "rows": 4, **SETTINGS, **settings}),
    )  # fmt: skip


def test_a_hub_dataset_keeps_its_config_and_split_and_one_local_file_has_neither(
    tmp_path: Path,
) -> None:
    hub = applied("medhallu", _run(dataset=HUB).record)
    assert hub["config"] == "pqa_labeled" and hub["split"] == "train"
    rows = tmp_path / "pqa_labeled.jsonl"
    rows.write_text("{}\n")
    for local in (str(rows), "/gone/since/pqa_labeled.jsonl"):  # present, or moved since
        found = applied("medhallu", _run(dataset=local).record)
        assert "config" not in found and "split" not in found, local
        assert found["knowledge"] is False and found["temperature"] == 0.3
    saved = tmp_path / "saved"  # a folder saved with `datasets` has splits
    saved.mkdir()
    assert "split" in applied("medhallu", _run(dataset=str(saved)).record)


def test_a_qualifier_of_an_unset_setting_did_not_apply() -> None:
    closed = applied("medhallu", _run(dataset=HUB, evidence=None, evidence_k=5).record)
    assert "evidence_k" not in closed and "evidence_rerank" not in closed
    grounded = applied(
        "medhallu", _run(dataset=HUB, knowledge=True, evidence="/i", evidence_k=3).record
    )
    assert grounded["evidence_k"] == 3


def test_how_replies_were_made_did_not_apply_to_outputs_written_elsewhere() -> None:
    written = applied("medhallu", _run(dataset=HUB, responses="/o.jsonl", temperature=None).record)
    assert "temperature" not in written and "structured" not in written
    assert written["knowledge"] is False


def test_a_setting_of_a_role_no_model_played_did_not_apply() -> None:
    record = _run(dataset=HUB, extract_prompt="/p.txt").record
    assert "extract_prompt" not in applied("medhallu", record, roles={})
    assert applied("medhallu", record, roles={"extractor"})["extract_prompt"] == "/p.txt"
    assert "extract_prompt" in applied("medhallu", record)  # the roles unknown: kept


def test_the_samples_a_run_is_named_by_leave_out_what_did_not_apply(tmp_path: Path) -> None:
    local = settings_of(_run(dataset=str(tmp_path / "rows.jsonl")))
    assert "config" not in local.selection and "split" not in local.selection
    hub = settings_of(_run(dataset=HUB))
    assert hub.selection["config"] == "pqa_labeled" and hub.selection["split"] == "train"


def test_the_provenance_of_runs_on_local_files_names_no_hub_setting(report_logs: Path) -> None:
    results = collect([report_logs])
    for p in results.provenance:
        assert p.dataset and not p.dataset.startswith(("UTAustin", "qiaojin"))
        text = p.settings_text
        assert " config " not in f" {text} " and not text.startswith("config")
        assert "split " not in text, text
        assert "evidence k" not in text and "evidence rerank" not in text  # closed-book
        assert p.dataset_fingerprint and len(p.dataset_fingerprint) == 12  # the file's
