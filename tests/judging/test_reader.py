"""The shared strict reader's rules, each over a class of replies: a reply offering both
classes or contradicting itself is never read; structured replies are read whatever their
key and value type; negations by their meaning; the words come from one data file."""

from __future__ import annotations

import ast
import json
import re
import unicodedata
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


# ---- issue 41: a reply is read only where it commits to one class -------------------------

# (reader, reply, reading): replies of the classes that had been read as the wrong class on
# unseen sets, written apart from any corpus.
COMMITTED = [
    # withdrawn, hedged or left open after it is given: never read
    (truth, "False. Wait, I take that back.", None),
    (truth, "True. Although I could be wrong.", None),
    (factual, "Factual: YES. Actually, I retract that; the context doesn't say.", None),
    (factual, "YES. I may be wrong, though, since the context is about adults only.", None),
    (detection, "1. Actually, scratch that — I can't tell from the knowledge.", None),
    (detection, "Verdict: 0\nOn second thought, I'm not confident; treat it as undetermined.", None),
    (detection, "Leaning 0.", None),
    (detection, "Best guess: 1", None),
    (factual, "Yes. Actually, no: the context says 10 mg, not 100 mg.", None),
    (truth, "True, but only in adults.", None),
    # a new verdict after a correction is the one read, its separator set aside
    (factual, "Factual: no\n\nEdit: I misread the context. Factual: yes.", "yes"),
    (truth, "False — hmm, wait, true: the drug is renally cleared.", "true"),
    (detection, "Verdict: 1. Wait; 0.", "0"),
    # a field named by a verdict word is read by its value, in a tool call of any provider
    (detection, '{"fabricated": false}', "0"),
    (factual, '{"incorrect": true}', "no"),
    (truth, "Richtig: nein", "false"),
    (detection, "Inventado: no. La respuesta coincide con el conocimiento.", "0"),
    (detection, '{"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "judge",'
                ' "arguments": "{\\"hallucinated\\": true}"}}]}', "1"),
    (detection, '[{"type": "tool_use", "id": "t1", "name": "verdict", "input": {"is_factual": true}}]', "0"),
    (factual, '{"functionCall": {"name": "x", "args": {"is_hallucinated": true}}}', "no"),
    (truth, '[TOOL_CALLS][{"name": "f", "arguments": {"correct": false}}]', "false"),
    (truth, '<|python_tag|>{"name": "check", "parameters": {"is_true": "false"}}', "false"),
    (detection, '{"not_sure": false, "label": 1}', "1"),
    # a field's name is never a verdict: its value decides, or nothing does
    (truth, "Richtigkeit laut Quelle: vielleicht", None),
    (factual, "Wahrheitsgehalt: ???", None),
    # a tick or a box is read as the column or box it marks
    (truth, "| True | False |\n|---|---|\n| | ✓ |", "false"),
    (truth, "| True | False |\n|---|---|\n| ✓ | ✓ |", None),
    (factual, "| Criterion | Yes | No |\n|---|---|---|\n| Hallucinated | ✓ | |", "no"),
    (truth, "| Option | Selected |\n|---|---|\n| True | ✓ |\n| False | |", "true"),
    (truth, "- [ ] True\n- [x] False", "false"),
    (truth, "- [x] True\n- [x] False", None),
    (detection, "☐ 0 factual ☑ 1 hallucinated", "1"),
    (factual, "- [ ] The statement is factual\n- [x] The statement is not factual", "no"),
    # a yes/no is read by the question it answers
    (truth, "Yes, there is a mistake: the liver, not the kidney, makes bile.", "false"),
    (factual, "No, nothing wrong with it.", "yes"),
    (factual, "Yes — there are errors in the dosing.", "no"),
    (truth, "Yes, that is a myth.", "false"),
    (detection, "Does the answer contradict the knowledge? Yes.", "1"),
    (factual, "Is the statement supported by the context? No.", "no"),
    (factual, "Could the statement be wrong? Yes.", None),
    (truth, "Is it accurate? Yes, except for the dose, which is wrong.", "false"),
    (detection, "There is an error in the knowledge passage, but the answer is correct: 0", "0"),
    # a label its explanation contradicts, refusals and questions back: never read
    (factual, "Factual: NO. The context says exactly the same thing.", None),
    (truth, "False. The statement correctly describes the mechanism.", None),
    (detection, "Извините, я не могу ответить на этот вопрос.", None),
    (factual, "Czy możesz podać kontekst?", None),
    # fact-checking and NLI labels, quiz marks, options the reply defines and picks
    (truth, "Refuted.", "false"),
    (detection, "Label: SUPPORTS", "0"),
    (factual, "entailment", "yes"),
    (factual, "NOT ENOUGH INFO — the context is silent.", None),
    (truth, "The answer supports the use of statins.", None),
    (truth, "O", "true"),
    (truth, "× — the femur is the longest bone.", "false"),
    (truth, "X-rays are used for diagnosis.", None),
    (truth, "A) True  B) False\nAnswer: A", "true"),
    (detection, "Options: (a) hallucinated (b) factual. I choose (b).", "0"),
    (detection, "Option 1: factual. Option 2: hallucinated. I pick option 1.", "0"),
    (factual, "Options: A) factual B) not factual", None),
    # reasoning channels and casual verdicts
    (truth, "<|channel|>analysis<|message|>false<|end|><|start|>assistant<|channel|>final<|message|>True", "true"),
    (detection, "<|channel|>analysis<|message|>hmm 1<|end|>", None),
    (factual, "Total nonsense — the context says the opposite.", "no"),
    (detection, "That's exactly right; the knowledge says the same thing.", "0"),
    (detection, "The answer repeats an outdated guideline.", None),
]  # fmt: skip


@pytest.mark.parametrize(("read", "reply", "expected"), COMMITTED)
def test_a_reply_is_read_only_where_it_commits_to_one_class(read, reply: str, expected) -> None:
    reading = read(reply)
    assert (None if reading == "unknown" else reading) == expected, reply


def test_the_judging_code_holds_no_word_of_another_script() -> None:
    # Words are data: no string in the reader's code holds a letter of another script
    # (punctuation such as "。" is no word).
    other = re.compile(r"[\u0400-\u04ff\u0600-\u06ff\u0900-\u0dff\u3040-\u9fff\uac00-\ud7af]")
    for path in sorted((SRC / "judging").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                letters = "".join(c for c in node.value if unicodedata.category(c)[0] in "LM")
                if id(node) not in docstrings:
                    assert not other.search(letters), (path.name, node.value)


@pytest.mark.parametrize("dash", [" — ", " - ", " – "])
@pytest.mark.parametrize(
    ("verdict", "reasons", "factual_read"),
    [("Not factual", "wrong drug class.", "no"), ("Not factual", "false dose in children.", "no"),
     ("Not hallucinated", "correct per the abstract.", "yes"),
     ("Not hallucinated", "true to the context.", "yes")],
)  # fmt: skip
def test_a_negated_verdict_before_a_dash_is_read_before_its_reasons(
    dash: str, verdict: str, reasons: str, factual_read: str
) -> None:
    # Not a label whose value is the reasons' first word: "Not factual: wrong" would deny it.
    for sign in ("", "❌ ", "**"):
        assert factual(f"{sign}{verdict}{dash}{reasons}") == factual_read


@pytest.mark.parametrize("subject", ["the statement", "the answer", "it"])
@pytest.mark.parametrize("word", ["unsupported by the context", "wrong", "false", "fabricated"])
def test_a_negation_opening_a_clause_about_the_text_negates_its_verdict_word(
    subject: str, word: str
) -> None:
    # However far the negation stands from the word, where only the text is named between.
    assert factual(f"Nothing in {subject} is {word}.") == "yes"
    # Where more than the text is named, read so or left unread, never as the word alone.
    for opening in ("Nothing about", "No part of", "None of the claims in"):
        assert factual(f"{opening} {subject} is {word}.") in ("yes", None)
