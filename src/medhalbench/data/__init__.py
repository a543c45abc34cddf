"""Reading published datasets: files and hub datasets as rows, typed records, resumable output.

Shared by every benchmark; each benchmark's own records and loaders live in its package.
"""

from medhalbench.data._atomic import (
    atomic_path,
    atomic_paths,
    atomic_text,
    write_text_atomically,
)
from medhalbench.data._hub import hub_reachable, looks_like_hub_name, read_hub_rows
from medhalbench.data._io import (
    MAX_PROMPT_BYTES,
    MAX_TEXT_FILE_BYTES,
    Row,
    check_input_file,
    is_saved_dataset,
    line_and_column,
    max_field_chars,
    max_input_bytes,
    read_rows,
    read_settings_file,
    read_text_file,
)
from medhalbench.data._pubmedqa import PUBMEDQA_HUB, PUBMEDQA_REVISION, load_pubmedqa
from medhalbench.data._records import (
    AS_TEXT,
    BLANK_AS_NONE,
    LOWERED,
    TEXT_LIST,
    TEXT_OR_NONE,
    FinalDecision,
    Identifier,
    PubMedQARecord,
    Record,
    text_list,
)
from medhalbench.data._resumable import ResumableJsonl, ResumableRun, ResumedCounts, run_resumable
from medhalbench.data._sources import source_rows
from medhalbench.data._validate import DistinctKeys, excerpt, validate_row

__all__ = [
    "atomic_path",
    "atomic_paths",
    "atomic_text",
    "write_text_atomically",
    "AS_TEXT",
    "Identifier",
    "BLANK_AS_NONE",
    "LOWERED",
    "TEXT_LIST",
    "TEXT_OR_NONE",
    "MAX_PROMPT_BYTES",
    "MAX_TEXT_FILE_BYTES",
    "PUBMEDQA_HUB",
    "PUBMEDQA_REVISION",
    "DistinctKeys",
    "FinalDecision",
    "PubMedQARecord",
    "Record",
    "ResumableJsonl",
    "ResumableRun",
    "ResumedCounts",
    "Row",
    "check_input_file",
    "hub_reachable",
    "is_saved_dataset",
    "line_and_column",
    "load_pubmedqa",
    "looks_like_hub_name",
    "max_field_chars",
    "max_input_bytes",
    "read_hub_rows",
    "read_rows",
    "read_settings_file",
    "read_text_file",
    "run_resumable",
    "source_rows",
    "text_list",
    "excerpt",
    "validate_row",
]
