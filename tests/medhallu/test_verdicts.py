import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import reply_texts
from medhalbench.medhallu import DetectionLabel, parse_choice, parse_detection_verdict

F, H, N = DetectionLabel.FACTUAL, DetectionLabel.HALLUCINATED, DetectionLabel.NOT_SURE


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("0", F),
        ("1", H),
        ("0.", F),
        ("1.", H),
        ("1 - hallucinated", H),
        ("0 - factual", F),
        ("I think 1", H),
        ("I think the answer is 0.", F),
        ("Answer: 1", H),
        ("**Answer:** 0", F),
        ("Verdict = 1", H),
        ("(1)", H),
        ("The answer is hallucinated.", H),
        ("The answer is factual.", F),
        ("The answer is not hallucinated.", F),
        ("This answer is non-factual.", H),
        ("1\n\nThe answer attributes the effect to the wrong mechanism.", H),
    ],
)
def test_reads_definite_verdicts(reply: str, expected: DetectionLabel) -> None:
    verdict = parse_detection_verdict(reply)
    assert verdict.label is expected, verdict.reason


@pytest.mark.parametrize(
    "reply",
    ["Not sure", "not sure.", "I'm not sure", "2", "2 - not sure", "I am uncertain", "Unsure"],
)
def test_not_sure_forms_read_as_2_when_allowed(reply: str) -> None:
    assert parse_detection_verdict(reply, allow_not_sure=True).label is N


@pytest.mark.parametrize("reply", ["Not sure", "I'm not sure about this", "2"])
def test_not_sure_is_unparseable_when_not_allowed(reply: str) -> None:
    verdict = parse_detection_verdict(reply, allow_not_sure=False)
    assert verdict.label is None
    assert "not sure" in verdict.reason


def test_not_sure_is_never_read_as_not() -> None:
    # "not sure ... hallucinated" must not become "not hallucinated" (factual).
    verdict = parse_detection_verdict("Not sure if it is hallucinated", allow_not_sure=True)
    assert verdict.label is not F
    assert verdict.label is None  # two cues (2 and 1) disagree


@pytest.mark.parametrize(
    "reply",
    [
        "",
        "   ",
        "The question concerns blood pressure.",
        "0 or 1, hard to say between them",
        "It is either factual or hallucinated",
        "Score 0.5",
        "10",
        "The study had 12 participants",
    ],
)
def test_unreadable_replies_are_unparseable_not_guessed(reply: str) -> None:
    verdict = parse_detection_verdict(reply, allow_not_sure=True)
    assert verdict.label is None
    assert verdict.reason


def test_conflicting_cues_name_the_conflict() -> None:
    verdict = parse_detection_verdict("It looks factual, so 1", allow_not_sure=False)
    assert verdict.label is None
    assert "conflicting" in verdict.reason


def test_a_leading_verdict_followed_by_prose_with_and_is_read() -> None:
    assert parse_detection_verdict("1 and the mechanism is wrong").label is H


@settings(max_examples=400, deadline=None)
@given(reply=reply_texts(), allow=st.booleans())
def test_the_readers_never_crash_and_never_guess_not_sure(reply: str, allow: bool) -> None:
    verdict = parse_detection_verdict(reply, allow_not_sure=allow)
    assert verdict.label is None or isinstance(verdict.label, DetectionLabel)
    assert verdict.reason
    if not allow:
        assert verdict.label is not DetectionLabel.NOT_SURE
    assert parse_choice(reply) in (1, 2, None)
