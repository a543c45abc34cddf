"""Parsing a fact checker's verdict on one atomic fact: true, false or unknown.

Strict: reasoning blocks are removed, an explicit self-correction makes the verdict stated
after it the one read, negated words are read by their meaning ("not false" is true), and a
reply whose cues disagree, that hedges, or that lists several verdicts is `unknown`. Verdict
words are read in English, Spanish, French, German, Portuguese and Chinese.
`paper_truth_reading` is the authors' own substring reading.
"""

from __future__ import annotations

import re
from typing import Literal

from medhalbench.judging import (
    Reading,
    json_field,
    normalise_reply,
    offers_alternatives,
    read_last_verdict,
    strip_reasoning,
)

TruthVerdict = Literal["true", "false", "unknown"]
PaperTruth = Literal["true", "false", "bad"]

_TRUE_WORDS = (
    r"true|correct|accurate|right|verdader[oa]|correct[oa]|cierto|vrai|exacte?|wahr|richtig"
    r"|korrekt|zutreffend|verdadeir[oa]|corret[oa]|yes|s[íi]|oui|ja|sim"
)
_FALSE_WORDS = (
    r"false|incorrect|inaccurate|untrue|wrong|fals[oa]|incorrect[oa]|faux|fausse|inexacte?"
    r"|falsch|unwahr|unrichtig|inkorrekt|incorret[oa]|errad[oa]|no|non|nein|n[ãa]o"
)
# "True or false?", "Is this statement true or false:": the question, not an answer.
_OPTIONS_QUESTION = re.compile(
    r"^(?:(?:is\s+)?(?:this|the|it)?\s*(?:statement\s+)?)?(?:true\s*(?:or|/)\s*false|false\s*(?:or|/)\s*true)"
    r"\s*[?:]\s*"
)
_LEAD = re.compile(
    r"^[\s\"'(\[]*(?:(?:answer|verdict|judge?ment|label|respuesta|r[ée]ponse|antwort|resposta"
    r"|veredicto|urteil)\s*[:=\-]?\s*)?[\s\"'(\[]*"
    rf"({_TRUE_WORDS}|{_FALSE_WORDS})\b(?!\s*[-–]\s*\w)"
)
_MIXED = re.compile(
    r"\b(?:partially|partly|mostly|somewhat|half|largely|parcialmente|partiellement|teilweise)\s+"
    r"(?:true|correct|accurate|false|verdader[oa]|vrai|wahr|richtig|verdadeir[oa])\b"
    r"|\b(?:unknown|unverifiable|cannot\s+be\s+(?:verified|determined)|can(?:not|'t)\s+(?:verify|determine|tell|say)"
    r"|not\s+(?:sure|certain)|unsure|uncertain|insufficient\s+(?:information|evidence)|depends"
    r"|no\s+(?:lo\s+)?s[ée]|desconocido|inconnu|unbekannt|desconhecido)\b|不确定|无法判断|无法确定"
)
_NEGATION = r"not|isn't|is\s+not|no\s+es|n'est\s+pas|pas|nicht|n[ãa]o\s+é|n[ãa]o"
# "not false" is true, "not true" is false; read before the plain words.
_NEGATED_FALSE = re.compile(
    rf"\b(?:{_NEGATION})\s+(?:entirely\s+|completely\s+|at\s+all\s+)?"
    r"(false|incorrect|inaccurate|untrue|wrong|fals[oa]|faux|fausse|falsch|incorrect[oa])\b"
)
_NEGATED_TRUE = re.compile(
    rf"\b(?:{_NEGATION})\s+(?:entirely\s+|completely\s+|quite\s+)?"
    r"(true|correct|accurate|supported|right|verdader[oa]|vrai|wahr|richtig|verdadeir[oa]"
    r"|corret[oa]|correct[oa])\b"
)
_FALSE = re.compile(
    r"\b(false|incorrect|inaccurate|unsupported|untrue|wrong|fals[oa]|faux|fausse|falsch"
    r"|unwahr|incorret[oa]|incorrect[oa]|inexacte?)\b"
)
_TRUE = re.compile(
    r"\b(true|correct|accurate|supported|right|verdader[oa]|vrai|wahr|richtig|zutreffend"
    r"|verdadeir[oa]|corret[oa]|correct[oa]|exacte?)\b"
)
# Chinese verdict words (no word boundaries): negated forms first.
_FALSE_ZH = re.compile(r"不正确|不对|错误|不是真的|不真实|假的|^假|^错")
_TRUE_ZH = re.compile(r"正确|是真的|真实|^真|^对")
# A line holding only a verdict word: several that disagree are a list, not one verdict.
_VERDICT_LINE = re.compile(
    rf"^[\s\-*•>\d.)\"'(\[]*({_TRUE_WORDS}|{_FALSE_WORDS})[\s.!)\]\"']*$", re.MULTILINE
)
_JSON_KEYS = ("verdict", "answer", "label", "judgement", "judgment")


def _is_false_word(word: str) -> bool:
    return re.fullmatch(_FALSE_WORDS, word) is not None


def _read(text: str) -> Reading[TruthVerdict]:
    """Read a normalised reply without self-corrections (see `parse_truth_verdict`)."""
    text = _OPTIONS_QUESTION.sub("", text.strip(), count=1)
    if not text:
        return Reading(None, "no verdict found")
    lines = {
        "false" if _is_false_word(m.group(1)) else "true" for m in _VERDICT_LINE.finditer(text)
    }
    if len(lines) > 1:
        return Reading(None, "several verdicts that disagree")
    if _MIXED.search(text):
        return Reading("unknown", "hedged or unknown")
    lead = _LEAD.match(text)
    if lead:
        if offers_alternatives(text[lead.end() :], f"{_TRUE_WORDS}|{_FALSE_WORDS}"):
            return Reading(None, "alternatives offered")
        return Reading("false" if _is_false_word(lead.group(1)) else "true", "leading verdict")
    zh_false, zh_true = (
        bool(_FALSE_ZH.search(text)),
        bool(_TRUE_ZH.search(_FALSE_ZH.sub(" ", text))),
    )
    negated_false = bool(_NEGATED_FALSE.search(text))
    negated_true = bool(_NEGATED_TRUE.search(text))
    plain = _NEGATED_TRUE.sub(" ", _NEGATED_FALSE.sub(" ", text))
    has_false = negated_true or bool(_FALSE.search(plain)) or zh_false
    has_true = negated_false or bool(_TRUE.search(plain)) or zh_true
    if has_true != has_false:
        return Reading("true" if has_true else "false", "cues agree")
    return Reading(None, "conflicting cues" if has_true else "no verdict found")


def parse_truth_verdict(reply: str) -> TruthVerdict:
    """Read a checker's reply; anything not clearly true or false is `unknown` (see
    `read_truth_verdict`)."""
    return read_truth_verdict(reply).verdict or "unknown"


def read_truth_verdict(reply: str) -> Reading[TruthVerdict]:
    """Read a checker's reply: true, false, `unknown` when the reply says it cannot tell or
    hedges, or None when it cannot be read.

    Rules, in order: reasoning blocks are removed; a JSON object's `verdict` field is read
    by these rules; after an explicit self-correction only the text after the last one is
    read; a leading question that restates the options ("True or false?") is skipped;
    standalone verdict lines that disagree ("True\\nFalse") are not read; hedges ("partly
    true", "cannot be verified") are `unknown`; a leading True/False (or Correct/Incorrect,
    Yes/No, and their Spanish, French, German and Portuguese words; optionally after
    "Answer:") wins unless another verdict is offered beside it ("True and false");
    otherwise the reply must hold cues of one kind only, negations read by their meaning
    ("not true" is false, "not false" is true), Chinese words included.
    """
    text = normalise_reply(reply)
    if not text:
        return Reading(None, "empty reply" if not reply.strip() else "reasoning only")
    field = json_field(text, _JSON_KEYS)
    if field is not None:
        inner = read_truth_verdict(field)
        return Reading(inner.verdict, f"JSON field: {inner.reason}")
    return read_last_verdict(text, _read)


_LIST_MARKER = re.compile(r"^\s*(?:[-*•]+|\d+[.)]|\(\d+\))\s*")


def parse_truth_verdicts(reply: str) -> list[TruthVerdict]:
    """Read one verdict per non-blank line (a checker judging several facts at once);
    list markers ("1.", "-") before a verdict are not part of it."""
    return [
        parse_truth_verdict(_LIST_MARKER.sub("", line))
        for line in strip_reasoning(reply).splitlines()
        if line.strip()
    ]


def paper_truth_reading(reply: str) -> PaperTruth:
    """The authors' reading of a checker's reply (`evaluate/evaluate_with_pplai.py` in
    seemdog/DAHL): lower-cased, "true" and "false" both in it is bad, else "true" in it is
    true, else "false" in it is false, else bad. Substrings: "Not true." reads true."""
    text = reply.lower()
    if "true" in text and "false" in text:
        return "bad"
    if "true" in text:
        return "true"
    if "false" in text:
        return "false"
    return "bad"
