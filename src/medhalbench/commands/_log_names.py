"""Log files named by their run. inspect names a log by the time, the task and a random id
(`2026-01-05T10-00-00+00-00_medhallu_Xy3....eval`); once its run has written it for good
(finished, failed or stopped), our commands move it to a name made of the run's benchmark,
model and condition (`medhallu_openai-gpt-4o-mini_knowledge.eval`: `log_stem`) in the same
folder, numbered `-2`, `-3`, ... where that name is taken. Nothing is written over.

A log still marked `started` keeps inspect's name: another process may still be writing it,
and inspect recovers the samples it buffered by that name. So does a log someone named (no
time in front), a log of another task, and a JSON log (inspect lists those by its name
only). inspect reads a folder's logs by their headers, so `inspect view`, `inspect log
list`, `eval_set`'s resumption of a suite and `retry`'s search for a run's later logs find a
renamed log as they found it before."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable
from pathlib import Path

from inspect_ai.log import EvalLog, write_log_dir_manifest

from medhalbench._secrets import redact_file
from medhalbench.commands._failures import log_path
from medhalbench.registry import benchmark_of
from medhalbench.report import log_stem
from medhalbench.results import run_result

INSPECT_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}[:-]\d{2}[:-]\d{2}")
"""How the name of a log inspect named starts: the time it was made."""
MAX_NUMBER = 10_000
"""The most runs of one name in one folder (beyond, a log keeps inspect's name)."""
EVAL_SUFFIX = ".eval"
"""The log format renamed: inspect lists a `.eval` log by any name, a `.json` one (`--log-format
json`) only by the name it gave it, so a JSON log keeps inspect's name."""
MANIFEST = "logs.json"
"""inspect's listing of a folder's logs by file name (written by `eval_set`)."""


def numbered(stem: str, number: int, suffix: str) -> str:
    """The file name of the `number`-th run of a name (the first is not numbered)."""
    return f"{stem}{'' if number == 1 else f'-{number}'}{suffix}"


def _claim(path: Path, stem: str) -> Path | None:
    """Move `path` to the first free name of `stem` in its folder, never over a file (a hard
    link claims the name at once; where the disk has none, the name is checked first)."""
    for number in range(1, MAX_NUMBER + 1):
        target = path.with_name(numbered(stem, number, path.suffix))
        try:
            os.link(path, target)
        except FileExistsError:
            continue
        except OSError:  # no hard links on this disk
            if target.exists():
                continue
            os.rename(path, target)
            return target
        path.unlink()
        return target
    return None


def name_log(log: EvalLog) -> EvalLog:
    """Move a log inspect named to its run's name (see the module), its location updated in
    place; any other log, or one that cannot be moved, is left as it is."""
    if log.status == "started" or not log.location:
        return log
    path = Path(log_path(log))
    if (
        path.suffix != EVAL_SUFFIX
        or not INSPECT_NAME.match(path.name)
        or benchmark_of(log) is None
        or not path.is_file()
    ):
        return log
    # inspect hands a run's samples back unread, to be read from the file when first used:
    # read now, from where the file is (every command shows them next anyway).
    for lazy in (log.samples, log.reductions):
        len(lazy or [])
    with contextlib.suppress(OSError):  # a folder it may not write to: inspect's name stays
        target = _claim(path, log_stem(run_result(log)))
        if target is not None:
            log.location = str(target)
    return log


def named_logs(logs: Iterable[EvalLog]) -> list[EvalLog]:
    """The logs, each inspect named moved to its run's name (`name_log`)."""
    return [name_log(log) for log in logs]


def refresh_manifest(folder: str | Path) -> None:
    """Write inspect's listing of a folder's logs (`logs.json`) again where it has one, so
    that it names the logs as they are named now (without secrets, as every file written)."""
    manifest = Path(folder) / MANIFEST
    if not manifest.is_file():
        return
    # A log inspect cannot read (one cut off) leaves the listing as it was: it only lists.
    with contextlib.suppress(Exception):  # inspect raises many kinds for what is no log
        write_log_dir_manifest(str(folder))
    redact_file(manifest)
