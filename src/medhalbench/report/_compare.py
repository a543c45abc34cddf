"""Comparing two runs on the same samples: paired differences of the headline figures with
paired-bootstrap intervals and permutation p-values, and McNemar's exact test on
per-sample correctness for the detection tasks."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.scorer import SampleScore

from medhalbench._errors import DataError
from medhalbench.registry import KeyFigure, benchmark_of
from medhalbench.report._contrasts import differences
from medhalbench.report._export import csv_frame, markdown
from medhalbench.report._multiple import holm
from medhalbench.report._settings import settings_of
from medhalbench.report._summary import run_names
from medhalbench.results import (
    Column,
    Estimate,
    ResultTable,
    read_log,
    run_record,
    run_result,
    sample_scores,
)
from medhalbench.settings import ComparisonFormat
from medhalbench.statistics import (
    BOOTSTRAP_SEED,
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
        a: Run A, named by its model and the settings that set it apart from B.
        b: Run B.
        logs: The two log files.
        differs: What differs between the runs ("knowledge: no vs yes"), or that nothing does.
        matched: Samples scored in both runs.
        only_a: Samples scored in A only (left out, and reported).
        only_b: Samples scored in B only.
        differences: Each headline figure's paired difference (A - B).
        mcnemar: McNemar's exact test on per-sample correctness (detection tasks).
        adjusted: Holm-adjusted p-values of `tests`, in their order, over `family`.
        family: What the adjustment is over ("the 4 tests of this comparison").
    """

    system: str
    a: str
    b: str
    logs: tuple[str, str]
    differs: str
    matched: int
    only_a: int
    only_b: int
    differences: list[PairedDifference]
    mcnemar: McNemar | None
    adjusted: tuple[float, ...] = ()
    family: str = ""

    @property
    def tests(self) -> list[float]:
        """The p-values of the comparison: each figure's, then McNemar's."""
        return [d.p_value for d in self.differences] + (
            [self.mcnemar.p_value] if self.mcnemar else []
        )

    def adjusted_over(self, adjusted: Sequence[float], family: str) -> Comparison:
        """The comparison with its p-values adjusted over a larger family of tests."""
        return replace(self, adjusted=tuple(adjusted), family=family)


def _read(path: str | Path) -> EvalLog:
    log = read_log(path)
    if benchmark_of(log) is None:
        raise DataError("not a log of a medhalbench task", path=path)
    return log


def _scores(log: EvalLog) -> dict[tuple[Any, int], tuple[SampleScore, EvalSample]]:
    entry = benchmark_of(log)
    assert entry is not None  # `_read` checked it
    return sample_scores(log, entry.implementation.scorer_name)


def compare_logs(
    log_a: str | Path | EvalLog,
    log_b: str | Path | EvalLog,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
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
    scores_a, scores_b = _scores(a), _scores(b)
    keys = [k for k in scores_a if k in scores_b]
    if not keys:
        raise DataError(
            "the two logs share no scored sample (they must be runs on the same samples)"
        )
    record = run_record(a)
    figures_a = entry.implementation.headline([scores_a[k][0] for k in keys], record)
    figures_b = {
        f.name: f for f in entry.implementation.headline([scores_b[k][0] for k in keys], record)
    }
    paired = [
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
    run_a, run_b = run_result(a), run_result(b)
    label_a, label_b = run_names([run_a, run_b], title=False)
    found = differences(run_a, run_b)
    sa, sb = settings_of(run_a), settings_of(run_b)
    # Named by what selected them and how many were scored (the ids' digest where only
    # the ids differ).
    selection = [
        f"{k.replace('_', ' ')} {sa.selection.get(k)} vs {sb.selection.get(k)}"
        for k in dict.fromkeys([*sa.selection, *sb.selection])
        if sa.selection.get(k) != sb.selection.get(k)
    ] or [
        f"{k.replace('_', ' ')} {sa.samples.get(k)} vs {sb.samples.get(k)}"
        for k in dict.fromkeys([*sa.samples, *sb.samples])
        if sa.samples.get(k) != sb.samples.get(k)
    ]
    comparison = Comparison(
        system=entry.title,
        a=label_a,
        b=label_b,
        logs=(Path(a.location).name, Path(b.location).name),
        differs="; ".join(map(str, found))
        or (
            f"only in their samples ({'; '.join(selection)}; compared on those both scored)"
            if selection
            else "nothing: the same settings (a rerun)"
        ),
        matched=len(keys),
        only_a=len(scores_a) - len(keys),
        only_b=len(scores_b) - len(keys),
        differences=paired,
        mcnemar=mcnemar,
    )
    tests = [p for p in comparison.tests if not math.isnan(p)]
    return comparison.adjusted_over(
        holm(comparison.tests), f"the {len(tests)} tests of this comparison"
    )


def overview_table(
    system: str, key: KeyFigure, comparisons: Sequence[Comparison], slug: str
) -> ResultTable:
    """A benchmark's comparisons in one compact table: a row per comparison (what differs;
    what both runs share, and what is run A's and run B's own, of their names), its key
    figure's difference A - B with its paired 95% interval and Holm-adjusted p-value,
    McNemar's Holm-adjusted p-value where the benchmark has it, and the samples both runs
    scored. Each comparison's every figure is in its own table."""
    mcnemar = any(c.mcnemar is not None for c in comparisons)
    undefined = "undefined in A or B"
    table = ResultTable(
        f"{system} comparisons: {system} {key.label} A - B on the samples both runs scored",
        slug,
        [
            Column("Comparison"), Column("Both runs"), Column("A"), Column("B"),
            Column(f"{key.label} A - B", undefined=undefined, interval=True),
            Column("p (Holm)", undefined=undefined),
            *([Column("McNemar p (Holm)", undefined="no sample")] if mcnemar else []),
            Column("Samples", digits=0),
        ],
    )  # fmt: skip
    for c in comparisons:
        adjusted = list(c.adjusted) or [math.nan] * len(c.tests)
        at = next((i for i, d in enumerate(c.differences) if d.name == key.ours), None)
        d = c.differences[at] if at is not None else None
        both, a, b = _shared(c.a, c.b)
        table.add(
            [
                c.differs, both, a, b,
                Estimate(d.difference, d.ci_low, d.ci_high) if d else None,
                adjusted[at] if at is not None else None,
                *([adjusted[-1] if c.mcnemar else None] if mcnemar else []),
                float(c.matched),
            ]
        )  # fmt: skip
    return table


def _shared(a: str, b: str) -> tuple[str, str, str]:
    """Two run names ("model · setting · ...") as the phrases both share, A's own and B's
    own."""
    pa, pb = a.split(" · "), b.split(" · ")
    both = [p for p in pa if p in pb]
    return (
        " · ".join(both),
        " · ".join(p for p in pa if p not in both),
        " · ".join(p for p in pb if p not in both),
    )


def comparison_table(comparison: Comparison) -> ResultTable:
    """A comparison as a table: each headline figure in A and B, A - B with its 95% paired
    interval, its p-value and the Holm-adjusted one, and McNemar's test as a last row;
    notes say which run is which, what the adjustment is over, and why an interval and a
    p-value that disagree do."""
    c = comparison
    table = ResultTable(
        f"{c.system}, {c.differs}: A = {c.a}; B = {c.b}",
        f"compare_{c.system.lower()}",
        [
            Column("Figure"),
            Column("A", undefined="see the runs' tables"),
            Column("B", undefined="see the runs' tables"),
            Column("A - B", undefined="undefined in A or B", interval=True),
            Column("p", undefined="undefined in A or B"),
            Column("p (Holm)", undefined="undefined in A or B"),
        ],
    )
    adjusted = list(c.adjusted) or [math.nan] * len(c.tests)
    for d, p in zip(c.differences, adjusted, strict=False):
        table.add([d.name, d.a, d.b, Estimate(d.difference, d.ci_low, d.ci_high), d.p_value, p])
    if c.mcnemar is not None:
        m = c.mcnemar
        table.add(
            [f"McNemar (right only in A: {m.a_only}, only in B: {m.b_only})", None, None, None,
             m.p_value, adjusted[-1]]
        )  # fmt: skip
    table.notes.append(
        f"{c.matched} samples scored in both runs (left out: {c.only_a} only in A, "
        f"{c.only_b} only in B). A: {c.logs[0]}; B: {c.logs[1]}."
    )
    if c.family:
        table.notes.append(
            f"p (Holm): adjusted for multiple comparisons over {c.family} (Holm's step-down "
            "method; reject where it is below 0.05 to keep the chance of any false finding "
            "among them at 5%)."
        )
    for d in c.differences:
        if d.disagree:
            table.notes.append(_disagreement(d))
    return table


def _disagreement(d: PairedDifference) -> str:
    excludes = d.ci_low > 0 or d.ci_high < 0
    coarse = (
        f" (with {d.clusters} clusters its smallest possible p is {2 / 2**d.clusters:.2g})"
        if d.clusters < 12
        else ""
    )
    return (
        f"{d.name}: the interval {'excludes' if excludes else 'includes'} 0 but p = "
        f"{d.p_value:.3f}. The interval resamples the {d.clusters} clusters (rows, questions "
        "or source items) with replacement; the p-value swaps A and B within each"
        f"{coarse}. With few clusters the bootstrap interval is too narrow and the two "
        "disagree: trust neither alone, and compare on more samples."
    )


def comparison_text(comparison: Comparison, fmt: ComparisonFormat) -> str:
    """A comparison as CSV, Markdown or JSON text (`text` is the terminal's table, printed
    by the command line)."""
    table = comparison_table(comparison)
    if fmt == "csv":
        return str(csv_frame(table).to_csv(index=False))
    if fmt == "markdown":
        return markdown([table])
    if fmt == "json":
        return json.dumps(json_safe(dataclasses.asdict(comparison)), indent=2) + "\n"
    raise ValueError(f"no text form for {fmt!r}: the terminal prints the table")


def json_safe(value: Any) -> Any:
    """A value made of dicts, lists and numbers as JSON holds it: NaN and infinities as
    null (undefined), tuples as lists."""
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value
