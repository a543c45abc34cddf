"""The reader's version: a hash of its code and its words, so that any change to how replies
are read gives a new version, with nothing to bump by hand. Each log records it
(`RunFacts.reader_version`), so that figures read by two versions are told apart."""

from __future__ import annotations

import functools
import hashlib
from importlib import resources


@functools.cache
def reader_version() -> str:
    """The first 12 hex digits of the SHA-256 of the reader's modules and its words file."""
    digest = hashlib.sha256()
    files = sorted(
        (f for f in resources.files(__package__).iterdir() if f.name.endswith((".py", ".yaml"))),
        key=lambda f: f.name,
    )
    for file in files:
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:12]
