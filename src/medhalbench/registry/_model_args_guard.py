"""Credentials given as model arguments (`-M default_headers=...`, `model_args=` of the
Python API, a role's `args`) kept out of the log on every route into our tasks. inspect
writes a run's model arguments into the log's header as given, leaving out only `api_key`
and `aws_*`; our command line redacts its logs after a run, but `inspect eval
medhalbench/...`, `eval_set` and the Python API write theirs themselves. A hook sees the
run's spec at its start, registers what it finds as secrets and redacts the spec that the
log's final header is written from; at the task's end the log file as written so far (its
start record holds the spec as given) is redacted whole."""

from __future__ import annotations

from typing import Any

from inspect_ai.hooks import Hooks, TaskEnd, TaskStart, hooks

from medhalbench._secrets import (
    model_argument_secrets,
    redact_file,
    redact_object,
    register_secret,
)


def _spec_secrets(spec: Any) -> list[str]:
    found = model_argument_secrets(spec.model_args or {})
    for role in (spec.model_roles or {}).values():
        found += model_argument_secrets(getattr(role, "args", None) or {})
    return found


class ModelArgumentsGuard(Hooks):
    """Redacts a run's credential model arguments from its spec and its log file."""

    def __init__(self) -> None:
        self._held: set[str] = set()

    async def on_task_start(self, data: TaskStart) -> None:
        """Register the run's credential arguments and redact them from its spec."""
        found = _spec_secrets(data.spec)
        if not found:
            return
        for value in found:
            register_secret(value)
        data.spec.model_args = redact_object(data.spec.model_args)
        if data.spec.model_roles:
            data.spec.model_roles = redact_object(data.spec.model_roles)
        self._held.add(data.eval_id)

    async def on_task_end(self, data: TaskEnd) -> None:
        """Redact the finished log of a run that was given credentials as arguments."""
        if data.eval_id in self._held and data.log.location:
            self._held.discard(data.eval_id)
            redact_file(data.log.location)


_registered = False


def guard_model_arguments() -> None:
    """Register the hook, once per process (task construction calls it)."""
    global _registered
    if not _registered:
        hooks(
            name="medhalbench_model_arguments",
            description="Keeps credentials given as model arguments out of medhalbench logs.",
        )(ModelArgumentsGuard)
        _registered = True
