"""Rows from a local file or folder, or from a hub dataset."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from medhalbench._errors import DataError
from medhalbench.data._hub import looks_like_hub_name, read_hub_rows
from medhalbench.data._io import Row, read_rows


def source_rows(
    source: str | Path, *, config: str | None, split: str, revision: str | None = None
) -> Iterator[Row]:
    """Yield rows from a local path or, for an `owner/name[@revision]` id, the Hugging Face hub.

    `revision` applies to hub ids without an `@revision` of their own.

    Raises:
        DataError: A local path that does not exist or holds bad data.
        ResourceUnavailableError: A hub id while the hub cannot be reached.
    """
    text = str(source)
    if looks_like_hub_name(text):
        yield from read_hub_rows(text, config=config, split=split, revision=revision)
    elif not Path(text).exists():
        raise DataError("no such file or folder (nor a hub id of the form owner/name)", path=text)
    else:
        yield from read_rows(text, split=split)
