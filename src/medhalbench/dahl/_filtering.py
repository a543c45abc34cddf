"""`medhalbench dahl filter`: the builder's question checks applied to any question set."""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from medhalbench._errors import DataError
from medhalbench.arguments import BuildProtocol, LocalPath, Spelling
from medhalbench.dahl._filters import RULE_HELP, RULES, check_question
from medhalbench.data import read_rows
from medhalbench.registry import RoleModels
from medhalbench.results import Column, ResultTable


@dataclass(frozen=True)
class FilterRequest:
    """Apply the DAHL builder's question checks to any question set, naming each drop's rule.

    Keeps the questions that stand on their own; each dropped one is printed and written
    with the rule that dropped it.

    Examples:
        medhalbench dahl filter dahl_built/questions.csv --out kept

    Attributes:
        questions: A CSV or JSONL with a `question` column (e.g. DAHL's questions.csv).
        out: The CSV of kept rows (all columns of the input); the dropped rows, with their
            rule and the words it matched, go beside it as OUT.dropped.csv.
        protocol: 'ours' (the builder's checks) or 'paper' (the paper's three families).
        cases: Also drop references to a case report or its patient (with 'ours').
    """

    questions: Annotated[str, Spelling(positional=True), LocalPath(dir_okay=False, must_exist=True)]
    out: Annotated[str, LocalPath(dir_okay=False)]
    protocol: BuildProtocol = "ours"
    cases: bool = False


@dataclass
class FilterResult:
    """What the checks kept and dropped."""

    total: int = 0
    kept: int = 0
    dropped: list[dict[str, Any]] = field(default_factory=list)
    protocol: BuildProtocol = "ours"
    out: str = ""
    dropped_out: str = ""

    @property
    def by_rule(self) -> Counter[str]:
        """Dropped questions per rule."""
        return Counter(d["rule"] for d in self.dropped)

    def summary(self) -> list[str | ResultTable]:
        """Counts per rule, then every dropped question with its rule."""
        share = f"{len(self.dropped) / self.total:.2%}" if self.total else "–"
        counts = self.by_rule
        table = ResultTable(
            f"DAHL question checks ({self.protocol})",
            "dahl_filter",
            [Column("rule"), Column("dropped", digits=0), Column("what it catches")],
        )
        for rule in RULES[self.protocol]:
            if counts.get(rule) or rule != "case_reference":
                table.add([rule, counts.get(rule, 0), RULE_HELP[rule]])
        lines: list[str | ResultTable] = [
            f"Questions: {self.total}; kept {self.kept} -> {self.out}; dropped "
            f"{len(self.dropped)} ({share}) -> {self.dropped_out}",
            table,
        ]
        lines += [f"{d['rule']}: {d['matched']!r}: {_short(d['question'])}" for d in self.dropped]
        return lines


def _short(text: str, width: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def dropped_path(out: str | Path) -> Path:
    """Where the dropped rows of `out` go: `KEPT.dropped.csv` beside it."""
    path = Path(out)
    return path.with_name(f"{path.stem}.dropped{path.suffix or '.csv'}")


def filter_questions(
    source: str | Path, out: str | Path, protocol: BuildProtocol = "ours", *, cases: bool = False
) -> FilterResult:
    """Check every question of a file; write the kept rows to `out` and the dropped ones
    (with `rule`, `matched`) beside it.

    Raises:
        DataError: The file cannot be read or a row has no question.
    """
    rows = list(read_rows(source))
    result = FilterResult(protocol=protocol, out=str(out), dropped_out=str(dropped_path(out)))
    kept: list[dict[str, Any]] = []
    columns: list[str] = []
    for line, row in rows:
        question = row.get("question")
        if not isinstance(question, str) or not question.strip():
            raise DataError("no question", path=source, line=line, field="question")
        columns += [c for c in row if c not in columns]
        match = check_question(question, protocol, cases=cases)
        if match is None:
            kept.append(row)
        else:
            result.dropped.append({**row, "rule": match.rule, "matched": match.matched})
    result.total, result.kept = len(rows), len(kept)
    _write(Path(out), columns, kept)
    _write(dropped_path(out), [*columns, "rule", "matched"], result.dropped)
    return result


def _write(path: Path, columns: list[str], rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


def run_filter(request: FilterRequest, models: RoleModels) -> FilterResult:
    """`medhalbench dahl filter QUESTIONS --out KEPT.csv`."""
    return filter_questions(request.questions, request.out, request.protocol, cases=request.cases)
