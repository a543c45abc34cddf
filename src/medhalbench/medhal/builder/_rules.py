"""MedHal's build rules as the authors' code applies them (LAMA-WeST-Lab/MedHal
`src/data/med_hal/*.py`, `MedHal.from_*`) and where ours differ; each rule is a function of
its inputs, so that tests pin it to theirs."""

from __future__ import annotations

import re
from collections.abc import Mapping

from medhalbench.settings import BuildProtocol
from medhalbench.text import split_sentences

FACTUAL_EXPLANATION = "The statement is factual."
"""The explanation the authors give every factual sample (`MedHal.FACTUAL_EXPLANATION`)."""
PAPER_MAX_CHARS = 30_000
"""The authors' length filter (medhal-lf): context + statement under 30,000 characters."""
PAPER_CONVERTER_MAX_TOKENS = 4096
"""Their inference pipeline's `max_new_tokens` for the converter."""
MIN_REWRITE_CHARS = 100
"""Ours: a summary sentence shorter than this is not rewritten (often a fragment cut at an
abbreviation: "a distant relative of f.")."""

# MedQA: the vignette, then the final question sentence (medqa.py `QUESTION_PATTERN`).
_MEDQA_QUESTION = re.compile(r"^(.*?)([^.!?]+\?)$", re.DOTALL)
# The explanation's reference to the option (medhal.py `MEDMCQA_EXPLANATION_REGEX_PATTERN`),
# applied case-insensitively as theirs is: it also cuts "ans" out of words ("humans").
_PAPER_OPTION_REFERENCE = re.compile(
    r"""Ans(?:wer|wee)*(?:\.|:)* *(?:is)* *(?:\(|'|"|-)* *[?:a-d|A-D]* *(?:\(|\)|'|")* *(?:i\.e\.|:)*(?:\.|\,)*""",
    re.IGNORECASE,
)
_KEYWORDS = re.compile(r"keywords[\s\S]*")
_EXCEPT = re.compile(r"\bexcept\b", re.IGNORECASE)
_ABOVE_OPTION = re.compile(r"\b(?:all|none|both)\s+of\s+the\s+(?:above|following)\b", re.IGNORECASE)


def medmcqa_rejection(
    question: str, options: Mapping[str, str], protocol: BuildProtocol
) -> str | None:
    """Why a multiple-choice question cannot become a statement, or None.

    Theirs (medmcqa.py `filter_invalid_samples`): "the above" in option D, "except" in the
    question (as written: "EXCEPT" passes), "true" or "false" in any option. Ours adds
    "EXCEPT" in any case and "all/none/both of the above/following" in any option.
    """
    letters = sorted(options)
    last = options[letters[3]] if len(letters) >= 4 else ""
    if "the above" in last.lower():
        return "option_d_the_above"
    if "except" in question or (protocol == "ours" and _EXCEPT.search(question)):
        return "except_question"
    if any("true" in o.lower() or "false" in o.lower() for o in options.values()):
        return "true_false_option"
    if protocol == "ours" and any(_ABOVE_OPTION.search(o) for o in options.values()):
        return "above_option"
    return None


def qa_context(
    question: str, source: str, protocol: BuildProtocol
) -> tuple[str | None, str] | None:
    """The context and the question the converter turns into a statement, or None when the
    item is dropped.

    MedQA (medqa.py): the vignette before the final question sentence is the context and the
    final question is converted; a question not ending in "?" is dropped, as theirs drops one
    with a space or a closing quote after it (the question is taken as the file has it). Ours
    first strips whitespace and closing quotes after the "?" (62 of 800 MIRAGE MedQA
    questions end with one). MedMCQA
    (medhal.py `from_medmcqa`): a question of several sentences gives all but the last as
    context, and the whole question is converted.
    """
    if source == "medqa":
        text = question.strip().rstrip("\"'”’ ").strip() if protocol == "ours" else question
        match = _MEDQA_QUESTION.search(text)
        if match is None:
            return None
        context = match.group(1).strip()
        return (context or None), match.group(2).strip()
    sentences = split_sentences(question)
    context = " ".join(sentences[:-1]) if len(sentences) > 1 else None
    return context, question if protocol == "paper" else question.strip()


def paper_explanation(text: str | None) -> str | None:
    """A MedMCQA explanation as theirs is cleaned (`fix_medmcqa_explanations`)."""
    if text is None:
        return None
    return _PAPER_OPTION_REFERENCE.sub("", text)


def one_sentence(statement: str) -> bool:
    """Their `filter_multiple_sentence_statements`: exactly one sentence."""
    return statement != "None" and len(split_sentences(statement)) == 1


def remove_keywords(summary: str) -> str:
    """A SumPubMed summary without its trailing keyword list (sumpubmed.py)."""
    return _KEYWORDS.sub("", summary)


def rewrite_candidates(sentences: list[str], protocol: BuildProtocol) -> list[int]:
    """Which summary sentences may be rewritten to contradict the source.

    Theirs (`split_text_for_prompts`): any but the last, and none when the summary has fewer
    than two sentences. Ours: any sentence of at least `MIN_REWRITE_CHARS` characters.
    """
    if protocol == "paper":
        return list(range(len(sentences) - 1)) if len(sentences) >= 2 else []
    return [i for i, s in enumerate(sentences) if len(s) >= MIN_REWRITE_CHARS]


def within_paper_length(context: str | None, statement: str) -> bool:
    """Their medhal-lf filter on one sample."""
    return len(context or "") + len(statement) < PAPER_MAX_CHARS
