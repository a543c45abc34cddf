"""Reading published datasets: files and hub datasets as rows, typed records, resumable output.

Shared by every benchmark; each benchmark's own records and loaders live in its package.
"""

from medhalbench import _lazy
from medhalbench.data._atomic import (
    atomic_path,
    atomic_paths,
    atomic_text,
    write_csv,
    write_text_atomically,
)
from medhalbench.data._hub import (
    MAX_REDIRECTS,
    hub_reachable,
    looks_like_hub_name,
    read_hub_rows,
    read_url,
)
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
    AS_TEXT,
    AS_WRITTEN,
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
from medhalbench.data._validate import DistinctKeys, read_records, validate_row

__getattr__, __all__ = _lazy.exports(__name__, __file__)
