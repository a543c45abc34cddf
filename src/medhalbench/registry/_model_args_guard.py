"""Credentials given as model arguments (`-M default_headers=...`, `model_args=` of the
Python API, a role's `args`) or in a base URL (`http://user:pass@host`) kept out of the log
on every route into our tasks. inspect writes a run's model arguments and base URL into the
log's header as given, leaving out only `api_key` and `aws_*`; our command line redacts its
logs after a run, but `inspect eval medhalbench/...`, `eval_set` and the Python API write
theirs themselves. A hook sees the run's spec at its start, registers what it finds as
secrets and redacts the spec that the log's final header is written from; at the task's end
the log file as written so far (its start record holds the spec as given) is redacted whole,
and at an eval set's end its manifest (`eval-set.json`, which holds every task's arguments)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from inspect_ai.hooks import EvalSetEnd, Hooks, TaskEnd, TaskStart

from medhalbench._secrets import (
    model_argument_secrets,
    redact_file,
    redact_logging,
    redact_object,
    register_secret,
    url_credentials,
)

EVAL_SET_MANIFEST = "eval-set.json"


def _spec_secrets(spec: Any) -> list[str]:
    found = model_argument_secrets(spec.model_args or {})
    found += url_credentials(spec.model_base_url or "")
    for role in (spec.model_roles or {}).values():
        found += model_argument_secrets(getattr(role, "args", None) or {})
        found += url_credentials(getattr(role, "base_url", None) or "")
    return found


class ModelArgumentsGuard(Hooks):
    """Redacts a run's credential model arguments from its spec and its log file."""

    def __init__(self) -> None:
        self._held: set[str] = set()

    async def on_task_start(self, data: TaskStart) -> None:
        """Register the run's credential arguments and redact them from its spec; every log
        record is redacted from now on (a run started by `inspect eval`, not our command)."""
        redact_logging()
        found = _spec_secrets(data.spec)
        if not found:
            return
        for value in found:
            register_secret(value)
        # Copies: redact_object works in place, and the spec's mappings are the ones the
        # model's client was made from (its default headers would be sent redacted).
        data.spec.model_args = redact_object(copy.deepcopy(data.spec.model_args))
        data.spec.model_base_url = redact_object(data.spec.model_base_url)
        if data.spec.model_roles:
            data.spec.model_roles = redact_object(copy.deepcopy(data.spec.model_roles))
        self._held.add(data.eval_id)

    async def on_task_end(self, data: TaskEnd) -> None:
        """Redact the finished log of a run that was given credentials as arguments."""
        if data.eval_id in self._held and data.log.location:
            self._held.discard(data.eval_id)
            redact_file(data.log.location)

    async def on_eval_set_end(self, data: EvalSetEnd) -> None:
        """Redact the eval set's manifest, which inspect writes with every task's model
        arguments as given (a file without secrets is left as it is)."""
        redact_file(Path(data.log_dir) / EVAL_SET_MANIFEST)
