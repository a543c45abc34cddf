"""Finding logs: files named directly, or the logs in folders."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from medhalbench._errors import DataError
from medhalbench.data import check_input_file

MAX_LOG_BYTES = 64 * 1024**3
"""The largest log read (an `.eval` log is a zip of its samples)."""


def read_log(path: str | Path, *, header_only: bool = False) -> EvalLog:
    """A log read whole (or its header): the one way every command reads a log it is given.

    Raises:
        DataError: Not a regular readable file, or not an inspect log.
    """
    check_input_file(path, text=False, max_bytes=MAX_LOG_BYTES, what="log")
    try:
        return read_eval_log(str(path), header_only=header_only)
    except Exception:  # inspect raises many kinds for what is no log
        raise DataError(
            "not an inspect log (.eval or .json), or a cut-off one", path=path
        ) from None


def log_headers(folder: str | Path, *, recursive: bool = True) -> list[EvalLog]:
    """The headers of the logs in a folder (its subfolders too unless not `recursive`),
    each with its location; a file that cannot be read (a log being written) left out."""
    headers = []
    for info in list_eval_logs(str(folder), recursive=recursive):
        with contextlib.suppress(Exception):  # a log being written, or no log
            headers.append(read_eval_log(info, header_only=True))
    return headers


def log_paths(paths: Sequence[str | Path]) -> list[str]:
    """Log files named directly or found in folders.

    Raises:
        DataError: A path does not exist, or no log is found.
    """
    found: list[str] = []
    for path in paths:
        p = Path(local_path(str(path)))
        if p.is_dir():
            found += [local_path(info.name) for info in list_eval_logs(str(p))]
        elif p.is_file():
            found.append(str(p))
        else:
            raise DataError("no such log file or folder", path=p)
    if not found:
        raise DataError("no inspect logs found", path=", ".join(str(p) for p in paths))
    return found


def local_path(name: str) -> str:
    """A log's name as a plain path where it is a local file (inspect names the logs it
    finds by URI, `file:///...`, which messages should not show); other URIs unchanged."""
    parsed = urlparse(name)
    return url2pathname(parsed.path) if parsed.scheme == "file" else name
