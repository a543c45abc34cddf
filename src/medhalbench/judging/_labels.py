"""Labels: the words before a value that say what the value answers ("Factual:", "Verdict:",
"Is it hallucinated?", "is_factual"), and whether a yes under them holds or fails."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from medhalbench.judging._structure import key_words
from medhalbench.judging._vocabulary import LabelSense, vocabulary

LabelKind = LabelSense | Literal["explanation"]


@functools.cache
def _label_pattern() -> re.Pattern[str]:
    """A label and its separator; a phrase never starts with, nor holds, an alternative
    ("YES, otherwise factual: no" holds the label "factual", not "otherwise factual")."""
    alternatives = rf"(?:{vocabulary().alternatives.pattern}|and|but|so|then)"
    return re.compile(
        r"(?:^|(?<=[.!?。;；,，:：])|(?<=\n)|(?<=\s))[ \t]*(?:[-*•>]+[ \t]*|\d+[.)][ \t]+)?"
        rf"(?:[^\w\s]{{1,2}}[ \t]+)?(?!{alternatives}(?!\w))"
        rf"(?P<phrase>[^\W\d_](?:(?![ \t]{alternatives}[ \t])[^\n:：=?？|/.!。,，;；()]){{0,50}}?"
        r"(?:[ \t]+\d{1,2})?)[ \t]*(?P<sep>[:：=]|[?？]|[ \t][-–—][ \t])",
        re.MULTILINE | re.IGNORECASE,
    )


LABEL_NEGATION = re.compile(r"\b(?:not|non|no|is not|isn't)\b|-?\bfree\b", re.IGNORECASE)
"""A negation inside a label ("Not factual", "Hallucination-free"): it turns its sense."""


@dataclass(frozen=True)
class Label:
    """A label found in a reply: its sense, and whether it marks the final answer.

    Attributes:
        sense: What a yes under it states, or `explanation` for the reasons' label.
        final: Labelled as the final answer.
        start: Where the label starts.
        end: Where its value starts.
        initial: Labelled as an answer a final one replaces.
        asks: The label is a question ("Is it hallucinated?").
    """

    sense: LabelKind
    final: bool
    start: int
    end: int
    initial: bool = False
    asks: bool = False


MODAL = re.compile(r"\b(?:could|might|may|can|would)\b", re.IGNORECASE)
"""A modal verb: a question that holds one asks what is possible, not what is."""

_COPULA_INSIDE = re.compile(
    r"(?<!^)\b(?:is|are|was|were|seems|appears|does|do)(?:n't)?\b"
    r"|\b(?:it|that|this|what|there|here)'s\b",
    re.IGNORECASE,
)


def _head_sense(text: str) -> LabelSense | None:
    """The sense of a label's head: its last label word ("Correct answer" asks for an
    answer, "Is the answer hallucinated" whether it is hallucinated), else a verdict word
    naming the whole field ("Unsupported: yes", "Erfunden: nein")."""
    words = vocabulary()
    senses: tuple[LabelSense, ...] = ("fails", "holds", "neutral")
    heads = [(m.end(), s) for s in senses for m in words.labels[s].finditer(text)]
    if heads:
        return max(heads, key=lambda head: head[0])[1]
    named = words.words.fullmatch(text)
    if named is not None and not words.meaning(named).start_only:
        return words.meaning(named).stance
    if words.final_labels.fullmatch(text):
        return "neutral"  # "Therefore: NO", "Overall: 1"
    return None


def classify_label(phrase: str) -> tuple[LabelKind, bool] | None:
    """A label phrase's sense and whether it marks a final answer; None when the phrase
    is no label ("The dose", "Statement", or a sentence: "The statement is inaccurate")."""
    words = vocabulary()
    text = key_words(phrase.strip())  # "is_factual", "isHallucinated"
    if not text or len(text.split()) > 6 or _COPULA_INSIDE.search(text):
        return None
    if words.alternatives.search(text):
        return None  # "YES or factual": alternatives, not a label
    final = bool(words.final_labels.search(text))
    if words.explanation_labels.match(text):
        return "explanation", final
    sense = _head_sense(text)
    if sense is None:
        return None
    if sense != "neutral" and LABEL_NEGATION.search(text):
        return ("holds" if sense == "fails" else "fails"), final
    return sense, final


# A field at the start of a line: a short name, then a value of a few words ("Đúng sự thật:
# KHÔNG"), not a verdict followed by its reasons ("La afirmación es falsa: el paciente ...").
_FIELD = re.compile(
    r"^[ \t]*(?:[-*•>]+[ \t]*)?(?P<name>[^\n:：=()]{1,40}?)[ \t]*[:：=][ \t]*"
    r"(?P<value>(?:(?![ \t][-–—][ \t])[^\n.!?。])*)",
    re.MULTILINE,
)


def fields(text: str) -> list[tuple[int, int, int]]:
    """Each field at the start of a line, named in words a label reader may not know: where
    its name starts and ends, and where its value starts. A field's value decides, never
    its name: its words are never read as prose."""
    return [
        (*match.span("name"), match.start("value"))
        for match in _FIELD.finditer(text)
        if len(match.group("name").split()) <= 4
        and 0 < len(match.group("value").split()) <= 3
        and not _COPULA_INSIDE.search(match.group("name"))
    ]


def find_labels(text: str) -> list[Label]:
    """Every label in a reply, with where its value starts."""
    found = []
    for match in _label_pattern().finditer(text):
        phrase = match.group("phrase")
        before = text[: match.start("phrase")].rstrip(" \t-*•>")
        strong = not before or before[-1] in "\n.!?。;；,，:：" or not before[-1].isalnum()
        if not strong and len(key_words(phrase).split()) > 2:
            continue  # inside a sentence, only a short label ("..., so my answer: 1")
        separator = match.group("sep").strip()
        if separator in ("-", "–", "—") and len(phrase.split()) > 3:
            continue  # "The answer is not hallucinated - it matches": prose, not a label
        asks = separator in ("?", "？")
        if asks and MODAL.search(phrase):
            continue  # "Could the statement be wrong? Yes.": a possibility, not a verdict
        classified = classify_label(phrase)
        if classified is None:
            continue
        sense, final = classified
        initial = bool(vocabulary().initial_labels.search(phrase))
        found.append(Label(sense, final, match.start("phrase"), match.end(), initial, asks))
    return found
