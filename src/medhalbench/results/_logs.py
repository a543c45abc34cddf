"""Finding logs: files named directly, or the logs in folders."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inspect_ai.log import list_eval_logs

from medhalbench._errors import DataError


def log_paths(paths: Sequence[str | Path]) -> list[str]:
    """Log files named directly or found in folders.

    Raises:
        DataError: A path does not exist, or no log is found.
    """
    found: list[str] = []
    for path in paths:
        # inspect names logs it found by URI (`file:///...`).
        p = Path(str(path).removeprefix("file://"))
        if p.is_dir():
            found += [info.name for info in list_eval_logs(str(p))]
        elif p.is_file():
            found.append(str(p))
        else:
            raise DataError("no such log file or folder", path=p)
    if not found:
        raise DataError("no inspect logs found", path=", ".join(str(p) for p in paths))
    return found
