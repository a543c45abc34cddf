"""Fingerprints of the prompts and data behind a run, kept in each log's task metadata."""

from __future__ import annotations

import hashlib
from pathlib import Path


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
        digest = hashlib.sha256()
        with path.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest()[:12]
    if path.is_dir():
        digest = hashlib.sha256()
        for file in sorted(p for p in path.rglob("*") if p.is_file()):
            digest.update(str(file.relative_to(path)).encode())
            digest.update(file.read_bytes())
        return digest.hexdigest()[:12]
    return str(source)
