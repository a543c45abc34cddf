"""Resuming a run from its log so that the result stays true: the files the run read are found
from any folder (a relative path is taken from the folder the run was started in), a retry on
data, prompts or templates that changed since the run is refused, naming what changed
(`--force` runs every sample again on the new files), and a key the log does not keep is
read again from the environment or the retry's own `-M`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import ChatMessage, ModelConfig

from medhalbench._errors import DataError
from medhalbench._secrets import REDACTED, is_secret_name
from medhalbench.commands._models import Connection, OptionError, resolve_model
from medhalbench.models import writes_nothing
from medhalbench.registry import benchmark_of
from medhalbench.results import RunFacts, log_headers, read_log
from medhalbench.settings import anchored, parse_model_args


@dataclass(frozen=True)
class Resumed:
    """A log prepared for inspect's eval-retry.

    Attributes:
        log: The log, with absolute paths, the keys given again, and (with `force` on
            changed inputs) no finished samples.
        changed: What changed since the run (empty when nothing did).
        rerun: Every sample runs again (`--force` on changed inputs).
    """

    log: EvalLog
    changed: list[str] = field(default_factory=list)
    rerun: bool = False


def _run_folders(log: EvalLog, path: str | Path) -> list[Path]:
    """Where the run's relative paths are relative to: the folder it was started in (as
    its log records it); for a log that does not record it, the retry's own folder and the
    folder above the log's (`logs/` under the run's folder, the default)."""
    inputs = RunFacts.of(log.eval.metadata).inputs
    recorded = inputs.working_dir if inputs else None
    if recorded:
        return [Path(recorded)]
    return [Path.cwd(), Path(path).resolve().parent.parent]


def _given_as(option: str, name: str) -> str:
    """How an argument is given again: `-M NAME`, `--role-arg ROLE:NAME`."""
    return f"{option}{'' if option.endswith(':') else ' '}{name}"


def _secret_args(args: Mapping[str, Any], given: Mapping[str, Any], option: str) -> dict[str, Any]:
    """A model's arguments with those given again (`given`, the retry's `-M`) in place, and
    any key the log holds only as redacted left out (the provider then reads its variable).

    Raises:
        OptionError: An argument the log holds redacted that has no variable to fall back on
            (headers) and is not given again: sent as logged, it would carry the placeholder.
    """
    kept = {
        name: value
        for name, value in args.items()
        if not (is_secret_name(name) and REDACTED in str(value))
    }
    missing = [n for n, v in kept.items() if REDACTED in str(v) and n not in given]
    if missing:
        raise OptionError(
            f"the log keeps {', '.join(missing)} redacted: give it again "
            f"({_given_as(option, missing[0])}=...)"
        )
    return {**kept, **given}


LOCAL_PROVIDERS = frozenset(
    {"embedded", "hf", "vllm", "sglang", "transformer_lens", "mockllm", "none", "system"}
)
"""Providers that run the model here, needing no key (resolving them may load a model)."""


def _check_model(model: str, config: Connection, option: str) -> None:
    """Check that a model can be had again now, before any work: a log keeps no key, so a
    run made with `-M api_key=...` needs it given again (or the provider's variable set)."""
    if writes_nothing(model) or model.split("/")[0] in LOCAL_PROVIDERS:
        return
    try:
        resolve_model(model, config, option=option)
    except OptionError as ex:
        raise OptionError(
            f"{ex} (a log keeps no key: set the provider's key variable, or give the key "
            f"again: {_given_as(option, 'api_key')} set to it)"
        ) from None


def _with_keys(
    log: EvalLog, model_args: Mapping[str, Any], role_args: Mapping[str, list[str]]
) -> EvalLog:
    """The log's models with the keys it does not keep given again, each model checked."""
    spec = log.eval
    args = _secret_args(spec.model_args, model_args, "-M")
    base = Connection(base_url=spec.model_base_url, args=args, config=spec.model_generate_config)
    _check_model(spec.model, base, "-M")
    roles: dict[str, ModelConfig | list[ModelConfig]] | None = None
    if spec.model_roles:
        roles = {}
        for role, config in spec.model_roles.items():
            given = parse_model_args(role_args.get(role, []), "--role-arg")
            updated = []
            for one in config if isinstance(config, list) else [config]:
                role_model_args = _secret_args(one.args, given, f"--role-arg {role}:")
                via = Connection(base_url=one.base_url, args=role_model_args, config=one.config)
                _check_model(one.model, via, f"--role-arg {role}:")
                updated.append(one.model_copy(update={"args": role_model_args}))
            roles[role] = updated if isinstance(config, list) else updated[0]
    return log.model_copy(
        update={"eval": spec.model_copy(update={"model_args": args, "model_roles": roles})}
    )


def _message_text(value: str | list[ChatMessage]) -> str:
    if isinstance(value, str):
        return value
    return "\n".join(f"{m.role}: {m.text}" for m in value)


def _changed_samples(samples: Sequence[EvalSample], task: Task) -> list[str]:
    """Finished samples whose input or target the data gives otherwise now."""
    now = {str(s.id): s for s in task.dataset}
    changed = []
    for sample in samples:
        if sample.error is not None:
            continue
        current = now.get(str(sample.id))
        if current is None:
            changed.append(f"sample {str(sample.id)[:40]} is no longer in the data")
        elif _message_text(current.input) != _message_text(sample.input) or str(
            current.target
        ) != str(sample.target):
            changed.append(f"sample {str(sample.id)[:40]} reads otherwise in the data now")
        if len(changed) >= 3:
            break
    return changed


def _tail(value: str, limit: int = 120) -> str:
    """A path shown whole up to `limit` characters, else its end (the file's name)."""
    return value if len(value) <= limit else f"...{value[-(limit - 3) :]}"


def changed_inputs(old: RunFacts, new: RunFacts, args: Mapping[str, Any]) -> list[str]:
    """What the task read (`new`: the facts of a task made again) that differs from what the
    run read (`old`: its log's)."""
    changed = []
    old_files = old.inputs.files if old.inputs else {}
    new_files = new.inputs.files if new.inputs else {}
    for name, fingerprint in old_files.items():
        if new_files.get(name) != fingerprint:
            value = args.get(name.split("[")[0])
            # The path is the culprit, not an aside: never in parentheses a long message drops.
            shown = f" {_tail(value)}" if isinstance(value, str) else ""
            what = "is gone" if name not in new_files else "changed"
            changed.append(f"{name.replace('_', ' ')}{shown} {what}")
    if not old_files:  # a log that predates the fingerprint of each input
        for what, was, now in (
            ("dataset", old.dataset_fingerprint, new.dataset_fingerprint),
            ("responses", old.responses_fingerprint, new.responses_fingerprint),
        ):
            if was != now:
                changed.append(f"the {what} changed")
    for name, digest in old.prompts.items():
        if new.prompts.get(name) != digest:
            changed.append(f"the {name} prompt changed (a prompt file, or the packaged one)")
    return changed


def prepare_retry(
    path: str | Path,
    *,
    force: bool,
    model_args: Mapping[str, Any] | None = None,
    role_args: Mapping[str, list[str]] | None = None,
) -> Resumed:
    """A log made ready for inspect's eval-retry, checked before any work.

    Args:
        path: The log.
        force: Run every sample again when the inputs changed (default: refuse).
        model_args: Model arguments given again (`-M api_key=...`), e.g. a key the log
            does not keep.
        role_args: The same for roles (`--role-arg checker:api_key=...`).

    Raises:
        DataError: Not a log, a file the run read is missing, or (without `force`) the
            data, a prompt or a template changed since the run (naming it).
        OptionError: A model cannot be had now (e.g. its key is missing).
    """
    log = read_log(path)
    entry = benchmark_of(log)
    args = dict(log.eval.task_args_passed or {})
    if entry is not None:
        for folder in _run_folders(log, path):  # the first folder holding a path anchors it
            args = anchored(entry.settings, args, folder)
    log = _with_keys(log, model_args or {}, role_args or {})
    changed: list[str] = []
    task: Task | None = None
    if entry is not None:
        task = entry.implementation.make_task(args)
        changed = changed_inputs(RunFacts.of(log.eval.metadata), RunFacts.of(task.metadata), args)
        changed = changed or _changed_samples(log.samples or [], task)
    if changed and not force:
        more = f" (and {len(changed) - 1} more change)" if len(changed) > 1 else ""
        # The culprit first: the log is named by its file name.
        raise DataError(
            f"{changed[0]} since the run of {Path(path).name}{more}, whose finished samples "
            "came from the old one: restore it, or --force reruns every sample on the new one"
        )
    eval_spec = log.eval.model_copy(
        update={"task_args_passed": args, "task_args": {**log.eval.task_args, **args}}
    )
    update: dict[str, Any] = {"eval": eval_spec}
    if changed:
        update["samples"] = []
        if task is not None:
            eval_spec.dataset = eval_spec.dataset.model_copy(update={"samples": len(task.dataset)})
    return Resumed(log.model_copy(update=update), changed, rerun=bool(changed))


def later_logs(path: str | Path, folder: str | Path) -> list[EvalLog]:
    """Logs in `folder` that resume the run of `path` (the same task, created after it),
    oldest first, headers only."""
    header = read_log(path, header_only=True)
    task, created = header.eval.task_id, str(header.eval.created)  # `path` itself is not later
    same_task = [log for log in log_headers(folder, recursive=False) if log.eval.task_id == task]
    later = [log for log in same_task if str(log.eval.created) > created]
    return sorted(later, key=lambda log: str(log.eval.created))
