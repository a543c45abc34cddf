"""Loading PubMedQA (the `ori_pqal.json` layout or the hub's `qiaojin/PubMedQA`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from medhalbench.data._records import PubMedQARecord
from medhalbench.data._sources import source_rows
from medhalbench.data._validate import read_records

PUBMEDQA_HUB = "qiaojin/PubMedQA"
# The hub dataset is read at this commit unless the source names one (`qiaojin/PubMedQA@REV`).
PUBMEDQA_REVISION = "9001f2853fb87cab8d220904e0de81ac6973b318"


def _ori_layout(row: dict[str, Any]) -> dict[str, Any]:
    """A row in ori_pqal's layout: an entry of `ori_pqal.json` with its key as `pubid`, or
    a row in the hub's layout (`question`, `context{contexts,labels,meshes}`) mapped."""
    if "QUESTION" in row or "question" not in row:
        return {"pubid": row.pop("__key__"), **row} if "__key__" in row else row
    context = row.get("context") or {}
    return {
        "pubid": row.get("pubid"),
        "QUESTION": row.get("question"),
        "CONTEXTS": context.get("contexts"),
        "LABELS": context.get("labels") or [],
        "MESHES": context.get("meshes") or [],
        "final_decision": row.get("final_decision"),
        "LONG_ANSWER": row.get("long_answer"),
    }


def load_pubmedqa(
    source: str | Path = PUBMEDQA_HUB,
    *,
    config: str = "pqa_labeled",
    split: str = "train",
    limit: int | None = None,
) -> list[PubMedQARecord]:
    """Load PubMedQA entries.

    Args:
        source: `ori_pqal.json` (a JSON object keyed by PubMed id), a JSONL/Parquet file or
            saved dataset in the hub layout, or the hub id `qiaojin/PubMedQA` (read at
            `PUBMEDQA_REVISION`; `qiaojin/PubMedQA@REV` reads another revision).
        config: Hub config (`pqa_labeled`, `pqa_artificial`, `pqa_unlabeled`).
        split: Split to read.
        limit: Keep at most this many entries.

    Raises:
        DataError: Bad input, naming file, entry and field.
        ResourceUnavailableError: A hub id while the hub cannot be reached.
    """
    revision = PUBMEDQA_REVISION if str(source) == PUBMEDQA_HUB else None
    rows = source_rows(source, config=config, split=split, revision=revision)
    ori_rows = ((line, _ori_layout(row)) for line, row in rows)
    return [entry for _, entry in read_records(PubMedQARecord, source, rows=ori_rows, limit=limit)]
