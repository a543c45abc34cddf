"""Why a run stopped, in one line: the model, its base URL, the underlying error, the retries
made, the samples done, and the command that finishes it."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click
from inspect_ai.log import EvalLog

from medhalbench._secrets import redact
from medhalbench.commands._errors import INTERRUPTED, USER_ERROR
from medhalbench.commands._progress import retry_record
from medhalbench.results import local_path


def log_path(log: EvalLog) -> str:
    """A log's file path (inspect names logs it lists by `file://` URI)."""
    return local_path(log.location)


# A server that answers, but not as its API promises: rerunning cannot help until the server
# (or the base URL) is fixed, so these end with exit code 2.
_MISBEHAVING = [
    ("OpenAIResponseError", "the server answered with a body that is not JSON (an HTML page?)"),
    ("JSONDecodeError", "the server answered with a body that is not JSON, or cut off"),
    ("chat_choices_from", "the server's JSON is not a chat completion (no 'choices', or "
     "fields of the wrong type)"),
    ("ValidationError", "the server's JSON is not a chat completion (fields of the wrong type)"),
    ("self.choices[0]", "the server's chat completion holds no choice (an empty 'choices')"),
    ("404", "the server has no such endpoint (404)"),
]  # fmt: skip
MISBEHAVING_HINT = "check the server and --model-base-url (OpenAI-compatible APIs end in /v1)"

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


def failure_reason(log: EvalLog) -> tuple[str, bool]:
    """What stopped a run, in a few words (the underlying error, not inspect's wrapper), and
    whether the server misbehaved (answered, but not as its API promises)."""
    if log.error is None:
        return log.status, False
    text = f"{log.error.message}\n{log.error.traceback}"
    for needle, reason in _MISBEHAVING:
        if needle in text:
            return f"{reason}; {MISBEHAVING_HINT}", True
    for needle, reason in _FAILURES:
        if needle in text:
            return reason, False
    return " ".join(log.error.message.split())[:300], False


def _failing_model(log: EvalLog) -> tuple[str, str | None]:
    """The model whose calls failed (the role with retries, else the model under test) and
    its base URL."""
    candidates = [(log.eval.model, log.eval.model_base_url)]
    for role in (log.eval.model_roles or {}).values():
        for config in role if isinstance(role, list) else [role]:
            candidates.append((config.model, config.base_url))
    retried = [c for c in candidates if retry_record(c[0])]
    return retried[0] if retried else candidates[0]


def fail_on_unfinished(logs: Sequence[EvalLog], *, stopped_code: int = INTERRUPTED) -> None:
    """For each run that did not finish, one line on stderr: the model, its base URL, the
    underlying error, the retries made, the samples done, and how to finish it; then exit
    (`stopped_code`, 130 by default, when the user stopped every one; 2 when a server
    misbehaved; else 1)."""
    failed = [log for log in logs if log.status != "success"]
    if not failed:
        return
    misbehaved = False
    for log in failed:
        model, base_url = _failing_model(log)
        where = f" at {base_url}" if base_url else ""
        record = retry_record(model)
        per_call = log.eval.model_generate_config.max_retries
        retries = (
            f" (each call retried up to {per_call} times; {record.retries} retries in all, "
            f"{record.waited:.0f} s of waits)"
            if record and per_call is not None
            else ""
        )
        done = sum(s.error is None for s in log.samples or [])
        total = (log.eval.dataset.samples or 0) * max(1, log.eval.config.epochs or 1)
        if log.status == "cancelled":
            what = "stopped by the user"
        else:
            reason, bad_server = failure_reason(log)
            misbehaved = misbehaved or bad_server
            limit = log.eval.model_generate_config.attempt_timeout
            if reason == "timed out" and limit:
                reason = f"timed out (no reply within {limit} s)"
            what = f"{reason}{retries}"
        click.secho(
            redact(
                f"error: {model}{where}: {what}; {done} of {total} samples done. "
                f"Finish it with: medhalbench retry {log_path(log)}"
            ),
            fg="red",
            err=True,
        )
    if all(log.status == "cancelled" for log in failed):
        sys.exit(stopped_code)
    sys.exit(USER_ERROR if misbehaved else 1)
