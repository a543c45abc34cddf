"""What a run will cost before it runs: model calls and tokens per role, and dollars when the
user gives prices. Output tokens are counted at the max-token settings (an upper bound)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Annotated, Any

from annotated_types import Ge
from inspect_ai import Task
from inspect_ai.model import ChatMessage

from medhalbench._errors import DataError
from medhalbench.data import located, read_settings_file
from medhalbench.planning._tokens import MESSAGE_OVERHEAD, TOKENIZER_NAME, count_tokens
from medhalbench.results import MAIN_ROLE, Column, PlannedRole, ResultTable, TokenEstimate
from medhalbench.settings import Settings, SettingsError


@dataclass(frozen=True)
class RoleEstimate:
    """Calls and tokens of one model role, or of a part of its calls (`part`); `*_max` differ
    from the rest when the count depends on model replies (a builder's retries).

    Attributes:
        part: What part of the role's calls the row counts, where a role's calls are planned
            in parts (DAHL's paper column: "paper column"); empty for all of them.
        skipped_by: The option that skips the part's calls (`--no-paper-protocol`).
    """

    role: str
    calls: int
    input_tokens: int
    output_tokens: int
    calls_max: int | None = None
    input_tokens_max: int | None = None
    output_tokens_max: int | None = None
    model: str | None = None
    part: str = ""
    skipped_by: str = ""

    @property
    def upper(self) -> tuple[int, int, int]:
        """Calls, input and output tokens at most."""
        return (
            self.calls_max if self.calls_max is not None else self.calls,
            self.input_tokens_max if self.input_tokens_max is not None else self.input_tokens,
            self.output_tokens_max if self.output_tokens_max is not None else self.output_tokens,
        )


class Price(Settings):
    """Dollars per million input and output tokens."""

    input: Annotated[float, Ge(0)]
    """Dollars per million input tokens."""
    output: Annotated[float, Ge(0)]
    """Dollars per million output tokens."""


@dataclass
class Plan:
    """The plan of one evaluation or build."""

    title: str
    items: int
    roles: list[RoleEstimate]
    unit: str = "samples"

    def kept(self) -> TokenEstimate:
        """The plan as a run's log keeps it (the report sets it beside the actual usage): a
        role planned in parts as one, as its calls' usage is counted."""
        by_role: dict[str, PlannedRole] = {}
        for row in self.roles:
            kept = PlannedRole.model_validate(asdict(row))
            if (seen := by_role.get(row.role)) is not None:
                kept = PlannedRole(
                    role=row.role,
                    calls=seen.calls + kept.calls,
                    input_tokens=seen.input_tokens + kept.input_tokens,
                    output_tokens=seen.output_tokens + kept.output_tokens,
                )
            by_role[row.role] = kept
        return TokenEstimate(
            items=self.items, unit=self.unit, tokenizer=TOKENIZER_NAME, roles=list(by_role.values())
        )


def input_tokens(inputs: Sequence[str | list[ChatMessage]]) -> list[int]:
    """The tokens of each sample input: its text's, and each of its messages' formatting."""
    messages = [1 if isinstance(i, str) else len(i) for i in inputs]
    return [c + MESSAGE_OVERHEAD * m for c, m in zip(count_tokens(inputs), messages, strict=True)]


def task_plan(task: Task, model: str | None = None) -> RoleEstimate:
    """The model under test's calls and tokens for a task whose solver makes one call per
    sample and epoch: each sample's input tokenised, output at the task's max tokens."""
    samples = list(task.dataset)
    epochs = task.epochs or 1
    tokens = sum(input_tokens([s.input for s in samples]))
    max_tokens = task.config.max_tokens or 0
    return RoleEstimate(
        MAIN_ROLE, len(samples) * epochs, tokens * epochs, max_tokens * len(samples) * epochs,
        model=model,
    )  # fmt: skip


def read_prices(path: str | Path) -> dict[str, Price]:
    """Prices from a YAML or TOML file: `MODEL: {input: $/M tokens, output: $/M tokens}`.

    Raises:
        DataError: The file cannot be read or a price is missing or not a number.
    """
    try:
        return _read_prices(path)
    except DataError as ex:
        raise located(ex) from None


def _read_prices(path: str | Path) -> dict[str, Price]:
    raw = read_settings_file(path, what="price file")
    if not isinstance(raw, dict) or not raw:
        raise DataError("expected MODEL: {input: ..., output: ...} entries", path=path)
    prices = {}
    for model, entry in raw.items():
        if not isinstance(entry, dict):
            raise DataError(
                "needs numbers 'input' and 'output' (dollars per million tokens)",
                path=path, field=str(model),
            )  # fmt: skip
        try:
            prices[str(model)] = Price.of(entry)
        except SettingsError as ex:
            first, *rest = ex.problems
            raise DataError(
                "; ".join([first.reason, *(f"{model}.{p.setting}: {p.reason}" for p in rest)]),
                path=path,
                field=f"{model}.{first.setting}",
            ) from None
    return prices


def _cost(role: RoleEstimate, prices: Mapping[str, Price], upper: bool) -> float:
    price = prices.get(role.model or "")
    if price is None:
        return math.nan
    _, tokens_in, tokens_out = role.upper if upper else (0, role.input_tokens, role.output_tokens)
    return (tokens_in * price.input + tokens_out * price.output) / 1e6


def plan_cost(plan: Plan, prices: Mapping[str, Price]) -> float:
    """A plan's dollars at most (every role's calls, output at the max-token settings); NaN
    where a role's model has no price."""
    return sum(_cost(role, prices, True) for role in plan.roles)


def _span(low: int, high: int) -> str:
    return f"{low:,}" if low == high else f"{low:,}–{high:,}"


def plan_table(plan: Plan, prices: Mapping[str, Price] | None = None) -> ResultTable:
    """A plan as a table: a row per role, with its cost when the role's model has a price."""
    columns = [
        Column("Role"), Column("Model"), Column("Calls"), Column("Input tokens"),
        Column("Output tokens (at most)"),
    ]  # fmt: skip
    if prices is not None:
        columns.append(Column("Cost $", digits=2, undefined="no price for this model"))
    table = ResultTable(f"{plan.title}: {plan.items:,} {plan.unit}", "plan", columns)
    for role in plan.roles:
        calls, tokens_in, tokens_out = role.upper
        row: list[Any] = [
            f"{role.role} ({role.part})" if role.part else role.role, role.model or "",
            _span(role.calls, calls),
            _span(role.input_tokens, tokens_in), _span(role.output_tokens, tokens_out),
        ]  # fmt: skip
        if prices is not None:
            low, high = _cost(role, prices, False), _cost(role, prices, True)
            row.append(low if math.isnan(low) or low == high else f"{low:.2f}–{high:.2f}")
        table.add(row)
    skips = {(r.part, r.skipped_by): None for r in plan.roles if r.part and r.skipped_by}
    table.notes += [f"Rows ({part}): {option} skips their calls." for part, option in skips]
    return table
