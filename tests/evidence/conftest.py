"""The evidence tests share the small corpora of `corpora.py` in this folder, and a tiny
sentence-transformers model of random weights (another model than the index's own)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def other_embedder(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A sentence-transformers model folder other than all-MiniLM-L6-v2 (`corpora.py`)."""
    from corpora import write_other_embedder

    return write_other_embedder(tmp_path_factory.mktemp("other-embedder"))
