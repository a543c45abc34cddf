"""Why a run stopped, in one line: the model whose call failed (the role's model when a judge
failed), its base URL, the underlying error, the retries made, the samples done, and the
command that finishes it. The exit code says whose the fault is: 130/143 stopped, 2 a model
server that failed or misbehaves or bad input met during the run, 1 our own bug (its
traceback in a file)."""

from __future__ import annotations

import os
import re
import sys
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import click
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalLog

from medhalbench._secrets import redact
from medhalbench.commands._errors import (
    INTERNAL_ERROR,
    INTERRUPTED,
    MAX_MESSAGE_CHARS,
    TERMINATED,
    UNWRITABLE_ERRNOS,
    USER_ERROR,
    flattened,
    refused_request,
    traceback_file,
    unwritable_hint,
    wind_down,
)
from medhalbench.commands._progress import retry_record
from medhalbench.results import local_path, role_configs
from medhalbench.text import printable


def log_path(log: EvalLog) -> str:
    """A log's file path (inspect names logs it lists by `file://` URI)."""
    return local_path(log.location)


# A server that answers, but not as its API promises: rerunning cannot help until the server
# (or the base URL) is fixed, so these end with exit code 2.
_MISBEHAVING: list[tuple[str | re.Pattern[str], str]] = [
    ("OpenAIResponseError", "the server answered with a body that is not JSON (an HTML page?)"),
    ("JSONDecodeError", "the server answered with a body that is not JSON, or cut off"),
    ("UnicodeDecodeError", "the server answered with a body that is not UTF-8 text"),
    ("chat_choices_from", "the server's JSON is not a chat completion (no 'choices', or "
     "fields of the wrong type)"),
    ("ValidationError", "the server's JSON is not a chat completion (fields of the wrong type)"),
    ("self.choices[0]", "the server's chat completion holds no choice (an empty 'choices')"),
    ("TooManyRedirects", "the server redirects the request again and again"),
    # A status, never a bare number: "404" is also a line number, a port or part of an address.
    (re.compile(r"NotFoundError|Error code: 404\b|\b404 (?:NOT_FOUND|Not Found)\b"),
     "the server has no such endpoint (404)"),
]  # fmt: skip
# A 4xx other than those with a failure of their own (401, 403, 408, 429), as the
# OpenAI-style SDKs word it: 'BadRequestError("Error code: 400 - REASON")', the reason the
# server's error message (or the body itself, "{'error': {'message': ...}}").
_REFUSED = re.compile(
    r"Error code: (4(?!01|03|08|29)\d\d) - (?:.*?['\"]message['\"]: ['\"])?"
    r"(.{1,300}?)(?:['\"][,})]|['\"]?\)?$)",
    re.MULTILINE,
)
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

# Errors of ours raised on purpose while a run goes (bad input met mid-run): their message
# is the line, exit code 2 (a sample past its call ceiling too).
_OURS = ("medhalbench._errors.", "medhalbench.settings._model.SettingsError",
         "medhalbench.commands._models.OptionError",
         "medhalbench._call_ceiling.CallCeilingReached")  # fmt: skip

Kind = str
"""How a run failed: 'stopped', 'server' (a model call failed: a retry may finish it),
'misbehaving' (a server that does not answer as its API promises), 'input' (bad input met
during the run), 'disk' (a full disk or a folder it may not write to) or 'bug' (ours)."""

# The line an OSError's traceback ends with: "[Errno 28] No space left on device: '/x'".
_ERRNO_LINE = re.compile(r"^[\w.]*(?:Error|Exception): \[Errno (\d+)\] (.*?)(?:: '(.*)')?$")


@dataclass(frozen=True)
class Failure:
    """Why a run did not finish, read from its log.

    Attributes:
        kind: See `Kind`.
        reason: The underlying error in a few words.
        model: The model whose call failed (a role's model when a judge failed), else the
            model under test.
        role: The role of that model (None: the model under test).
        base_url: Its base URL.
    """

    kind: Kind
    reason: str
    model: str
    role: str | None
    base_url: str | None


def _error_type(traceback: str) -> str:
    """The qualified type of the exception a traceback ends with."""
    lines = [line for line in traceback.strip().splitlines() if line and not line[0].isspace()]
    last = lines[-1] if lines else ""
    return last.split(":", 1)[0].strip()


def _classify(log: EvalLog) -> tuple[Kind, str]:
    if log.status == "cancelled" or log.error is None:
        return "stopped", "stopped by the user" if log.status == "cancelled" else log.status
    # A disk error names the log's folder when the error names no file.
    folder = str(Path(log_path(log)).parent) if log.location else None
    return _kind_of(log.error.message, log.error.traceback, folder)


def classify_exception(ex: BaseException, folder: str | Path | None = None) -> tuple[Kind, str]:
    """How an exception that stopped a command (a builder's) failed, as for a run: a model
    server that failed or misbehaves, bad input, a disk it cannot write, or a bug of ours;
    and why, in a few words (a disk error names `folder` when it names no file)."""
    text = "".join(traceback.format_exception(ex))
    return _kind_of(str(ex) or type(ex).__name__, text, None if folder is None else str(folder))


def unwritable_reason(traceback_text: str, folder: str | None) -> str | None:
    """One line for a traceback that ends in a disk error (`UNWRITABLE_ERRNOS`): the path
    (the error's file, else `folder`) and the reason; None for any other error."""
    lines = [line for line in traceback_text.strip().splitlines() if line and not line[0].isspace()]
    found = _ERRNO_LINE.match(lines[-1].strip()) if lines else None
    if found is None or int(found[1]) not in UNWRITABLE_ERRNOS:
        return None
    path = found[3] or folder
    reason = f"{found[2]}; {unwritable_hint(int(found[1]))}"
    return f"{path}: cannot write there ({reason})" if path else f"cannot write ({reason})"


def _kind_of(message: str, traceback_text: str, folder: str | None = None) -> tuple[Kind, str]:
    text = f"{message}\n{traceback_text}"
    kind = _error_type(traceback_text)
    message = flattened(message)
    if kind.startswith(_OURS):
        return "input", message
    unwritable = unwritable_reason(traceback_text, folder)
    if unwritable is not None:
        return "disk", unwritable
    if "UnicodeEncodeError" in kind and "codec can't encode" in text:
        # httpx sends headers as ASCII: the key (or a header) the user gave cannot be sent.
        return "input", (
            "the API key or a header holds characters an HTTP header cannot carry (only "
            "ASCII): check the key's environment variable and any -M headers"
        )
    refused = _REFUSED.search(text)
    if refused and refused[1] == "404" and "message" not in refused[0]:
        refused = None  # a 404 with no reason of its own: no such endpoint (below)
    if refused:  # a request the server will not take: its own reason says why
        reason = refused[2].replace("\\'", "'").replace('\\"', '"')
        hint = f"; {MISBEHAVING_HINT}" if refused[1] == "404" else ""
        return "misbehaving", f"{refused_request(refused[1], reason)}{hint}"
    for needle, reason in _MISBEHAVING:
        if needle.search(text) if isinstance(needle, re.Pattern) else needle in text:
            return "misbehaving", f"{reason}; {MISBEHAVING_HINT}"
    for needle, reason in _FAILURES:
        if needle in text:
            return "server", reason
    if kind in ("MemoryError", "builtins.MemoryError"):
        return "bug", "ran out of memory"
    return "bug", f"unexpected {kind.rsplit('.', 1)[-1] or 'error'}: {message}"


def _failed_call(log: EvalLog) -> tuple[str, str | None] | None:
    """The model and role of the call that failed, from the errored samples' events."""
    for sample in log.samples or []:
        if sample.error is None:
            continue
        for event in reversed(sample.events or []):
            if isinstance(event, ModelEvent) and event.error:
                return event.model, event.role
    return None


def read_failure(log: EvalLog) -> Failure:
    """Why a run did not finish, and whose call failed."""
    kind, reason = _classify(log)
    found = _failed_call(log)
    roles = role_configs(log.eval)
    if found is not None and found[1]:  # a role's call: its (first) model's
        config = next(iter(roles.get(found[1], [])), None)
        model, base_url = (config.model, config.base_url) if config else (found[0], None)
        return Failure(kind, reason, model, found[1], base_url)
    if found is None:  # no failed call in the samples: the role with retries, if any
        for role, configs in roles.items():
            for config in configs:
                if retry_record(config.model):
                    return Failure(kind, reason, config.model, role, config.base_url)
    return Failure(kind, reason, log.eval.model, None, log.eval.model_base_url)


def fail_on_unfinished(
    logs: Sequence[EvalLog], *, stopped_code: int = INTERRUPTED, rerun: str | None = None
) -> None:
    """For each run that did not finish, one line on stderr: the model whose call failed
    (the role named), its base URL, the underlying error, the retries made, the samples
    done, and how to finish it (`rerun`, the command that finishes every run at once, such
    as a suite's; else `retry` of its log); then exit: `stopped_code` (130 by default) when
    the user stopped every one; 1 when one failed on a bug of ours (its traceback in a
    file); else 2 (a model server failed or misbehaved, or bad input was met: the line names
    it)."""
    failed = [log for log in logs if log.status != "success"]
    if not failed:
        return
    kinds = set()
    for log in failed:
        failure = read_failure(log)
        kinds.add(failure.kind)
        who = f"{failure.role} model {failure.model}" if failure.role else failure.model
        where = f" at {failure.base_url}" if failure.base_url else ""
        record = retry_record(failure.model)
        per_call = log.eval.model_generate_config.max_retries
        retries = (
            f" (each call retried up to {per_call} times; {record.retries} retries in all, "
            f"{record.waited:.0f} s of waits)"
            if record and per_call is not None
            else ""
        )
        done = sum(s.error is None for s in log.samples or [])
        total = (log.eval.dataset.samples or 0) * max(1, log.eval.config.epochs or 1)
        reason = failure.reason
        limit = log.eval.model_generate_config.attempt_timeout
        if reason == "timed out" and limit:
            reason = f"timed out (no reply within {limit} s)"
        finish = (
            f"{done} of {total} samples done. "
            f"Finish it with: {rerun or f'medhalbench retry {_shortest(log_path(log))}'}"
        )
        head, extra = f"{log.eval.task}: {reason}", ""
        if failure.kind == "bug":
            logged = log.error.traceback if log.error else ""
            extra = f"(full traceback: {traceback_file(logged)})"
        elif failure.kind == "input":
            finish = f"{done} of {total} samples done"
        elif failure.kind == "disk":
            head = reason
        elif failure.kind == "stopped":
            head = f"{who}: {reason}"
        else:
            head, extra = f"{who}{where}: {reason}", retries
        line = _fitted(head, extra, finish, keep_extra=failure.kind == "bug")
        click.secho(printable(redact(line)), fg="red", err=True)
    if kinds == {"stopped"}:
        if stopped_code in (INTERRUPTED, TERMINATED):
            wind_down(stopped_code)
        sys.exit(stopped_code)
    sys.exit(INTERNAL_ERROR if "bug" in kinds else USER_ERROR)


def _shortest(path: str) -> str:
    """A path as the shorter of absolute and relative to the working folder."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        return path
    return relative if len(relative) < len(path) else path


def _fitted(head: str, extra: str, finish: str, *, keep_extra: bool) -> str:
    """`error: HEAD EXTRA; FINISH` on one line of at most `MAX_MESSAGE_CHARS` where it can
    be: the details (`extra`) go first, then the end of the head; the command that finishes
    the run stays whole."""
    head, extra = flattened(head), flattened(extra)
    line = f"error: {head}{' ' + extra if extra else ''}; {finish}"
    if len(line) <= MAX_MESSAGE_CHARS:
        return line
    kept = f" {extra}" if keep_extra and extra else ""
    room = MAX_MESSAGE_CHARS - len(f"error: {kept}; {finish}")
    if len(head) > room:
        head = head[: max(room, 60) - 3].rstrip() + "..."
    return f"error: {head}{kept}; {finish}"
