"""Reading yes/no replies: by the strict reader, as every verdict is."""

import pytest

from medhalbench.judging import parse_yes_no


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Yes", True),
        ("no.", False),
        ("Answer: yes", True),
        ("Yes, the premise entails the hypothesis.", True),
        ("No, it does not follow from it.", False),
        ("<think>Both say the same.</think>\nYes", True),
        ("yes and no", None),
        ("YES or NO", None),
        ("maybe", None),
    ],
)
def test_parse_yes_no(reply: str, expected: bool | None) -> None:
    assert parse_yes_no(reply) is expected if expected is not None else parse_yes_no(reply) is None
