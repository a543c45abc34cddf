"""Which runs the report compares: runs on the same samples that differ in one thing (the
model, a judge, or a setting such as knowledge, not-sure or temperature; a run on outputs
written elsewhere against a model's run), each comparison named by that difference.
Identical reruns are not compared; runs that differ in two things at once are not either
(their difference has no single cause)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from medhalbench._paths import shown_model, shown_path
from medhalbench.report._settings import qualified, settings_of
from medhalbench.results import RunResult


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


def _differing(system: str, a: Mapping[str, str], b: Mapping[str, str]) -> list[Difference]:
    names = [name for name in dict.fromkeys([*a, *b]) if a.get(name) != b.get(name)]
    return [
        Difference(name.replace("_", " "), a.get(name, "none"), b.get(name, "none"))
        for name in names
        # A qualifier set in one run only goes with the setting it qualifies (k with evidence).
        if qualified(system, name) not in names
    ]


def differences(a: RunResult, b: RunResult) -> list[Difference]:
    """What two runs of one benchmark differ in: what made the replies (the model, and how
    it made them where both runs generated theirs; a run on outputs written elsewhere is
    set against a model's run by the model alone), the judges, and what the benchmark asked."""
    sa, sb = settings_of(a), settings_of(b)
    found = (
        [Difference("model", shown_model(a.model), shown_model(b.model))]
        if a.model != b.model
        else []
    )
    if sa.written_elsewhere is None and sb.written_elsewhere is None:
        found += _differing(a.system, sa.replies, sb.replies)
    elif a.model == b.model and sa.written_elsewhere != sb.written_elsewhere:
        found.append(
            Difference("outputs", _file(sa.written_elsewhere), _file(sb.written_elsewhere))
        )
    found += _differing(a.system, sa.judges, sb.judges)
    found += _differing(a.system, sa.condition, sb.condition)
    return found


def _file(path: str | None) -> str:
    return shown_path(path) if path else "generated"


def same_samples(a: RunResult, b: RunResult) -> bool:
    """Whether two runs are of one benchmark on the same samples."""
    return a.system == b.system and settings_of(a).samples == settings_of(b).samples


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
    if value == "none":  # a setting left out (closed-book) comes first
        return (-1, 0.0, "")
    try:
        return (0, float(value), "")
    except ValueError:
        return (1, 0.0, value)
