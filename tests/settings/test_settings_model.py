"""Settings models: each setting's flag, default, allowed values and help read off the model,
and one validation for every way a value arrives (text from a command line, YAML values),
naming every setting at fault at once."""

from __future__ import annotations

import math
from typing import Annotated, Literal

import pytest
from pydantic import PlainSerializer

from medhalbench.settings import (
    COMMA_SEPARATED,
    REQUIRED,
    Count,
    Internal,
    Settings,
    SettingsError,
    Temperature,
    options_of,
    parsed_text,
)


def pair(text: str) -> tuple[str, str]:
    name, _, value = text.partition("=")
    if not value:
        raise ValueError(f"expected NAME=VALUE, got {text!r}")
    return name, value


class Sample(Settings):
    """A task."""

    dataset: str
    """Where the rows are."""
    limit: Count | None = None
    """Use the first N rows,
    two samples each."""
    pairing: Literal["both", "random"] = "both"
    """Both answers or one."""
    difficulty: Annotated[list[Literal["easy", "hard"]] | None, COMMA_SEPARATED] = None
    """Keep these."""
    temperature: Temperature = 0.3
    """Sampling temperature."""
    knowledge: bool = False
    """Give the context."""


Pair = Annotated[tuple[str, str], parsed_text(pair), PlainSerializer(lambda p: f"{p[0]}={p[1]}")]


class Knobs(Settings):
    """Knobs."""

    attempts: Count = 5
    """Tries."""
    spread: Annotated[tuple[float, float], Internal()] = (0.3, 0.7)
    """Internal."""


class Request(Knobs):
    """Build things."""

    source: list[Pair]
    """NAME=PATH."""
    concurrency: Count = 4
    """In flight."""


def test_a_model_gives_types_defaults_choices_ranges_and_help() -> None:
    found = {o.name: o for o in options_of(Sample)}
    assert list(found) == ["dataset", "limit", "pairing", "difficulty", "temperature", "knowledge"]
    assert found["dataset"].required and found["dataset"].default is REQUIRED
    assert found["limit"].kind is int and found["limit"].optional
    assert found["limit"].bounds == "1<=x<=2147483647"
    assert found["limit"].help == "Use the first N rows, two samples each."
    assert found["pairing"].choices == ("both", "random") and found["pairing"].default == "both"
    assert found["difficulty"].many and found["difficulty"].choices == ("easy", "hard")
    assert found["difficulty"].comma_separated
    assert found["temperature"].flag == "--temperature" and found["knowledge"].kind is bool
    assert found["temperature"].bounds == "0<=x<=2"


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("limit", "3", 3), ("limit", 3, 3), ("limit", 3.0, 3), ("limit", None, None),
        ("temperature", "0.5", 0.5), ("temperature", 1, 1.0), ("knowledge", "yes", True),
        ("knowledge", False, False), ("pairing", "random", "random"),
        ("difficulty", "easy, hard", ["easy", "hard"]), ("difficulty", ["hard"], ["hard"]),
        ("difficulty", ["easy,hard"], ["easy", "hard"]),
    ],
)  # fmt: skip
def test_values_are_converted_whichever_way_they_came(
    name: str, value: object, expected: object
) -> None:
    assert getattr(Sample.of(dataset="d", **{name: value}), name) == expected


@pytest.mark.parametrize(
    ("name", "value", "reason"),
    [
        ("limit", -4, "greater than or equal to 1"), ("limit", "0", "greater than or equal to 1"),
        ("limit", "many", "valid integer"), ("limit", 2.5, "fractional part"),
        ("temperature", 7, "less than or equal to 2"), ("temperature", "hot", "valid number"),
        ("temperature", math.nan, "finite"), ("temperature", "inf", "finite"),
        ("pairing", "some", "'both' or 'random'"), ("difficulty", "easy,extreme", "'easy' or 'hard'"),
        ("knowledge", "perhaps", "valid boolean"), ("dataset", 12, "valid string"),
        ("colour", "red", "no such setting"),
    ],
)  # fmt: skip
def test_a_bad_value_names_the_setting_and_why(name: str, value: object, reason: str) -> None:
    with pytest.raises(SettingsError, match=reason) as caught:
        Sample.of({"dataset": "d", name: value})
    assert [p.setting for p in caught.value.problems] == [name]


def test_every_setting_at_fault_is_named_at_once() -> None:
    with pytest.raises(SettingsError) as caught:
        Sample.of(limit=0, pairing="x", temperature="hot")
    assert [p.setting for p in caught.value.problems] == [
        "dataset",
        "limit",
        "pairing",
        "temperature",
    ]
    assert caught.value.problems[0].reason == "is required"


def test_a_record_is_frozen_and_read_back_from_what_a_log_keeps() -> None:
    record = Request.of(source=["a=1", "b=2"], attempts="3")
    assert record.source == [("a", "1"), ("b", "2")] and record.attempts == 3
    assert record.stored()["source"] == ["a=1", "b=2"]
    assert Request.read(record.stored()) == record
    assert Request.read({**record.stored(), "from_another_version": 1}) == record
    with pytest.raises(Exception, match="frozen"):
        record.attempts = 4  # type: ignore[misc]
    assert [o.name for o in options_of(Request)] == ["source", "concurrency", "attempts"]
    with pytest.raises(SettingsError, match="expected NAME=VALUE"):
        Request.of(source=["nothing"])
    with pytest.raises(SettingsError, match="attempts"):
        Request.of(source=["a=1"], attempts=0)


def test_each_model_exports_its_json_schema() -> None:
    schema = Sample.model_json_schema()
    assert schema["required"] == ["dataset"] and schema["additionalProperties"] is False
    assert schema["properties"]["limit"]["anyOf"][0]["minimum"] == 1
    assert schema["properties"]["pairing"]["description"] == "Both answers or one."


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


@pytest.mark.parametrize("setting", [{"rrf_k": 5}, {"depth": 20}])
def test_a_setting_of_hybrid_retrieval_is_refused_with_another_retriever(
    setting: dict[str, int],
) -> None:
    from medhalbench.settings import RecallSettings

    given = {"index": "idx", "questions": "q.jsonl", **setting}
    with pytest.raises(SettingsError) as refused:
        RecallSettings.of(given, retriever="bm25")
    [problem] = refused.value.problems
    assert problem.setting == next(iter(setting)) and "retriever hybrid" in problem.reason
    # Unset, the retriever is chosen by the index (hybrid where it holds vectors): taken.
    assert RecallSettings.of(given).retriever is None
    assert RecallSettings.of(given, retriever="hybrid")
