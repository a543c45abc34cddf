"""Fingerprints of the prompts and data behind a run, kept in each log's task metadata."""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pydantic

INPUTS = "inputs"
"""The task metadata key of what a run read: the folder it was started in (relative paths in
its arguments are relative to it) and a fingerprint of each local file or folder its
arguments name, so that a retry can tell whether they changed since."""


def text_hash(text: str) -> str:
    """Short SHA-256 of a text (e.g. a prompt)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def dataset_fingerprint(source: str | Path | None) -> str | None:
    """Short SHA-256 of a local dataset file (or of a folder's files), the source itself
    for a hub id or URL, None when there is no source."""
    if source is None:
        return None
    path = Path(source)
    if path.is_file():
        info = path.stat()
        return _file_fingerprint(str(path.resolve()), info.st_size, info.st_mtime_ns)
    if path.is_dir():
        digest = hashlib.sha256()
        for file in sorted(p for p in path.rglob("*") if p.is_file()):
            digest.update(str(file.relative_to(path)).encode())
            digest.update(file.read_bytes())
        return digest.hexdigest()[:12]
    return str(source)


@functools.lru_cache(maxsize=64)
def _file_fingerprint(path: str, size: int, modified: int) -> str:
    """A file's short SHA-256, computed once per version of the file (size, modification
    time) in a process: a task and its record both fingerprint the dataset."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:12]


def _local(value: Any) -> bool:
    return isinstance(value, str) and bool(value) and "\0" not in value and Path(value).exists()


class InputsRead(pydantic.BaseModel, frozen=True, extra="ignore"):
    """What a run read (`INPUTS` of its metadata).

    Attributes:
        working_dir: The folder it was started in.
        files: The fingerprint of each local file or folder its settings name, by setting
            (`name[i]` for a list).
    """

    working_dir: str | None = None
    files: dict[str, str | None] = pydantic.Field(default_factory=dict)


def input_record(arguments: Mapping[str, Any], paths: Sequence[str]) -> InputsRead:
    """What a run reads, for its metadata (`INPUTS`): the working folder, and the fingerprint
    of each local file or folder the arguments named `paths` give (`name[i]` for a list)."""
    files: dict[str, str | None] = {}
    for name in paths:
        value = arguments.get(name)
        values = value if isinstance(value, list | tuple) else [value]
        for index, item in enumerate(values):
            # A value in a form of its own (`medqa=PATH`) names its path after the `=`.
            text = item if not isinstance(item, str) or _local(item) else item.split("=", 1)[-1]
            if _local(text):
                key = name if not isinstance(value, list | tuple) else f"{name}[{index}]"
                files[key] = dataset_fingerprint(text)
    return InputsRead(working_dir=os.getcwd(), files=files)
