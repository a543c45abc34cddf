"""`medhalbench rescore`: a finished run's stored replies read again with the current verdict
reader, calling no model, so that figures before and after a change of the reader compare."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai import score
from inspect_ai.log import EvalLog, write_eval_log
from inspect_ai.scorer import Score

from medhalbench._errors import DataError
from medhalbench.commands._derive import settings_from
from medhalbench.commands._run import console
from medhalbench.commands._tables import print_table
from medhalbench.judging import reader_version
from medhalbench.registry import benchmark_of
from medhalbench.results import (
    Column,
    ResultTable,
    RunFacts,
    keep_every_figure,
    log_metrics,
    read_log,
    run_record,
    sample_scores,
)
from medhalbench.settings import RescoreRequest
from medhalbench.text import printable

NO_CALL = "mockllm/model"
"""The model a rescoring's task context holds: inspect's mock, as no scorer calls one."""


@dataclass(frozen=True)
class Rescored:
    """A log read again: the new log, and what changed.

    Attributes:
        log: The rescored log (not yet written).
        changed: Samples whose reading changed.
        samples: Samples read again.
        extracted: Samples an extractor model had read, now read by the strict reader alone.
        reader_before: The reader's version the run was read with (None: not recorded).
    """

    log: EvalLog
    changed: int
    samples: int
    extracted: int
    reader_before: str | None


def _scores(log: EvalLog, name: str) -> dict[tuple[str | int, int], Score]:
    return {key: scored.score for key, (scored, _) in sample_scores(log, name).items()}


def _reading(found: Score) -> tuple[Any, ...]:
    metadata = found.metadata or {}
    return found.value, found.answer, metadata.get("verdicts")


def _extracted(found: Score) -> bool:
    metadata = found.metadata or {}
    return metadata.get("read_by") == "extractor" or bool(metadata.get("read_by_extractor"))


def rescore_log(log: EvalLog) -> Rescored:
    """A benchmark run's log with its stored replies read again by the current reader.

    Raises:
        DataError: The log is no benchmark's, or holds no scored sample.
    """
    entry = benchmark_of(log)
    if entry is None or entry.implementation.rescorer is None:
        raise DataError("not a run of a benchmark that can be rescored", path=log.location)
    name = entry.implementation.scorer_name
    before = _scores(log, name)
    if not before:
        raise DataError("no scored sample to read again", path=log.location)
    scorer = entry.implementation.rescorer(run_record(log), before)
    # The log's models and roles are not made (no key is needed): nothing is called.
    bare = log.model_copy(update={"eval": log.eval.model_copy(update={"model_roles": None})})
    rescored = score(bare, [scorer], action="overwrite", display="none", model=NO_CALL)
    keep_every_figure(rescored)
    after = _scores(rescored, name)
    facts = RunFacts.of(log.eval.metadata)
    now = {"reader_version": reader_version(), "rescored_from": log.location}
    rescored.eval = log.eval.model_copy(update={"metadata": {**(log.eval.metadata or {}), **now}})
    return Rescored(
        rescored,
        changed=sum(_reading(before[k]) != _reading(after[k]) for k in before if k in after),
        samples=len(before),
        extracted=sum(map(_extracted, before.values())),
        reader_before=facts.reader_version,
    )


def _moved(before: EvalLog, after: EvalLog) -> ResultTable:
    """The figures a rescoring moved, before and after."""
    table = ResultTable(
        "Figures that moved",
        "rescored",
        [Column("figure", digits=0), Column("before"), Column("after")],
    )
    old, new = log_metrics(before), log_metrics(after)
    for figure, value in new.items():
        was = old.get(figure)
        undefined = math.isnan(value) and was is not None and math.isnan(was)
        if was != value and not undefined:
            table.add([figure, was, value])
    return table


def rescore_from_command_line(**values: Any) -> None:
    """`medhalbench rescore` from its options' values."""
    request = settings_from(RescoreRequest, values)
    path = Path(request.log)
    out = Path(request.out) if request.out else path.with_name(f"{path.stem}-rescored{path.suffix}")
    old = read_log(path)
    done = rescore_log(old)
    write_eval_log(done.log, str(out))
    version = done.reader_before or "not recorded"
    console.print(
        printable(
            f"Rescored {path} -> {out}: {done.changed} of {done.samples} samples read "
            f"differently (reader {version} -> {reader_version()}; no model called)."
        )
    )
    if done.extracted:
        console.print(
            f"{done.extracted} replies had been read by the extractor model: read by the "
            "strict reader alone now."
        )
    moved = _moved(old, done.log)
    if moved.rows:
        print_table(console, moved)
    else:
        console.print("No figure moved.")
