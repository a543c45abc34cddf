"""Locating the real data folder from helpers and module-scoped fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED_DATA = Path(
    os.environ.get(
        "MEDHALBENCH_SHARED_DATA", Path(__file__).resolve().parents[1].parent / "shared" / "data"
    )
)


def shared_data_or_skip() -> Path:
    """The real data folder; skips the calling test when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real data folder {SHARED_DATA} is absent (set MEDHALBENCH_SHARED_DATA)")
    return SHARED_DATA
