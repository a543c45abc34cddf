"""DAHL score arithmetic: per-response factual precision and its mean, with exclusions."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from medhalbench.judging import TruthVerdict

ResponseStatus = Literal["scored", "declined", "no_units", "unknown_unit", "mismatch"]
EXCLUSIONS: tuple[ResponseStatus, ...] = ("declined", "no_units", "unknown_unit", "mismatch")

_LIST_MARKER = re.compile(r"^\s*(?:[-*•]+|\d+[.)]|\(\d+\))\s*")
_HEADER = re.compile(r"^\s*(?:sentences|separated sentences|facts?)\s*:\s*$", re.IGNORECASE)


def parse_units(splitter_output: str) -> list[str]:
    """Atomic units from the splitter's reply: one per non-blank line, list markers and
    a leading "SENTENCES:" header removed. Blank lines are not units."""
    units = []
    for line in splitter_output.splitlines():
        if not line.strip() or _HEADER.match(line):
            continue
        unit = _LIST_MARKER.sub("", line).strip()
        if unit:
            units.append(unit)
    return units


@dataclass(frozen=True)
class ResponseScore:
    """The judgement of one response.

    Attributes:
        status: `scored`, or why the response is left out of the DAHL score.
        units: Number of atomic units.
        true: Units judged true.
        false: Units judged false.
        unknown: Units judged neither.
        length: Characters in the (cleaned) response.
        category: The question's category.
    """

    status: ResponseStatus
    units: int
    true: int
    false: int
    unknown: int
    length: int
    category: str

    @property
    def precision(self) -> float | None:
        """True units over all units, for a scored response."""
        return self.true / self.units if self.status == "scored" and self.units else None


def judge_response(
    units: Sequence[str], verdicts: Sequence[TruthVerdict], *, length: int, category: str
) -> ResponseScore:
    """Combine a response's units and the checker's verdicts into its score."""
    true = sum(v == "true" for v in verdicts)
    false = sum(v == "false" for v in verdicts)
    unknown = len(verdicts) - true - false
    status: ResponseStatus
    if not units:
        status = "no_units"
    elif len(verdicts) != len(units):
        status = "mismatch"
    elif unknown:
        status = "unknown_unit"
    else:
        status = "scored"
    return ResponseScore(status, len(units), true, false, unknown, length, category)


def excluded_response(status: ResponseStatus, *, length: int, category: str) -> ResponseScore:
    """A response left out before any unit was checked (declined, or nothing to split)."""
    return ResponseScore(status, 0, 0, 0, 0, length, category)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def dahl_scores(responses: Sequence[ResponseScore]) -> dict[str, float]:
    """The DAHL figures of a set of judged responses.

    Returns:
        `dahl_score` (mean precision over scored responses), `responses`, `scored`,
        `excluded` and `excluded_<kind>` counts, `mean_units` and `mean_length`
        (characters) over scored responses, and `category/<name>` scores.
    """
    scored = [r for r in responses if r.status == "scored"]
    figures: dict[str, float] = {
        "dahl_score": _mean([r.precision or 0.0 for r in scored]),
        "responses": float(len(responses)),
        "scored": float(len(scored)),
        "excluded": float(len(responses) - len(scored)),
    }
    for kind in EXCLUSIONS:
        figures[f"excluded_{kind}"] = float(sum(r.status == kind for r in responses))
    figures["mean_units"] = _mean([r.units for r in scored])
    figures["mean_length"] = _mean([r.length for r in scored])
    by_category: dict[str, list[float]] = defaultdict(list)
    for r in scored:
        by_category[r.category].append(r.precision or 0.0)
    for category in sorted(by_category):
        figures[f"category/{category}"] = _mean(by_category[category])
    return figures
