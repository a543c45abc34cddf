"""Arguments read from signatures and dataclasses: types, defaults, choices, ranges, help,
and one check for every way a value arrives (text from a command line, YAML values)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Annotated, Literal

import pytest

from medhalbench.arguments import (
    MAX_WHOLE,
    REQUIRED,
    ArgumentError,
    Count,
    Internal,
    Parse,
    Range,
    Temperature,
    arguments_of,
    check_arguments,
    checked,
    construct,
)


def pair(text: str) -> tuple[str, str]:
    name, _, value = text.partition("=")
    if not value:
        raise ValueError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def sample_task(
    dataset: str,
    limit: Count | None = None,
    pairing: Literal["both", "random"] = "both",
    difficulty: list[Literal["easy", "hard"]] | None = None,
    temperature: Temperature = 0.3,
    knowledge: bool = False,
) -> dict[str, object]:
    """A task.

    Args:
        dataset: Where the rows are.
        limit: Use the first N rows,
            two samples each.
        pairing: Both answers or one.
        difficulty: Keep these.
        temperature: Sampling temperature.
        knowledge: Give the context.
    """
    return dict(locals())


@dataclass(frozen=True)
class Knobs:
    """Knobs.

    Attributes:
        attempts: Tries.
        spread: Internal.
    """

    attempts: Count = 5
    spread: Annotated[tuple[float, float], Internal()] = (0.3, 0.7)


@dataclass(frozen=True)
class Request:
    """Build things.

    Attributes:
        source: NAME=PATH.
        knobs: The knobs.
        concurrency: In flight.
    """

    source: Annotated[list[tuple[str, str]], Parse(pair, "NAME=VALUE")]
    knobs: Knobs = field(default_factory=Knobs)
    concurrency: Count = 4


def test_a_signature_gives_types_defaults_choices_ranges_and_help() -> None:
    found = {a.name: a for a in arguments_of(sample_task)}
    assert list(found) == ["dataset", "limit", "pairing", "difficulty", "temperature", "knowledge"]
    assert found["dataset"].required and found["dataset"].default is REQUIRED
    assert (
        found["limit"].kind is int
        and found["limit"].optional
        and found["limit"].range == Range(min=1, max=MAX_WHOLE)
    )
    assert found["limit"].help == "Use the first N rows, two samples each."
    assert found["pairing"].choices == ("both", "random") and found["pairing"].default == "both"
    assert found["difficulty"].many and found["difficulty"].choices == ("easy", "hard")
    assert found["temperature"].flag == "--temperature" and found["knowledge"].kind is bool


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("limit", "3", 3), ("limit", 3, 3), ("limit", 3.0, 3), ("limit", None, None),
        ("temperature", "0.5", 0.5), ("temperature", 1, 1.0), ("knowledge", "yes", True),
        ("knowledge", False, False), ("pairing", "random", "random"),
        ("difficulty", "easy, hard", ["easy", "hard"]), ("difficulty", ["hard"], ["hard"]),
    ],
)  # fmt: skip
def test_values_are_converted_whichever_way_they_came(
    name: str, value: object, expected: object
) -> None:
    assert check_arguments(sample_task, {"dataset": "d", name: value})[name] == expected


@pytest.mark.parametrize(
    ("name", "value", "reason"),
    [
        ("limit", -4, "not in the range 1<=x<=2147483647"), ("limit", "0", "not in the range 1<="),
        ("limit", "many", "expected a whole number"), ("limit", True, "expected a whole number"),
        ("limit", 2.5, "expected a whole number"), ("temperature", 7, "not in the range 0<=x<=2"),
        ("temperature", "hot", "expected a number"), ("temperature", math.nan, "finite"),
        ("temperature", "inf", "finite"), ("pairing", "some", "not one of both, random"),
        ("difficulty", "easy,extreme", "not one of easy, hard"), ("knowledge", "perhaps", "true or false"),
        ("dataset", 12, "expected text"), ("colour", "red", "no such argument"),
    ],
)  # fmt: skip
def test_a_bad_value_names_the_argument_and_why(name: str, value: object, reason: str) -> None:
    with pytest.raises(ArgumentError, match=reason) as caught:
        check_arguments(sample_task, {"dataset": "d", name: value})
    assert caught.value.argument == name


def test_a_required_argument_missing_is_named() -> None:
    with pytest.raises(ArgumentError, match="is required") as caught:
        check_arguments(sample_task, {"limit": 2})
    assert caught.value.argument == "dataset"


def test_a_checked_function_refuses_bad_values_however_it_is_called() -> None:
    wrapped = checked(sample_task)
    assert wrapped("d", "2")["limit"] == 2  # positional, text
    assert wrapped(dataset="d", temperature="1.5")["temperature"] == 1.5
    with pytest.raises(ArgumentError, match="limit"):
        wrapped("d", limit=-4)


def test_a_settings_dataclass_with_nested_settings_is_built_from_flat_values() -> None:
    names = [(a.name, a.group) for a in arguments_of(Request)]
    assert names == [
        ("source", None),
        ("attempts", "knobs"),
        ("concurrency", None),
    ]  # spread: internal
    built = construct(Request, {"source": ["a=1", "b=2"], "attempts": "3"})
    assert built == Request(source=[("a", "1"), ("b", "2")], knobs=Knobs(attempts=3))
    assert construct(Request, {"source": "a=1"}).knobs == Knobs()
    with pytest.raises(ArgumentError, match="expected NAME=VALUE"):
        construct(Request, {"source": ["nothing"]})
    with pytest.raises(ArgumentError, match="attempts"):
        construct(Request, {"source": ["a=1"], "attempts": 0})


def test_numbers_a_provider_cannot_take_are_refused_naming_the_option(
    warm_cli: list[str],
) -> None:
    import subprocess

    for option, value in (("--max-tokens", "1000000000000"), ("--reply-seed", str(2**70))):
        result = subprocess.run(
            [*warm_cli, "eval", "medhallu", option, value, "--dry-run"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert result.returncode == 2 and option in result.stderr, result.stderr
        assert "2147483647" in result.stderr and "Traceback" not in result.stderr


def test_a_task_argument_given_twice_is_refused_naming_both(warm_cli: list[str]) -> None:
    import subprocess

    from medhalbench.examples import illustrative

    data = illustrative("medhallu_illustrative.jsonl")
    base = [*warm_cli, "eval", "medhallu", "--dataset", data, "--dry-run"]
    both = subprocess.run([*base, "-T", "limit=2", "--limit", "3"], capture_output=True, text=True)
    assert both.returncode == 2 and "-T limit=... and --limit both set limit" in both.stderr
    alone = subprocess.run([*base, "-T", "limit=2"], capture_output=True, text=True)
    assert alone.returncode == 0, alone.stderr


def test_a_float_option_refuses_nan_and_infinity(warm_cli: list[str]) -> None:
    import subprocess

    from medhalbench.examples import illustrative

    for value in ("nan", "inf", "-inf"):
        result = subprocess.run(
            [*warm_cli, "eval", "medhallu", "--dataset", illustrative("medhallu_illustrative.jsonl"),
             "--batch-delay", value, "--dry-run"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert result.returncode == 2 and "--batch-delay" in result.stderr, result.stderr
        assert "finite" in result.stderr or "range" in result.stderr
