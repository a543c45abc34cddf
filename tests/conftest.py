"""Shared fixtures: isolated inspect cache/log dirs and the real data folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests_data import shared_data_or_skip


@pytest.fixture(autouse=True, scope="session")
def _isolated_inspect(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    # Tests must neither read nor fill the user's inspect cache.
    cache = tmp_path_factory.mktemp("inspect-cache")
    old = os.environ.get("INSPECT_CACHE_DIR")
    os.environ["INSPECT_CACHE_DIR"] = str(cache)
    yield
    if old is None:
        os.environ.pop("INSPECT_CACHE_DIR", None)
    else:
        os.environ["INSPECT_CACHE_DIR"] = old


@pytest.fixture
def shared_data() -> Path:
    """The real data folder; skips the test when it is absent (e.g. a user's fresh clone)."""
    return shared_data_or_skip()


@pytest.fixture
def sample_path() -> str:
    """The packaged illustrative MedHallu sample (12 rows we wrote)."""
    from medhalbench.examples import illustrative

    return illustrative("medhallu_illustrative.jsonl")
