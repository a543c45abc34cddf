import pytest
from hypothesis import given, settings

from helpers import reply_texts
from medhalbench.dahl import normalise_units, parse_truth_verdict, parse_truth_verdicts


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("True", "true"),
        ("true.", "true"),
        ("False", "false"),
        ("**False**", "false"),
        ("Answer: True", "true"),
        ("This is not true.", "false"),
        ("The statement is correct.", "true"),
        ("The statement is incorrect.", "false"),
        ("True or false, hard to say", "unknown"),  # the options restated, no verdict
        ("It is partly true and partly false", "unknown"),
        ("Maybe", "unknown"),
        ("", "unknown"),
    ],
)
def test_truth_verdicts(reply: str, expected: str) -> None:
    assert parse_truth_verdict(reply) == expected


def test_one_verdict_per_line() -> None:
    assert parse_truth_verdicts("True\n\nFalse\nunsure\n") == ["true", "false", "unknown"]


@settings(max_examples=400, deadline=None)
@given(reply=reply_texts())
def test_the_readers_never_crash(reply: str) -> None:
    assert parse_truth_verdict(reply) in ("true", "false", "unknown")
    assert all(u.strip() for u in normalise_units(reply).units)
