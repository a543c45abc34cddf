"""Loading MedHallu rows (hub configs or local JSONL, CSV, Parquet, save_to_disk)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, get_args

from medhalbench._errors import DataError
from medhalbench.data import source_rows, validate_row
from medhalbench.medhallu._records import MedHalluRecord

MEDHALLU_HUB = "UTAustin-AIHealth/MedHallu"
# The hub dataset is read at this commit unless the source names one (`...MedHallu@REV`).
MEDHALLU_REVISION = "515060458a945c633debc6fd5baac7764416b724"
MedHalluConfig = Literal["pqa_labeled", "pqa_artificial"]
MEDHALLU_CONFIGS: tuple[MedHalluConfig, ...] = get_args(MedHalluConfig)


def load_medhallu(
    source: str | Path = MEDHALLU_HUB,
    *,
    config: str = "pqa_labeled",
    split: str = "train",
    limit: int | None = None,
) -> list[MedHalluRecord]:
    """Load MedHallu rows.

    Args:
        source: Hub id (default `UTAustin-AIHealth/MedHallu`, read at `MEDHALLU_REVISION`;
            `UTAustin-AIHealth/MedHallu@REV` reads another revision) or a local JSONL, CSV, Parquet
            file or `save_to_disk` folder with MedHallu's published field names.
        config: Hub config, `pqa_labeled` or `pqa_artificial` (hub sources only).
        split: Split to read (hub sources and saved DatasetDicts).
        limit: Keep at most this many rows (in file order).

    Raises:
        DataError: Bad input, naming file, line and field.
        ResourceUnavailableError: A hub id while the hub cannot be reached.
    """
    if str(source) == MEDHALLU_HUB and config not in MEDHALLU_CONFIGS:
        raise DataError(
            f"unknown MedHallu config '{config}' (expected {', '.join(MEDHALLU_CONFIGS)})"
        )
    records: list[MedHalluRecord] = []
    first_line: dict[str, int | str] = {}
    for line, row in source_rows(
        source,
        config=config,
        split=split,
        revision=MEDHALLU_REVISION if str(source) == MEDHALLU_HUB else None,
    ):
        record = validate_row(MedHalluRecord, row, path=source, line=line)
        if record.pubid is not None:
            if record.pubid in first_line:  # its two answers would share their sample ids
                where = first_line[record.pubid]
                raise DataError(
                    f"the same pubid '{record.pubid}' as "
                    f"{f'line {where}' if isinstance(where, int) else where}",
                    path=source, line=line, field="pubid",
                )  # fmt: skip
            first_line[record.pubid] = line
        records.append(record)
        if limit is not None and len(records) >= limit:
            break
    return records
