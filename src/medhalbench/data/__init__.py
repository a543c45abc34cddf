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
    Row,
    check_input_file,
    is_saved_dataset,
    line_and_column,
    located,
    max_field_chars,
    read_rows,
    read_settings_file,
    read_text_file,
)
from medhalbench.data._pubmedqa import PUBMEDQA_REVISION, load_pubmedqa
from medhalbench.data._records import (
    BLANK_AS_NONE,
    LOWERED,
    TEXT_LIST,
    TEXT_OR_NONE,
    Identifier,
    PubMedQARecord,
    Record,
)
from medhalbench.data._resumable import ResumableJsonl, ResumedCounts, run_resumable
from medhalbench.data._sources import source_rows
from medhalbench.data._validate import DistinctKeys, validate_row

__all__ = [
    "atomic_path",
    "atomic_paths",
    "atomic_text",
    "write_text_atomically",
    "Identifier",
    "BLANK_AS_NONE",
    "LOWERED",
    "TEXT_LIST",
    "TEXT_OR_NONE",
    "MAX_PROMPT_BYTES",
    "PUBMEDQA_REVISION",
    "DistinctKeys",
    "PubMedQARecord",
    "Record",
    "ResumableJsonl",
    "ResumedCounts",
    "Row",
    "check_input_file",
    "hub_reachable",
    "is_saved_dataset",
    "line_and_column",
    "load_pubmedqa",
    "looks_like_hub_name",
    "max_field_chars",
    "read_hub_rows",
    "read_rows",
    "located",
    "read_settings_file",
    "read_text_file",
    "run_resumable",
    "source_rows",
    "validate_row",
]
