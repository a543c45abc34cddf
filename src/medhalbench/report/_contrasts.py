"""Which runs the report compares: runs on the same samples that differ in one thing (the
model, a judge, or a setting such as knowledge, not-sure or temperature), each comparison
named by that difference. Identical reruns are not compared; runs that differ in two
things at once are not either (their difference has no single cause)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from medhalbench.registry import benchmark
from medhalbench.results import RunResult, setting_text

NOT_SETTINGS = ("dataset", "limit", "bootstrap", "cache")
"""Task arguments that do not change what a run measures (the data is compared by its
fingerprint; the bootstrap only sets the intervals)."""


@dataclass(frozen=True)
class Difference:
    """One thing two runs differ in.

    Attributes:
        name: The model, a role, or a task setting (`knowledge`).
        a: Its value in run A, as text.
        b: Its value in run B.
    """

    name: str
    a: str
    b: str

    def __str__(self) -> str:
        return f"{self.name}: {self.a} vs {self.b}"


def differences(a: RunResult, b: RunResult) -> list[Difference]:
    """What two runs of one benchmark differ in: model, judges and task settings (those that
    select the samples and those that do not change the measure left out)."""
    found = [Difference("model", a.model, b.model)] if a.model != b.model else []
    for role in sorted({*a.roles, *b.roles}):
        if a.roles.get(role) != b.roles.get(role):
            found.append(
                Difference(role, setting_text(a.roles.get(role)), setting_text(b.roles.get(role)))
            )
    skipped = {*benchmark(a.system).same_samples, *NOT_SETTINGS}
    for name in [*a.arguments, *(n for n in b.arguments if n not in a.arguments)]:
        value_a, value_b = a.arguments.get(name), b.arguments.get(name)
        if name not in skipped and value_a != value_b:
            found.append(
                Difference(name.replace("_", " "), setting_text(value_a), setting_text(value_b))
            )
    return found


def same_samples(a: RunResult, b: RunResult) -> bool:
    """Whether two runs are of one benchmark on the same samples."""
    return a.system == b.system and all(
        str(a.settings.get(k)) == str(b.settings.get(k)) for k in benchmark(a.system).same_samples
    )


@dataclass(frozen=True)
class Contrasts:
    """The pairs of runs the report compares, and what it leaves out.

    Attributes:
        pairs: Runs on the same samples that differ in one thing, with that difference.
        reruns: Pairs of identical runs (not compared).
        confounded: Pairs that differ in more than one thing (not compared).
    """

    pairs: list[tuple[RunResult, RunResult, Difference]]
    reruns: int
    confounded: int


def contrasts(runs: Sequence[RunResult]) -> Contrasts:
    """The paper-style contrasts among runs, in run order."""
    pairs, reruns, confounded = [], 0, 0
    for a, b in combinations(runs, 2):
        if not same_samples(a, b):
            continue
        found = differences(a, b)
        if not found:
            reruns += 1
        elif len(found) > 1:
            confounded += 1
        else:
            [d] = found
            if _order(d.b) < _order(d.a):  # A holds the lower value: 0.2 vs 0.8, no vs yes
                a, b, d = b, a, Difference(d.name, d.b, d.a)
            pairs.append((a, b, d))
    return Contrasts(pairs, reruns, confounded)


def _order(value: str) -> tuple[int, float, str]:
    try:
        return (0, float(value), "")
    except ValueError:
        return (1, 0.0, value)
