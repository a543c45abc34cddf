"""Keeping secrets out of everything medhalbench writes: API keys (from the environment, or
given as a model argument) and credentials in URLs are replaced in messages, logs, trace
files and reports."""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

REDACTED = "[redacted]"
MIN_SECRET_LENGTH = 8
"""Shorter values are not taken for secrets (replacing them would garble ordinary text)."""
_SECRET_NAME = re.compile(r"(?:API_?KEY|_KEY|TOKEN|SECRET|PASSWORD|PASSWD)$", re.IGNORECASE)
_URL_CREDENTIALS = re.compile(r"(?<=://)[^/\s:@]+:[^/\s@]+@")
_given: set[str] = set()


def register_secret(value: str) -> None:
    """Take a value given on the command line (e.g. `-M api_key=...`) for a secret."""
    if len(value) >= MIN_SECRET_LENGTH:
        _given.add(value)


def is_secret_name(name: str) -> bool:
    """Whether a setting's name says it holds a secret (`api_key`, `OPENAI_API_KEY`, ...)."""
    return _SECRET_NAME.search(name) is not None


def secrets() -> list[str]:
    """Every known secret value, longest first."""
    found = {v for k, v in os.environ.items() if is_secret_name(k) and len(v) >= MIN_SECRET_LENGTH}
    return sorted(found | _given, key=len, reverse=True)


def redact(text: str) -> str:
    """Text without known secrets or URL credentials."""
    for secret in secrets():
        text = text.replace(secret, REDACTED)
    return _URL_CREDENTIALS.sub(f"{REDACTED}@", text)


def redact_file(path: str | Path) -> bool:
    """Remove known secrets from a file we wrote (an inspect `.eval` log is a zip of JSON
    members, each rewritten; any other file as text). Returns whether anything changed."""
    path = Path(path)
    known = [s.encode() for s in secrets()]
    if not known or not path.is_file():
        return False
    if not zipfile.is_zipfile(path):
        data = path.read_bytes()
        if not any(s in data for s in known):
            return False
        path.write_text(redact(data.decode("utf-8", errors="replace")), encoding="utf-8")
        return True
    with zipfile.ZipFile(path) as source:
        members = [(info, source.read(info)) for info in source.infolist()]
    if not any(s in data for _, data in members for s in known):
        return False
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".eval.tmp")
    os.close(handle)
    with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_DEFLATED) as target:
        for info, data in members:
            for secret in known:
                data = data.replace(secret, REDACTED.encode())
            target.writestr(info, data)
    shutil.move(temporary, path)
    return True


def redact_files(paths: Iterable[str | Path]) -> None:
    """`redact_file` for each file."""
    for path in paths:
        redact_file(path)


class RedactingFilter(logging.Filter):
    """A logging filter that removes known secrets from every record a handler writes
    (inspect's trace file and console among them), its traceback included."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage())
        record.args = None
        if record.exc_info:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        # Fields a handler writes beside the message (inspect's trace: error, stacktrace).
        for name, value in list(vars(record).items()):
            if isinstance(value, str) and name not in ("msg", "name", "levelname", "pathname"):
                setattr(record, name, redact(value))
        return True


_FILTER = RedactingFilter()


def redact_logging() -> None:
    """Put the redacting filter on every handler of the root logger (idempotent; call after
    inspect has set its handlers up)."""
    for handler in logging.getLogger().handlers:
        if _FILTER not in handler.filters:
            handler.addFilter(_FILTER)
