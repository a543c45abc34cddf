"""How every table, title, chart and export shows a local path: relative to the current
folder where it lies under it, else its last parts after an ellipsis. One function owns it,
so that no report shows `/home/someone/work/pubmed-index` in one place and `pubmed-index`
in another; a page that shortens a path shows it whole on hover."""

from __future__ import annotations

import os
from pathlib import Path, PurePath

ELLIPSIS = "…"
"""Stands for the leading parts of a path that lies outside the current folder."""
KEPT_PARTS = 2
"""The last parts of a path outside the current folder that are shown ("…/shared/index")."""


def _folders(base: str | Path | None) -> list[PurePath]:
    """The folder paths are shown relative to, as given and resolved (a path recorded
    through a link still reads as under it)."""
    folder = Path(base) if base is not None else Path(os.getcwd())
    found = [PurePath(os.path.abspath(folder))]
    try:
        resolved = PurePath(folder.resolve())
    except OSError:
        return found
    return found if resolved in found else [*found, resolved]


def shown_path(value: str, *, base: str | Path | None = None) -> str:
    """A local path as the report shows it: relative to `base` (default: the current folder)
    where it lies under it, else its last `KEPT_PARTS` parts after an ellipsis
    ("…/shared/pubmed-index"). A value that is no absolute path (a hub id, a plug-in's
    `SCHEME:ADDRESS`, a path already relative, a name) is shown as it is.

    Args:
        value: The path, as a run recorded it.
        base: The folder paths are shown relative to.

    Returns:
        The path as shown.
    """
    if not value or "\0" in value or not os.path.isabs(value):
        return value
    path = PurePath(os.path.normpath(value))
    for folder in _folders(base):
        if path == folder:
            return "."
        if path.is_relative_to(folder):
            return str(path.relative_to(folder))
    parts = path.parts[1:]
    if len(parts) <= KEPT_PARTS:
        return str(path)
    return str(PurePath(ELLIPSIS, *parts[-KEPT_PARTS:]))


def shown_model(name: str, *, base: str | Path | None = None) -> str:
    """A model's name with the local file or folder it names shown as `shown_path` shows it
    (`embedded//home/me/models/tiny.gguf` → `embedded/…/models/tiny.gguf`); other names as
    they are."""
    provider, slash, rest = name.partition("/")
    if slash and os.path.isabs(rest):
        return f"{provider}/{shown_path(rest, base=base)}"
    return name
