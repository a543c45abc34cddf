"""What makes a folder an index: the files it holds, its layout version, its manifest (read
and written here) and the BM25 tokenizer its settings name. Building an index (`_build`)
and opening one (`_index`) both rest on this; it imports neither."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from medhalbench._errors import DataError
from medhalbench.data import write_text_atomically
from medhalbench.evidence._records import DenseManifest, IndexManifest
from medhalbench.settings import IndexSettings

INDEX_FORMAT = 1
"""The index folder's layout version (raised when it changes)."""
INDEX_MANIFEST = "manifest.json"
"""The file that makes a folder an index (see `PassageIndex`)."""
PASSAGES_FILE = "passages.jsonl"
OFFSETS_FILE = "passages.offsets.npy"
BM25_FOLDER = "bm25"


def is_index(path: str | Path) -> bool:
    """Whether a path is an index folder (it holds `manifest.json`)."""
    return Path(path).is_dir() and (Path(path) / INDEX_MANIFEST).is_file()


def read_manifest(folder: str | Path) -> IndexManifest:
    """An index folder's manifest.

    Raises:
        DataError: No manifest, a malformed one, or one of another layout version.
    """
    path = Path(folder) / INDEX_MANIFEST
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        settings = IndexSettings(**raw.pop("settings"))
        dense = raw.pop("dense", None)
        manifest = IndexManifest(
            **raw, settings=settings, dense=DenseManifest(**dense) if dense else None
        )
    except FileNotFoundError:
        raise DataError("not an index folder (no manifest.json)", path=folder) from None
    except (ValueError, TypeError, KeyError, AttributeError) as ex:
        raise DataError(f"malformed index manifest ({ex})", path=path) from None
    if manifest.format != INDEX_FORMAT:
        raise DataError(
            f"an index of layout {manifest.format}; this version reads layout {INDEX_FORMAT} "
            "(build it again with medhalbench index)",
            path=folder,
        )
    return manifest


def write_manifest(folder: Path, manifest: IndexManifest) -> None:
    """Write an index folder's manifest (whole or not at all)."""
    stored = {**asdict(manifest), "settings": manifest.settings.stored()}
    write_text_atomically(folder / INDEX_MANIFEST, json.dumps(stored, indent=2) + "\n")


def make_tokenizer(settings: IndexSettings) -> Any:
    """bm25s's tokenizer with the settings' stemmer and stop words."""
    import bm25s

    stemmer = None
    if settings.stemmer != "none":  # a stemmer PyStemmer has: checked with the settings
        import Stemmer

        stemmer = Stemmer.Stemmer(settings.stemmer)
    return bm25s.tokenization.Tokenizer(
        stopwords=None if settings.stopwords == "none" else settings.stopwords, stemmer=stemmer
    )
