"""Reading yes/no replies."""

import pytest

from medhalbench.judging import parse_yes_no


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
