"""Reading published datasets: files and hub datasets as rows, typed records, resumable output.

Shared by every benchmark; each benchmark's own records and loaders live in its package.
"""

from medhalbench.data._hub import hub_reachable, looks_like_hub_name, read_hub_rows
from medhalbench.data._io import Row, is_saved_dataset, max_field_chars, read_rows
from medhalbench.data._pubmedqa import PUBMEDQA_HUB, PUBMEDQA_REVISION, load_pubmedqa
from medhalbench.data._records import FinalDecision, PubMedQARecord, Record, text_list
from medhalbench.data._resumable import ResumableJsonl, ResumableRun, run_resumable
from medhalbench.data._sources import source_rows
from medhalbench.data._validate import validate_row

__all__ = [
    "PUBMEDQA_HUB",
    "PUBMEDQA_REVISION",
    "FinalDecision",
    "PubMedQARecord",
    "Record",
    "ResumableJsonl",
    "ResumableRun",
    "Row",
    "hub_reachable",
    "is_saved_dataset",
    "load_pubmedqa",
    "looks_like_hub_name",
    "max_field_chars",
    "read_hub_rows",
    "read_rows",
    "run_resumable",
    "source_rows",
    "text_list",
    "validate_row",
]
