"""The reader's version is a hash of its code and words: any change to how replies are read
gives a new one, with nothing to bump by hand."""

from __future__ import annotations

import hashlib
from pathlib import Path

import medhalbench.judging
from medhalbench.judging import reader_version


def test_the_version_is_the_hash_of_the_readers_files() -> None:
    folder = Path(medhalbench.judging.__file__).parent
    digest = hashlib.sha256()
    for file in sorted([*folder.glob("*.py"), *folder.glob("*.yaml")], key=lambda f: f.name):
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    assert reader_version() == digest.hexdigest()[:12]
    assert any(f.name == "verdict_words.yaml" for f in folder.iterdir())  # the words count
