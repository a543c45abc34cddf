"""Collecting our systems' results and provenance from inspect logs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog

from medhalbench._errors import DataError
from medhalbench._paths import shown_model, shown_path
from medhalbench.registry import DATASET, benchmark_of, benchmarks
from medhalbench.report._settings import applied, phrase, shown_setting
from medhalbench.results import (
    RunResult,
    benchmark_name,
    local_path,
    log_paths,
    log_roles,
    read_log,
    run_record,
    run_result,
    setting_text,
)


@dataclass
class Provenance:
    """What stands behind one log's numbers.

    Attributes:
        system: The benchmark's registry name.
        model: The model under test.
        task: The task's name.
        log: The log file, its path as the run's log lists it.
        status: The log's status.
        created: When the run was made.
        dataset: The data judged (a local file or folder, or a hub id).
        dataset_fingerprint: Its content hash (a hub id's: the id).
        prompts: The hash of each prompt the run sent, by its name.
        roles: Each role's model.
        settings: The settings that applied to the run (`applied`), its data left out (it
            has a column of its own).
    """

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
        """The task's settings given a value, as "name value" phrases (a local path as
        `shown_path` shows it)."""
        return " · ".join(
            phrase(k, shown_setting(self.system, k, setting_text(v)))
            for k, v in self.settings.items()
            if v not in (None, [])
        )

    @property
    def shown_model(self) -> str:
        """The model under test, a local file it names shown as paths are."""
        return shown_model(self.model)

    @property
    def shown_dataset(self) -> str:
        """The data judged, a local one as paths are shown ("–": none)."""
        return shown_path(self.dataset) if self.dataset else "–"

    @property
    def shown_log(self) -> str:
        """The log, as paths are shown."""
        return shown_path(self.log)

    def paths(self) -> dict[str, str]:
        """Each local path this run's provenance shows shortened, whole, by its shortened
        form (for a page to show it whole on hover): its log, data, settings and the files
        its models are."""
        given = [self.log, self.dataset, *self.settings.values()]
        found = [v for v in given if isinstance(v, str)]
        found += [m.partition("/")[2] for m in [self.model, *self.roles.values()]]
        return {shown_path(p): p for p in found if p and shown_path(p) != p}


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
    record = run_record(log)
    system = benchmark_name(log.eval.task)
    roles = log_roles(log)
    # Only what applied to the run: no generation setting for outputs written elsewhere,
    # no hub config or split for one local file, no `evidence_k` without evidence.
    settings = {k: v for k, v in applied(system, record, roles).items() if k != DATASET}
    return Provenance(
        system=system, model=log.eval.model, task=log.eval.task, log=local_path(log.location),
        status=log.status, created=str(log.eval.created), dataset=record.data.dataset,
        dataset_fingerprint=record.facts.dataset_fingerprint, prompts=record.facts.prompts,
        roles=roles, settings=settings,
    )  # fmt: skip


def collect(paths: Sequence[str | Path]) -> CollectedResults:
    """Read logs of any of our tasks; files that are no readable log, logs of other tasks
    and unfinished runs are skipped and listed."""
    results = CollectedResults()
    finished: dict[str, EvalLog] = {}
    for path in log_paths(paths):
        try:
            log = read_log(path, header_only=True)
        except DataError as ex:  # a truncated or foreign file: left out, and said so
            results.unreadable.append(f"{path} ({ex.reason})")
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
