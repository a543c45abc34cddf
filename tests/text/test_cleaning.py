from hypothesis import given, settings
from hypothesis import strategies as st

from medhalbench.text import clean_response, is_declining, split_sentences

Q = "What are the main symptoms of asthma?"


def test_echoed_prompt_is_removed() -> None:
    cleaned = clean_response(Q, f"{Q} The main symptoms are wheeze and cough.", truncated=False)
    assert cleaned.text == "The main symptoms are wheeze and cough." and cleaned.removed_question


def test_echoed_prompt_as_a_later_sentence_is_removed() -> None:
    cleaned = clean_response(Q, f"Asthma narrows the airways. {Q}", truncated=False)
    assert cleaned.text == "Asthma narrows the airways." and cleaned.removed_question


def test_repeated_sentences_are_removed() -> None:
    answer = "Wheeze is common. Cough is common. Wheeze is common. wheeze  is common!"
    cleaned = clean_response(Q, answer, truncated=False)
    assert cleaned.text == "Wheeze is common. Cough is common."
    assert cleaned.removed_repeats == 2


def test_truncated_last_sentence_is_dropped() -> None:
    answer = "Wheeze is common. Inhaled steroids reduce"
    cleaned = clean_response(Q, answer, truncated=True)
    assert (
        cleaned.text == "Wheeze is common."
        and cleaned.removed_truncated == "Inhaled steroids reduce"
    )


def test_complete_last_sentence_is_kept_even_at_the_limit() -> None:
    cleaned = clean_response(Q, "Wheeze is common. Cough is common.", truncated=True)
    assert (
        cleaned.text == "Wheeze is common. Cough is common." and cleaned.removed_truncated is None
    )


def test_not_truncated_keeps_an_unpunctuated_end() -> None:
    cleaned = clean_response(Q, "Wheeze is common. Cough too", truncated=False)
    assert cleaned.text.endswith("Cough too")


def test_declining_answers() -> None:
    for answer in (
        "I don't know.",
        "I do not know the answer to this question.",
        "This question cannot be answered with the information given.",
        "I'm sorry, but I can't answer that.",
        "As an AI language model, I cannot provide medical advice.",
    ):
        assert is_declining(answer), answer
        cleaned = clean_response(Q, answer)
        assert cleaned.declined and cleaned.removed_declines == 1 and cleaned.text == ""
    assert not is_declining("Patients often do not know they have asthma.")
    assert not is_declining("I don't know the exact mechanism, but steroids reduce inflammation.")


def test_a_declining_sentence_is_removed_and_the_rest_kept() -> None:
    answer = "Aspirin irreversibly inhibits COX-1 and COX-2. I don't know its effect on COX-3."
    cleaned = clean_response("How does aspirin act?", answer, truncated=False)
    assert not cleaned.declined and cleaned.removed_declines == 1
    assert cleaned.text == "Aspirin irreversibly inhibits COX-1 and COX-2."


def test_a_hedge_inside_a_factual_sentence_keeps_the_sentence() -> None:
    answer = "I'm not sure of the dose; metformin lowers hepatic glucose output."
    cleaned = clean_response("How does metformin act?", answer, truncated=False)
    assert not cleaned.declined and cleaned.removed_declines == 0 and cleaned.text == answer


def test_sentence_splitter_keeps_abbreviations_and_decimals() -> None:
    text = "Dr. Smith gave 2.5 mg. It worked, e.g. in adults. Jones et al. Agreed!"
    assert split_sentences(text) == [
        "Dr. Smith gave 2.5 mg.",
        "It worked, e.g. in adults.",
        "Jones et al. Agreed!",
    ]


@settings(max_examples=300, deadline=None)
@given(
    question=st.text(max_size=40),
    answer=st.text(max_size=300),
    truncated=st.sampled_from([True, False, None]),
)
def test_cleaning_keeps_a_subset_of_the_answer(
    question: str, answer: str, truncated: bool | None
) -> None:
    cleaned = clean_response(question, answer, truncated=truncated)
    kept = split_sentences(cleaned.text)
    original = split_sentences(answer)
    assert len(kept) <= len(original) or cleaned.removed_question
    assert all(s in answer for s in kept) or cleaned.removed_question
    assert cleaned.removed_repeats >= 0


def test_an_echoed_instruction_is_removed_wherever_it_stands_however_it_is_wrapped() -> None:
    instruction = "Answer the question truthfully.\nIf you do not know,\nsay so."
    echoed = "Answer the question truthfully. If you do not know, say so. Aspirin inhibits COX-1."
    cleaned = clean_response("What does aspirin inhibit?", echoed, instructions=(instruction, ""))
    assert cleaned.text == "Aspirin inhibits COX-1." and cleaned.removed_instruction
    inside = f"Aspirin inhibits COX-1. {instruction}"
    assert (
        clean_response("Q?", inside, instructions=[instruction]).text == "Aspirin inhibits COX-1."
    )
    plain = clean_response("Q?", "Aspirin inhibits COX-1.", instructions=[instruction])
    assert not plain.removed_instruction and plain.text == "Aspirin inhibits COX-1."
