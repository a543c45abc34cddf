"""Collecting our systems' results and provenance from inspect logs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log

from medhalbench.registry import benchmark_of, benchmarks
from medhalbench.results import (
    RunResult,
    benchmark_name,
    log_paths,
    log_roles,
    run_result,
    setting_text,
)


@dataclass
class Provenance:
    """What stands behind one log's numbers."""

    system: str
    model: str
    task: str
    log: str
    status: str
    created: str
    dataset: str | None
    dataset_fingerprint: str | None
    prompts: dict[str, str]
    roles: dict[str, str]
    settings: dict[str, Any]

    @property
    def settings_text(self) -> str:
        """The task's settings given a value, as "name value" phrases."""
        return " · ".join(
            f"{k.replace('_', ' ')} {setting_text(v)}"
            for k, v in self.settings.items()
            if v is not None and v != []
        )


@dataclass
class CollectedResults:
    """Results of every system found in a set of logs."""

    runs: list[RunResult] = field(default_factory=list)
    provenance: list[Provenance] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)

    def of(self, system: str) -> list[RunResult]:
        """The runs of one benchmark, in log order."""
        return [r for r in self.runs if r.system == system]


def _provenance(log: EvalLog) -> Provenance:
    metadata = log.eval.metadata or {}
    settings = {k: v for k, v in (log.eval.task_args or {}).items() if k != "dataset"}
    return Provenance(
        system=benchmark_name(log.eval.task), model=log.eval.model, task=log.eval.task, log=Path(log.location).name,
        status=log.status, created=str(log.eval.created), dataset=metadata.get("dataset"),
        dataset_fingerprint=metadata.get("dataset_fingerprint"), prompts=dict(metadata.get("prompts") or {}),
        roles=log_roles(log), settings=settings,
    )  # fmt: skip


def collect(paths: Sequence[str | Path]) -> CollectedResults:
    """Read logs of any of our tasks; files that are no readable log, logs of other tasks
    and unfinished runs are skipped and listed."""
    results = CollectedResults()
    finished: dict[str, EvalLog] = {}
    for path in log_paths(paths):
        try:
            log = read_eval_log(path, header_only=True)
        except Exception as ex:  # a truncated or foreign file: left out, and said so
            results.unreadable.append(
                f"{path} (not an inspect log, or a cut-off one: {type(ex).__name__})"
            )
            continue
        if benchmark_of(log) is None:
            results.skipped.append(f"{path} (not a medhalbench task)")
        elif log.status != "success":
            results.skipped.append(f"{path} ({log.status})")
        else:
            # A run finished by `retry` keeps its task id: count it once, as its latest log.
            earlier = finished.get(log.eval.task_id)
            if earlier is not None:
                older, log = sorted((earlier, log), key=lambda x: str(x.eval.created))
                results.skipped.append(f"{older.location} (superseded by {log.location})")
            finished[log.eval.task_id] = log
    # In the order the runs were made, benchmark by benchmark (the registry's order).
    order = {entry.name: i for i, entry in enumerate(benchmarks())}
    for log in sorted(
        finished.values(),
        key=lambda x: (order[benchmark_name(x.eval.task)], str(x.eval.created)),
    ):
        results.runs.append(run_result(log))
        results.provenance.append(_provenance(log))
    return results
