"""Reading which of two answers a discriminator picks."""

import pytest

from medhalbench.medhallu import parse_choice


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("1", 1),
        ("2.", 2),
        ("Answer 2", 2),
        ("Answer: 1", 1),
        ("Answer 1 is more accurate.", 1),
        ("1 or 2", None),
        ("Both", None),
        ("", None),
        ("3", None),
    ],
)
def test_parse_choice(reply: str, expected: int | None) -> None:
    assert parse_choice(reply) == expected
