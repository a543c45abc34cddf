"""Why a run stopped, in one line: the model, its base URL, the underlying error, the retries
made, the samples done, and the command that finishes it."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click
from inspect_ai.log import EvalLog

from medhalbench.commands._errors import INTERRUPTED
from medhalbench.commands._progress import retry_record


def log_path(log: EvalLog) -> str:
    """A log's file path (inspect names logs it lists by `file://` URI)."""
    return log.location.removeprefix("file://")


_FAILURES = [
    ("Connection refused", "connection refused"),
    ("All connection attempts failed", "connection refused (nothing answers there)"),
    ("Name or service not known", "unknown host"),
    ("AuthenticationError", "401 unauthorized (check the API key)"),
    ("PermissionDeniedError", "403 forbidden"),
    ("RateLimitError", "429 rate limited"),
    ("APITimeoutError", "timed out"),
    ("TimeoutError", "timed out"),
    ("RemoteProtocolError", "the server closed the connection"),
    ("InternalServerError", "server error (5xx)"),
    ("APIConnectionError", "cannot connect"),
    ("ConnectError", "cannot connect"),
]


def failure_reason(log: EvalLog) -> str:
    """What stopped a run, in a few words: the underlying error, not inspect's wrapper."""
    if log.error is None:
        return log.status
    text = f"{log.error.message}\n{log.error.traceback}"
    for needle, reason in _FAILURES:
        if needle in text:
            return reason
    return " ".join(log.error.message.split())[:300]


def _failing_model(log: EvalLog) -> tuple[str, str | None]:
    """The model whose calls failed (the role with retries, else the model under test) and
    its base URL."""
    candidates = [(log.eval.model, log.eval.model_base_url)]
    for role in (log.eval.model_roles or {}).values():
        for config in role if isinstance(role, list) else [role]:
            candidates.append((config.model, config.base_url))
    retried = [c for c in candidates if retry_record(c[0])]
    return retried[0] if retried else candidates[0]


def fail_on_unfinished(logs: Sequence[EvalLog]) -> None:
    """For each run that did not finish, one line on stderr: the model, its base URL, the
    underlying error, the retries made, the samples done, and how to finish it; then exit."""
    failed = [log for log in logs if log.status != "success"]
    if not failed:
        return
    for log in failed:
        model, base_url = _failing_model(log)
        where = f" at {base_url}" if base_url else ""
        record = retry_record(model)
        retries = (
            f" after {record.retries} retries ({record.waited:.0f} s of waits)" if record else ""
        )
        done = sum(s.error is None for s in log.samples or [])
        total = (log.eval.dataset.samples or 0) * max(1, log.eval.config.epochs or 1)
        what = (
            "stopped by the user"
            if log.status == "cancelled"
            else f"{failure_reason(log)}{retries}"
        )
        click.secho(
            f"error: {model}{where}: {what}; {done} of {total} samples done. "
            f"Finish it with: medhalbench retry {log_path(log)}",
            fg="red",
            err=True,
        )
    sys.exit(INTERRUPTED if all(log.status == "cancelled" for log in failed) else 1)
