import pytest

from medhalbench.judging import parse_yes_no
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


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Yes", True),
        ("no.", False),
        ("Answer: yes", True),
        ("I would say yes", True),
        ("yes and no", None),
        ("maybe", None),
    ],
)
def test_parse_yes_no(reply: str, expected: bool | None) -> None:
    assert parse_yes_no(reply) is expected if expected is not None else parse_yes_no(reply) is None
