"""Parsing MedHal's answer format: "Factual: YES/NO" and an explanation.

`parse_factual_verdict` is our strict reading (reasoning blocks removed, the verdict after
an explicit self-correction read, labels and headings read as labels, verdict words in
English, Spanish, French, German, Portuguese and Chinese); `paper_factual_reading` is
MedHal's own (the first yes/no word of the reply), for the authors' figures.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from medhalbench.judging import Reading, normalise_reply, offers_alternatives, read_last_verdict

_YES = r"yes|s[íi]|oui|ja|sim|是|对"
_NO = r"no|non|nein|n[ãa]o|否|不是|不"
# What a label may hold besides yes/no ("Answer: True", "Verdict: not factual").
_TRUE = r"true|verdader[oa]|vraie?|wahr|verdadeir[oa]|accurate|correct|(?:factual)"
_FALSE = r"false|fals[oa]|faux|fausse|falsch|inaccurate|incorrect|wrong|(?:not\s+|non-?)factual"
_LABEL_VALUE = rf"{_YES}|{_NO}|{_FALSE}|{_TRUE}"
# "Factual: NO", and the answer to the prompt's YES/NO question under another name
# ("Verdict: NO", "Answer: YES", a "### Verdict" heading, which normalising makes a label).
_LABEL = re.compile(
    r"(?:\b(?:factual|factuel(?:le)?|f[áa]ctic[oa]|faktisch|verdict|answer|conclusion"
    r"|veredicto|respuesta|r[ée]ponse|antwort|urteil|resposta)|事实性|事实|结论|答案)"
    rf"\s*[:\-=?—–：]\s*({_LABEL_VALUE})(?![^\W\d_])",
    re.IGNORECASE,
)
_EXPLANATION_WORDS = (
    r"explanation|explicaci[óo]n|explication|erkl[äa]rung|begr[üu]ndung|explica[çc][ãa]o"
)
# "Explanation: ...", "Reason: ...", or a header line "Explanation" (markdown marks removed).
_EXPLANATION = re.compile(
    rf"(?:^\s*(?:{_EXPLANATION_WORDS})\s*[:\-：]?|\b(?:{_EXPLANATION_WORDS}|reason(?:ing)?|raz[óo]n"
    r"|raison|grund|raz[ãa]o)\s*[:：]|(?:解释|理由)\s*[:：])\s*",
    re.IGNORECASE | re.MULTILINE,
)
# Clear verdicts in the reply's first sentence, without the "Factual:" label.
# Each pattern's groups: an optional negation, then the verdict word.
_FIRST_SENTENCE_VERDICTS = [
    re.compile(rf"^()({_YES}|{_NO})(?![^\W\d_])(?!\s*(?:or|/|o|ou|oder)\s*(?:{_YES}|{_NO})\b)"),
    re.compile(
        r"^(?:the|this)\s+statement\s+(?:is|appears|seems)\s+(?:to\s+be\s+)?(?:factually\s+)?"
        r"(not\s+|non-?)?(factual|accurate|correct|true|false|inaccurate|incorrect|wrong)\b"
    ),
    re.compile(
        r"^(?:la\s+afirmaci[óo]n|el\s+enunciado|l'affirmation|l'énoncé|die\s+aussage"
        r"|a\s+afirma[çc][ãa]o|o\s+enunciado)\s+(?:es|est|ist|é)\s+"
        r"(no\s+|pas\s+|nicht\s+|n[ãa]o\s+)?(verdader[oa]|fals[oa]|correct[oa]|incorrect[oa]|vraie?"
        r"|fausse|faux|exacte|inexacte|wahr|falsch|richtig|verdadeir[oa]|corret[oa]|incorret[oa])\b"
    ),
    re.compile(r"^(?:该|这个|这一)?(?:陈述|说法)(?:是)?(不)?(正确|错误|真实|虚假)"),
    re.compile(r"^(not\s+|non-?)?(factual)[.!]?$"),
    # "False." or "True" alone as the first sentence.
    re.compile(r"^()(true|false|correct|incorrect|accurate|inaccurate)[.!]?$"),
]
_NEGATIVE_WORDS = {
    "false", "inaccurate", "incorrect", "wrong", "falso", "falsa", "incorrecto", "incorrecta",
    "fausse", "faux", "inexacte", "falsch", "incorreto", "incorreta", "错误", "虚假",
}  # fmt: skip
_NO_WORD = re.compile(rf"^(?:{_NO})$", re.IGNORECASE)
# "No" as a determiner ("Answer: no hallucination", "no errors"): the statement is factual.
_NO_FAULT = re.compile(
    r"[ \t]+(?:hallucinat\w*|errors?\b|issues?\b|problems?\b|inaccura\w*|mistakes?\b|factual\s+errors?\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class FactualVerdict:
    """A parsed reply: `factual` is None when no verdict could be read."""

    factual: bool | None
    explanation: str | None
    reason: str = ""


def _first_sentence_verdict(sentence: str) -> tuple[bool, int] | None:
    """A clear verdict at the start of a sentence, and where its words end."""
    for pattern in _FIRST_SENTENCE_VERDICTS:
        match = pattern.match(sentence)
        if match:
            negation, word = match.groups()
            negative = word in _NEGATIVE_WORDS or bool(_NO_WORD.match(word))
            return (not negative) != bool(negation), match.end()
    return None


def _label_says_factual(value: str) -> bool:
    return re.fullmatch(rf"{_YES}|{_TRUE}", value, re.IGNORECASE) is not None


def _json_verdict(text: str) -> FactualVerdict | None:
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        # A reply cut inside its JSON (at the token limit) still states its verdict.
        cut = re.match(
            r'\{\s*"factual"\s*:\s*"(yes|no)"\s*,?\s*(?:"explanation"\s*:\s*"(.*))?',
            text,
            re.IGNORECASE | re.DOTALL,
        )
        if not cut:
            return FactualVerdict(None, None, "unreadable JSON")
        explanation = (cut.group(2) or "").strip() or None
        return FactualVerdict(
            cut.group(1).lower() == "yes", explanation, "JSON cut at the token limit"
        )
    if not isinstance(value, dict):
        return FactualVerdict(None, None, "JSON without a factual field")
    fields = {str(k).lower(): v for k, v in value.items()}
    raw = fields.get("factual")
    verdict = {"yes": True, "no": False, "true": True, "false": False}.get(str(raw).strip().lower())
    explanation = fields.get("explanation")
    explanation = str(explanation).strip() if explanation else None
    if verdict is None:
        return FactualVerdict(None, explanation, "JSON without a yes/no factual field")
    return FactualVerdict(verdict, explanation or None, "JSON field")


def parse_factual_verdict(reply: str) -> FactualVerdict:
    """Read a MedHal judge's reply.

    The verdict comes from a JSON object's `factual` field, from "Factual: YES/NO" labels
    (markdown allowed; an echo such as "Factual: YES or NO" is no verdict), and from a
    clear verdict in the first sentence ("No, the statement is not factual.", "NO.",
    "The statement is factual."); all that are present must agree. The explanation is the
    text after an "Explanation" label or header (the header itself excluded), else the
    text after the verdict.
    """
    text = normalise_reply(reply, lower=False)
    if not text:
        return FactualVerdict(None, None, "empty reply")
    from_json = _json_verdict(text)
    if from_json is not None:
        return from_json
    read = read_last_verdict(text, _read)
    if read.verdict is None:
        return FactualVerdict(None, None, read.reason)
    factual, explanation = read.verdict
    return FactualVerdict(factual, explanation, read.reason)


def _read(text: str) -> Reading[tuple[bool, str | None]]:
    """Read a normalised reply without self-corrections: its verdict and explanation."""
    text = text.strip()
    verdicts: list[bool] = []
    verdict_end = 0
    for match in _LABEL.finditer(text):
        if offers_alternatives(text[match.end() :].lower(), _LABEL_VALUE):
            continue  # the prompt's "Factual: YES or NO"
        no_fault = _NO_WORD.match(match.group(1)) and _NO_FAULT.match(text, match.end())
        verdicts.append(bool(no_fault) or _label_says_factual(match.group(1)))
        verdict_end = verdict_end or (no_fault.end() if no_fault else match.end())
    explanation_match = _EXPLANATION.search(text)
    head = text[: explanation_match.start()] if explanation_match else text
    first = re.split(r"(?<=[.!?。])\s*|\n", head.strip(), maxsplit=1)[0].strip().lower()
    from_sentence = _first_sentence_verdict(first)
    if from_sentence is not None:
        verdicts.append(from_sentence[0])
        # The explanation follows the verdict's words (after a label, when there is one).
        verdict_end = verdict_end or from_sentence[1]
    if not verdicts:
        return Reading(None, "no verdict found")
    if len(set(verdicts)) > 1:
        return Reading(None, "conflicting verdicts")
    if explanation_match:
        explanation = text[explanation_match.end() :].strip()
    else:
        explanation = text[verdict_end:].lstrip(" .,:;\n-—–").rstrip()
    return Reading((verdicts[0], explanation or None), "read")


_FIRST_YES_NO = re.compile(r"\b(yes|no)\b", re.IGNORECASE)


def paper_factual_reading(reply: str) -> bool | None:
    """MedHal's own reading (`MedHalParser._get_prediction`): the first "yes" or "no" word
    of the reply (any case), None when there is none (the reply does not match the format)."""
    match = _FIRST_YES_NO.search(reply)
    return None if match is None else match.group(1).lower() == "yes"


def paper_explanation(reply: str) -> str:
    """MedHal's own explanation of a reply: the lower-cased text after its first yes/no
    word, stripped (a label, JSON or an empty string included)."""
    text = reply.lower()
    match = _FIRST_YES_NO.search(text)
    return text[match.end() :].strip() if match else ""
