"""Loading datasets from the Hugging Face hub, failing fast when it cannot be reached."""

from __future__ import annotations

import os
import re
import socket
import time
import urllib.request
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from medhalbench._errors import ResourceUnavailableError
from medhalbench.data._io import Row

_HUB_NAME = re.compile(r"^[A-Za-z0-9][\w.\-]*/[\w.\-]+$")
HUB_HOST = "huggingface.co"


def looks_like_hub_name(source: str) -> bool:
    """Whether `source` is an `owner/name` hub id (optionally `@revision`), not a local path."""
    source = source.partition("@")[0] if not Path(source).exists() else source
    return (
        bool(_HUB_NAME.match(source))
        and not Path(source).exists()
        and Path(source).suffix.lower() not in (".json", ".jsonl", ".csv", ".parquet", ".txt")
    )


MAX_REDIRECTS = 3
"""Redirects one request follows, ours and the model SDKs' (httpx's 20 let a server that
redirects to itself take 21 requests an attempt)."""


class _FewRedirects(urllib.request.HTTPRedirectHandler):
    max_repeats = 1
    max_redirections = MAX_REDIRECTS


_OPENER = urllib.request.build_opener(_FewRedirects)


def read_url(url: str, *, seconds: float, max_bytes: int) -> bytes:
    """The body at `url`, read within `seconds` in all and to at most `max_bytes`, following
    at most `MAX_REDIRECTS`: a server that trickles, streams without end, sends too much or
    redirects again and again is cut off, as a model call is.

    Raises:
        OSError: No answer, an error status, or a body past either bound.
    """
    deadline = time.monotonic() + seconds
    read = bytearray()
    with _OPENER.open(url, timeout=seconds) as response:
        while chunk := response.read1(64 * 1024):
            read += chunk
            if len(read) > max_bytes:
                raise OSError(f"{url}: a body of more than {max_bytes:,} bytes")
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url}: not read within {seconds:g} s")
    return bytes(read)


@cache
def hub_reachable(timeout: float = 3.0) -> bool:
    """Whether the hub can be reached (False at once when `HF_HUB_OFFLINE` is set)."""
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes"):
        return False
    try:
        with socket.create_connection((HUB_HOST, 443), timeout=timeout):
            return True
    except OSError:
        return False


def read_hub_rows(
    name: str, *, config: str | None, split: str, revision: str | None = None
) -> Iterator[Row]:
    """Yield the rows of a hub dataset split.

    Args:
        name: `owner/name`, or `owner/name@revision` (a commit, tag or branch), which wins over
            `revision`.
        config: Dataset config, if it has several.
        split: Split to read.
        revision: Revision to read (None: the hub's current one).

    Raises:
        ResourceUnavailableError: The hub cannot be reached and the dataset is not in the
            local cache, or the dataset does not exist.
    """
    import datasets

    name, _, pinned = name.partition("@")
    revision = pinned or revision
    where = (
        name + (f"@{revision}" if revision else "") + (f" (config '{config}')" if config else "")
    )
    offline = not hub_reachable()
    if offline:
        # Let `datasets` serve a cached copy, and fail at once if there is none.
        os.environ["HF_HUB_OFFLINE"] = "1"
        datasets.config.HF_HUB_OFFLINE = True
    try:
        dataset = datasets.load_dataset(name, config, split=split, revision=revision)
    except Exception as ex:
        hint = (
            "The Hugging Face hub cannot be reached from this machine. "
            if offline
            else f"Could not load it from the hub ({type(ex).__name__}: {ex}). "
        )
        raise ResourceUnavailableError(
            f"Dataset {where}: {hint}Download it where you are online and pass a local path "
            "(JSONL, CSV, Parquet or a save_to_disk folder) instead."
        ) from None
    for index, record in enumerate(dataset, start=1):
        yield f"{name} row {index}", dict(record)
