"""Comparing two runs on the same samples: paired differences of the headline figures with
paired-bootstrap intervals and permutation p-values, and McNemar's exact test on
per-sample correctness for the detection tasks."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from inspect_ai.scorer import SampleScore

from medhalbench._errors import DataError
from medhalbench.registry import benchmark_of
from medhalbench.results import Column, Estimate, ResultTable
from medhalbench.statistics import (
    DEFAULT_RESAMPLES,
    McNemar,
    PairedDifference,
    mcnemar_exact,
    paired_difference,
)


@dataclass(frozen=True)
class Comparison:
    """Run A against run B on the samples both scored.

    Attributes:
        system: The benchmark.
        a: Run A (model and log file).
        b: Run B.
        matched: Samples scored in both runs.
        only_a: Samples scored in A only (left out, and reported).
        only_b: Samples scored in B only.
        differences: Each headline figure's paired difference (A - B).
        mcnemar: McNemar's exact test on per-sample correctness (detection tasks).
    """

    system: str
    a: str
    b: str
    matched: int
    only_a: int
    only_b: int
    differences: list[PairedDifference]
    mcnemar: McNemar | None


def _read(path: str | Path) -> EvalLog:
    try:
        log = read_eval_log(str(path))
    except FileNotFoundError:
        raise DataError("no such log file", path=path) from None
    except Exception as ex:
        raise DataError(f"not an inspect log ({type(ex).__name__})", path=path) from None
    if benchmark_of(log) is None:
        raise DataError("not a log of a medhalbench task", path=path)
    return log


def _scores(log: EvalLog) -> dict[tuple[Any, int], tuple[SampleScore, EvalSample]]:
    entry = benchmark_of(log)
    assert entry is not None  # `_read` checked it
    name = entry.scorer_name
    scored = {}
    for sample in log.samples or []:
        score = (sample.scores or {}).get(name)
        if score is not None:
            scored[(sample.id, sample.epoch)] = (
                SampleScore(score=score, sample_id=sample.id, sample_metadata=sample.metadata),
                sample,
            )
    return scored


def compare_logs(
    log_a: str | Path | EvalLog,
    log_b: str | Path | EvalLog,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> Comparison:
    """Compare two runs of one benchmark, sample by sample (matched by sample id and epoch).

    Raises:
        DataError: A log cannot be read, is not of our tasks, the two are of different
            benchmarks, or they share no scored sample.
    """
    a = log_a if isinstance(log_a, EvalLog) else _read(log_a)
    b = log_b if isinstance(log_b, EvalLog) else _read(log_b)
    entry, other = benchmark_of(a), benchmark_of(b)
    assert entry is not None and other is not None  # `_read` checked both
    if entry is not other:
        raise DataError(f"the logs are of different benchmarks ({entry.name} and {other.name})")
    system = entry.name
    scores_a, scores_b = _scores(a), _scores(b)
    keys = [k for k in scores_a if k in scores_b]
    if not keys:
        raise DataError(
            "the two logs share no scored sample (they must be runs on the same samples)"
        )
    settings = a.eval.metadata or {}
    figures_a = entry.headline([scores_a[k][0] for k in keys], settings)
    figures_b = {f.name: f for f in entry.headline([scores_b[k][0] for k in keys], settings)}
    differences = [
        paired_difference(f, figures_b[f.name], resamples=resamples, seed=seed)
        for f in figures_a
        if f.name in figures_b
    ]
    mcnemar = None
    if entry.paired_correctness:
        mcnemar = mcnemar_exact(
            [scores_a[k][0].score.value == 1 for k in keys],
            [scores_b[k][0].score.value == 1 for k in keys],
        )
    return Comparison(
        system=system,
        a=f"{a.eval.model} ({Path(a.location).name})",
        b=f"{b.eval.model} ({Path(b.location).name})",
        matched=len(keys),
        only_a=len(scores_a) - len(keys),
        only_b=len(scores_b) - len(keys),
        differences=differences,
        mcnemar=mcnemar,
    )


def comparison_table(comparison: Comparison) -> ResultTable:
    """A comparison as a table: each headline figure in A and B, A - B with its 95% paired
    interval and p-value, and McNemar's test as a last row."""
    table = ResultTable(
        f"{comparison.system}: A = {comparison.a} vs B = {comparison.b} "
        f"({comparison.matched} matched samples; unmatched: {comparison.only_a} in A, {comparison.only_b} in B)",
        f"compare_{comparison.system}",
        [
            Column("Figure"),
            Column("A", undefined="see the runs' tables"),
            Column("B", undefined="see the runs' tables"),
            Column("A - B", undefined="undefined in A or B", interval=True),
            Column("p", undefined="undefined in A or B"),
        ],
    )
    for d in comparison.differences:
        table.add([d.name, d.a, d.b, Estimate(d.difference, d.ci_low, d.ci_high), d.p_value])
    if comparison.mcnemar is not None:
        m = comparison.mcnemar
        table.add(
            [
                f"McNemar (right only in A: {m.a_only}, only in B: {m.b_only})",
                None,
                None,
                None,
                m.p_value,
            ]
        )
    return table
