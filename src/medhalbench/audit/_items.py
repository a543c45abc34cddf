"""The judged items of logs, and the reproducible draw a person audits."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from medhalbench._errors import DataError
from medhalbench.registry import AuditItem, Benchmark, JudgeAudit, benchmark_of
from medhalbench.results import log_paths, read_log, run_result, run_title


@dataclass(frozen=True)
class AuditedLog:
    """A finished log of a benchmark whose judges can be audited, with all its judged items.

    Attributes:
        path: The log.
        entry: Its benchmark.
        items: Every judged item of every role.
        run: The run in words: benchmark, model, each role's model, dataset, settings.
    """

    path: str
    entry: Benchmark
    items: list[AuditItem]
    run: str = ""

    @property
    def audit(self) -> JudgeAudit:
        """The benchmark's audit."""
        assert self.entry.implementation.audit is not None
        return self.entry.implementation.audit

    @property
    def name(self) -> str:
        """The log's file name."""
        return Path(self.path).name


def audited_logs(paths: Sequence[str | Path]) -> list[AuditedLog]:
    """Read logs (files, or folders of them) for auditing.

    Raises:
        DataError: A path that does not exist, a folder without logs, a file that is no
            log, a log of no benchmark or of one whose judge cannot be audited, or an
            unfinished log.
    """
    found = []
    for path in log_paths(paths):
        log = read_log(path)
        entry = benchmark_of(log)
        if entry is None:
            raise DataError(f"a log of {log.eval.task}, no medhalbench benchmark", path=path)
        if entry.implementation.audit is None:
            raise DataError(f"{entry.title} offers no judge audit", path=path)
        if log.status != "success":
            raise DataError(
                f"the run is {log.status}: finish it first (medhalbench retry)", path=path
            )
        result = run_result(log)
        items = [
            item
            for sample in log.samples or []
            for item in entry.implementation.audit.items(sample, result.record)
        ]
        run = run_title(entry.title, result, entry.implementation.describe(result.record))
        found.append(AuditedLog(path, entry, items, run))
    return found


def draw(items: Sequence[AuditItem], count: int, seed: int) -> list[AuditItem]:
    """`count` items, the same for the same items and seed, stratified: the items of each
    role and judged verdict are shuffled with the seed, then taken in turn, so that every
    role and every verdict a judge gave (unread replies included) is offered."""
    strata: dict[tuple[str, str], list[AuditItem]] = defaultdict(list)
    for item in sorted(items, key=lambda i: i.key):
        strata[(item.role, item.verdict)].append(item)
    rng = random.Random(seed)
    queues = []
    for stratum in sorted(strata):
        queue = strata[stratum]
        rng.shuffle(queue)
        queues.append(queue)
    drawn: list[AuditItem] = []
    while len(drawn) < count and any(queues):
        for queue in queues:
            if queue and len(drawn) < count:
                drawn.append(queue.pop(0))
    return drawn
