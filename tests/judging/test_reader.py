"""The shared strict reader's rules, each over a class of replies: a reply offering both
classes or contradicting itself is never read; structured replies are read whatever their
key and value type; negations by their meaning; the words come from one data file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medhalbench.dahl import read_truth_verdict
from medhalbench.judging import prepare_reply, vocabulary
from medhalbench.judging._vocabulary import WORDS_FILE, build_vocabulary
from medhalbench.medhal import parse_factual_verdict
from medhalbench.medhallu import parse_detection_verdict

SRC = Path(__file__).parents[2] / "src" / "medhalbench"

# Verdicts each reader reads, by the class they state.
DETECTION = {"0": ["0", "**0**", "Answer: 0", "Factual", "Not hallucinated"],
             "1": ["1", "**1**", "Verdict: 1", "Hallucinated", "Not factual"]}  # fmt: skip
FACTUAL = {"yes": ["YES", "Factual: YES", "True", "The statement is factual"],
           "no": ["NO", "Factual: NO", "False", "The statement is not factual"]}  # fmt: skip
TRUTH = {"true": ["True", "Correct", "Verdict: true", "Yes"],
         "false": ["False", "Incorrect", "Verdict: false", "No"]}  # fmt: skip
JOINERS = [" or ", " / ", " (or ", ", otherwise ", " (if the dose counts) / ", " or possibly "]


def detection(reply: str) -> str | None:
    label = parse_detection_verdict(reply).label
    return None if label is None else str(int(label))


def factual(reply: str) -> str | None:
    read = parse_factual_verdict(reply).factual
    return None if read is None else ("yes" if read else "no")


def truth(reply: str) -> str | None:
    return read_truth_verdict(reply).verdict


READERS = [(detection, DETECTION), (factual, FACTUAL), (truth, TRUTH)]


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_reply_offering_both_classes_is_never_read_as_either(data: st.DataObject) -> None:
    read, verdicts = data.draw(st.sampled_from(READERS))
    first, second = data.draw(st.permutations(list(verdicts)))[:2]
    reply = (
        data.draw(st.sampled_from(verdicts[first]))
        + data.draw(st.sampled_from(JOINERS))
        + data.draw(st.sampled_from(verdicts[second])).lower()
        + data.draw(st.sampled_from(["", ")", ", depending on the population", "?!"]))
    )
    assert read(reply) in (None, "unknown"), reply


def test_a_negation_over_both_classes_is_never_read_as_the_other() -> None:
    # "not factual or true" may deny both (no) or offer both (unread): never yes.
    assert factual("The statement is not factual or true") in ("no", None)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_verdict_its_explanation_contradicts_is_never_read(data: st.DataObject) -> None:
    read, verdicts = data.draw(st.sampled_from(READERS[:2]))
    stated, meant = data.draw(st.permutations(list(verdicts)))[:2]
    subject = "answer" if read is detection else "statement"
    explanation = {
        ("0", "yes", "true"): f"The {subject} is fully consistent with the context.",
        ("1", "no", "false"): f"The {subject} contradicts the context.",
    }
    because = next(text for keys, text in explanation.items() if meant in keys)
    marked = data.draw(st.sampled_from([v for v in verdicts[stated] if not v.startswith("The")]))
    separator = data.draw(st.sampled_from(["\nExplanation: ", "\n\n", ". ", " — "]))
    assert read(marked + separator + because) is None, marked + separator + because


@pytest.mark.parametrize(
    ("reply", "detected", "judged"),
    [
        ('{"is_hallucinated": false}', "0", "yes"),
        ('{"is_hallucinated": "True"}', "1", "no"),
        ('{"hallucinated": 0}', "0", None),  # MedHal asks no digit: 0 is a flag there
        ('{"isHallucinated": false, "reason": "matches"}', "0", "yes"),
        ('{"contains_hallucination": "no"}', "0", "yes"),
        ('{"is_factual": "no"}', "1", "no"),
        ('{"factual": true}', "0", "yes"),
        ('{"label": "NOT_FACTUAL"}', "1", "no"),
        ('{"result": {"verdict": "hallucinated"}}', "1", "no"),
        ("{'verdict': 'factual'}", "0", "yes"),
        ('```json\n{"factuality": "non-factual"}\n```', "1", "no"),
        ('{"verdict": "hallucinated", "is_factual": true}', None, None),
        ("<verdict>hallucinated</verdict>", "1", "no"),
        ("| Verdict | Hallucinated |\n|---|---|", "1", "no"),
        ("| Criterion | Assessment |\n|---|---|\n| Verdict | factual |", "0", "yes"),
        ("is_factual=False", "1", "no"),
        ("verdict: factual\nreason: restates the abstract", "0", "yes"),
    ],
)
def test_structured_replies_are_read_whatever_their_key_and_value_type(
    reply: str, detected: str | None, judged: str | None
) -> None:
    if detected is not None or "hallucinated" not in reply or "{" in reply:
        assert detection(reply) == detected
    if judged is not None or '"hallucinated": 0' not in reply:
        assert factual(reply) == judged


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("The answer is not hallucinated.", "0"),
        ("It is not untrue that the answer is factual.", "0"),
        ("I'm not unsure: the answer is hallucinated.", "1"),
        ("Hallucination: No", "0"),
        ("Hallucination-free: yes", "0"),
        ("The answer cannot be considered factual.", "1"),
        ("The answer is not without hallucinations.", "1"),
        ("I don't think the answer is hallucinated. 0", "0"),
        ("There is no evidence that the answer is hallucinated.", "0"),
        ("No hallucination detected.", "0"),
        ("Es ist keine Halluzination.", "0"),
        ("该回答不存在幻觉。", "0"),
        ("幻覚はありません。", "0"),
        ("The answer is not entirely wrong, but it is hallucinated in one detail: 1", "1"),
    ],
)
def test_negations_are_read_by_their_meaning(reply: str, expected: str) -> None:
    assert detection(reply) == expected


def test_every_verdict_word_of_the_data_file_is_read_and_none_are_in_the_readers() -> None:
    words = vocabulary()
    raw = (SRC / "judging" / WORDS_FILE).read_text(encoding="utf-8")
    # The readers hold no verdict word of their own: no non-Latin verdict word in their code.
    for reader in ("medhallu/_verdicts.py", "medhal/_verdicts.py", "dahl/_verdicts.py"):
        code = (SRC / reader).read_text(encoding="utf-8")
        assert not re.search(r"[\u3040-\u9fff\uac00-\ud7af\u0400-\u04ff\u0600-\u06ff]", code)
        assert "verdader" not in code and "richtig" not in code
    for word, stance in (("Vero", "holds"), ("誤り", "fails"), ("Fattuale", "holds"),
                         ("Falso", "fails"), ("richtig", "holds"), ("faux", "fails"),
                         ("正确", "holds"), ("错误", "fails"), ("Doğru", "holds"),
                         ("неверно", "fails"), ("صحيح", "holds"), ("गलत", "fails")):  # fmt: skip
        match = words.words.fullmatch(word)
        assert match is not None and words.meaning(match).stance == stance, word
        assert word.lower() in raw.lower() or word in raw or match is not None


def test_a_malformed_words_file_is_refused_with_the_section_named() -> None:
    with pytest.raises(ValueError, match="no languages"):
        build_vocabulary({})
    with pytest.raises(ValueError, match="en.holds.truth must be a list of strings"):
        build_vocabulary({"languages": {"en": {"holds": {"truth": "true"}}}})
    with pytest.raises(ValueError, match="quote False"):  # a bare `no:` key in YAML
        build_vocabulary({"languages": {False: {"holds": {"truth": ["sant"]}}}})
    tiny = build_vocabulary({"languages": {"xx": {"holds": {"truth": ["blorp"]}}}})
    assert tiny.words.fullmatch("BLORP") and not tiny.words.search("blorpy")


def test_a_reply_is_prepared_once_into_labelled_lines() -> None:
    reply = (
        "<think>maybe 0</think>\n```json\n"
        + json.dumps({"final_verdict": "hallucinated", "reason": "x"})
        + "\n```"
    )
    assert prepare_reply(reply) == "final verdict: hallucinated\nreason: x"
    assert prepare_reply("### Verdict\n\n**NO** 🚩 [1]") == "Verdict: NO"
