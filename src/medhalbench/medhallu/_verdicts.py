"""Strict parsing of a detector's verdict: 0 factual, 1 hallucinated, 2 not sure.

Never guesses. Reasoning blocks are removed and, after an explicit self-correction ("wait",
"on second thought", "re-reading ..."), the verdict stated last is read. A reply is read only
when its cues agree; an echo of the prompt's options, a numbered list, a restated
hallucination type or several standalone verdicts that disagree are no verdict; anything
else is unparseable and counted as such by the metrics. Verdict words are read in English,
Spanish, French, German, Portuguese and Chinese. `paper_detection_reading` is MedHallu's own
substring reading, for the `paper_*` figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from medhalbench.judging import (
    Reading,
    json_field,
    normalise_reply,
    offers_alternatives,
    read_last_verdict,
)


class DetectionLabel(IntEnum):
    """A detector's answer, in MedHallu's numbering."""

    FACTUAL = 0
    HALLUCINATED = 1
    NOT_SURE = 2


@dataclass(frozen=True)
class DetectionVerdict:
    """The result of parsing one reply.

    Attributes:
        label: The verdict, or None when the reply could not be read.
        reason: Why it was read that way (or why not), for the log.
    """

    label: DetectionLabel | None
    reason: str

    @property
    def parsed(self) -> bool:
        """Whether the reply gave a readable verdict."""
        return self.label is not None


_NOT_SURE = re.compile(
    r"\b(not\s+(?:sure|certain|confident)|unsure|uncertain|can(?:not|'t)\s+(?:determine|tell|say|decide)"
    r"|i\s+(?:do\s+not|don't)\s+know|hard\s+to\s+(?:say|tell)|no\s+estoy\s+segur[oa]"
    r"|pas\s+s[ûu]re?|nicht\s+sicher|n[ãa]o\s+tenho\s+certeza)\b|不确定|无法确定|不能确定"
)
# A verdict digit: not part of a number ("10", "0.5"), a word or a hyphenated term ("1-Year").
_DIGIT = r"(?<![\w.\-])([012])(?![\w])(?!\.\d)(?!-\w)"
_VERDICT_PHRASE = (
    r"(?:(?:final\s+)?(?:answer|verdict|label|output|prediction|classification|judge?ment|rating"
    r"|respuesta|r[ée]ponse|antwort|resposta|veredicto|urteil|答案|判断|结论)"
    r"(?:\s+is|\s+es|\s+est|\s+ist|\s+é)?\s*[:=\-：]?|i\s+(?:would\s+)?(?:say|choose|pick|answer"
    r"|rate\s+(?:it|this))(?:\s+it(?:'s|\s+is))?|(?:it|this)\s+is|boxed\{)"
)
_LEADING = re.compile(rf"^[\s\"'(\[]*(?:{_VERDICT_PHRASE}\s*)?[\s\"'(\[]*{_DIGIT}")
_PHRASED_DIGIT = re.compile(rf"{_VERDICT_PHRASE}\s*[\"'(\[]*{_DIGIT}")
_FINAL_DIGIT = re.compile(rf"{_DIGIT}[\s.!)\]\"'}}]*$")
# A line holding nothing but a verdict digit (a list of verdicts is no single verdict).
_DIGIT_LINE = re.compile(r"^[\s\-*•>\"'(\[]*([012])[\s.!)\]\"']*$", re.MULTILINE)
# "0 if the answer is factual", "1 = hallucinated", "2: not sure": the prompt's options.
_OPTION = re.compile(
    r"(?<![\w.])\(?([012])\)?\s*(?:if|=|:|-|–|—|means|for|->|→)\s*(?:the\s+answer\s+is\s+)?"
    r"(?:factual|hallucinated|not\s+sure|unsure)"
)
_LIST_ITEM = re.compile(r"^\s*(\d+)[.)]\s+\S", re.MULTILINE)
_HALLUCINATION_TYPES = re.compile(
    r"^\s*(?:\d+[.)]\s*)?(?:type\s*:?\s*)?(?:misinterpretation\s+of|incomplete\s+information"
    r"|mechanism\s+and\s+pathway|methodological\s+and\s+evidence)"
)
_NEGATION = (
    r"not|no|non|isn't|is\s+not|free\s+of|without|(?:does\s+not|doesn't)\s+contain(?:\s+any)?"
    r"|sin|no\s+es|no\s+está|no\s+hay|sans|pas\s+d[e']|n'est\s+pas|ohne|kein\w*|nicht"
    r"|sem|n[ãa]o\s+é|n[ãa]o\s+h[áa]|n[ãa]o"
)
_HALLUCINATED = re.compile(
    rf"\b(?:({_NEGATION})[\s-]+(?:an?\s+|una?\s+|une?\s+|eine?\s+|um\s+|uma\s+)?)?"
    r"(hallucinat\w*|alucina\w*|hallucin\w*|halluzin\w*)\b"
)
_HALLUCINATED_ZH = re.compile(r"(不是|没有|无|非)?(?:存在)?(幻觉)")
_FACTUAL = re.compile(
    rf"\b(?:({_NEGATION})[\s-]+)?(factual(?:ly\s+correct)?|f[áa]ctic[oa]|factuel(?:le)?|faktisch)\b"
)
_FACTUAL_ZH = re.compile(r"(不是|不|非)?(符合事实|事实性|真实)")
# What the reply says of the answer against the evidence ("the answer is correct", "it does
# not match the abstract", "contradicts the knowledge").
_EVIDENCE = r"(?:abstract|knowledge|context|evidence|passage|study|literature|source|text|data)"
_ANSWER_QUALITY = re.compile(
    r"\b(?:the\s+)?(?:answer|response|it|this)\s+(?:is|seems|appears\s+to\s+be)\s+"
    r"(not\s+|in|un)?(correct|accurate|supported|consistent)\b"
    r"|\b(?:the\s+)?(?:answer|response|it)\s+(?:(does\s+not|doesn't)\s+|does\s+)?match(?:es)?"
    rf"(?:\s+the\s+{_EVIDENCE}|(?=\s*[.!:;,\n]|$))"
    rf"|\b(contradicts|is\s+inconsistent\s+with|is\s+not\s+supported\s+by|conflicts\s+with)\s+the\s+{_EVIDENCE}"
    rf"|\bis\s+(supported\s+by|consistent\s+with)\s+the\s+{_EVIDENCE}"
)
_JSON_KEYS = ("verdict", "label", "answer", "prediction", "judgement", "judgment")


# "whether it is correct", "if the answer matches the abstract": a question, not a claim.
_OPEN_QUESTION = re.compile(r"\b(?:whether|if)\b[^.,;:\n]*")


def _quality_cues(text: str) -> set[DetectionLabel]:
    cues: set[DetectionLabel] = set()
    claims = _OPEN_QUESTION.sub(" ", text)
    for negated, _, does_not, against, supported in _ANSWER_QUALITY.findall(claims):
        if against:
            cues.add(DetectionLabel.HALLUCINATED)
        elif supported:
            cues.add(DetectionLabel.FACTUAL)
        else:
            bad = bool(negated) or bool(does_not)
            cues.add(DetectionLabel.HALLUCINATED if bad else DetectionLabel.FACTUAL)
    return cues


def _word_cues(text: str) -> set[DetectionLabel]:
    cues: set[DetectionLabel] = set()
    for negation, _ in _HALLUCINATED.findall(text):
        cues.add(DetectionLabel.FACTUAL if negation else DetectionLabel.HALLUCINATED)
    for negation, _ in _HALLUCINATED_ZH.findall(text):
        cues.add(DetectionLabel.FACTUAL if negation else DetectionLabel.HALLUCINATED)
    for negation, _ in _FACTUAL.findall(text):
        cues.add(DetectionLabel.HALLUCINATED if negation else DetectionLabel.FACTUAL)
    for negation, _ in _FACTUAL_ZH.findall(text):
        cues.add(DetectionLabel.HALLUCINATED if negation else DetectionLabel.FACTUAL)
    return cues | _quality_cues(text)


def _cues(text: str) -> set[DetectionLabel]:
    """Every verdict cue in a text: not-sure phrases, label words, digits in verdict position."""
    cues = {DetectionLabel.NOT_SURE} if _NOT_SURE.search(text) else set()
    # Without the not-sure phrases, so that their "not" cannot negate a following word.
    rest = _NOT_SURE.sub(" ", text)
    digits = [m.group(1) for m in _PHRASED_DIGIT.finditer(rest)]
    final = _FINAL_DIGIT.search(rest)
    if final:
        digits.append(final.group(1))
    return cues | {DetectionLabel(int(d)) for d in digits} | _word_cues(rest)


def _names(labels: set[DetectionLabel]) -> str:
    return ", ".join(sorted(str(int(label)) for label in labels))


def _read(text: str) -> Reading[DetectionLabel]:
    """Read a normalised reply without self-corrections (see `parse_detection_verdict`)."""
    text = text.strip()
    if not text:
        return Reading(None, "no verdict found")
    if len({m.group(1) for m in _OPTION.finditer(text)}) > 1:
        return Reading(None, "echoes the prompt's options")
    for kind, found in (("standalone", _DIGIT_LINE), ("stated", _PHRASED_DIGIT)):
        several = {m.group(1) for m in found.finditer(text)}
        if len(several) > 1:
            return Reading(None, f"several {kind} verdicts ({', '.join(sorted(several))})")
    if len({m.group(1) for m in _LIST_ITEM.finditer(text)}) > 1:
        return Reading(None, "a numbered list, no single verdict")
    if _HALLUCINATION_TYPES.match(text):
        return Reading(None, "restates a hallucination type, no verdict")

    leading = _LEADING.match(text)
    if leading:
        label = DetectionLabel(int(leading.group(1)))
        rest = text[leading.end() :]
        if offers_alternatives(rest, "0|1|2"):
            return Reading(None, "alternatives offered, no single verdict")
        if re.match(r"[.)]\s*\S", rest):  # "1. ..." reads like a list item
            others = _cues(rest[1:]) - {label}
            if others:
                return Reading(None, f"conflicting verdicts ({_names(others | {label})})")
        return Reading(label, "leading digit")

    cues = _cues(text)
    if not cues:
        return Reading(None, "no verdict found")
    if len(cues) > 1:
        return Reading(None, f"conflicting verdicts ({_names(cues)})")
    return Reading(cues.pop(), "single cue")


def parse_detection_verdict(reply: str, *, allow_not_sure: bool = False) -> DetectionVerdict:
    """Read a detector's reply.

    Rules, in order:
    1. Reasoning blocks (`<think>...</think>` and the like) are removed; a JSON object's
       `verdict` (or `label`, `answer`) field is read by these rules.
    2. After an explicit self-correction ("wait", "on second thought", "re-reading ...";
       "actually," when a verdict follows) only the text after the last one is read.
    3. An echo of the prompt's options (`0 if ... factual` / `1 if ... hallucinated`), a
       numbered list, a restated hallucination type, or standalone verdict lines that
       disagree ("1\\n0\\n1") are no verdict.
    4. A verdict digit at the start of the reply (optionally after "Answer:") wins, unless
       another digit is offered as an alternative ("0 or 1"). A list-style "1." followed by
       text is read only when the text holds no conflicting cue.
    5. Otherwise every cue must agree: digits in verdict position ("the answer is 1", a
       final "1"), "not sure" phrases, "hallucinated"/"factual" with their negations (also
       in Spanish, French, German, Portuguese and Chinese), and what the reply says of the
       answer against the evidence ("the answer is correct", "contradicts the abstract").
       Digits inside numbers, words or hyphenated terms ("1-Year") are not cues.

    Args:
        reply: The model's completion.
        allow_not_sure: Whether 2 / "not sure" is a valid answer in this setting; when it
            is not, such a reply is unparseable.

    Returns:
        The verdict, or an unparseable verdict with the reason.
    """
    text = normalise_reply(reply)
    if not text:
        return DetectionVerdict(None, "empty reply" if not reply.strip() else "reasoning only")
    field = json_field(text, _JSON_KEYS)
    if field is not None:
        inner = parse_detection_verdict(field, allow_not_sure=allow_not_sure)
        return DetectionVerdict(inner.label, f"JSON field: {inner.reason}")
    read = read_last_verdict(text, _read)
    if read.verdict is DetectionLabel.NOT_SURE and not allow_not_sure:
        return DetectionVerdict(None, f"'not sure' ({read.reason}) is not an allowed answer here")
    return DetectionVerdict(read.verdict, read.reason)


def paper_detection_reading(reply: str) -> DetectionLabel:
    """MedHallu's own reading of a reply (`calculate_metrics` in the authors'
    `Detection/detection_vllm_notsurecase.py`), by substring tests on the lower-cased text.

    Any of "1", "not", "non" reads as hallucinated; otherwise any of "not sure", "pass",
    "skip", "2" reads as not sure (in every setting: theirs is the only published scorer);
    everything else, unreadable replies included, reads as factual. The hallucinated test
    comes first, so "not sure" itself reads as hallucinated, as in the authors' script.
    """
    text = reply.lower()
    if any(s in text for s in ("1", "not", "non")):
        return DetectionLabel.HALLUCINATED
    if any(s in text for s in ("not sure", "pass", "skip", "2")):
        return DetectionLabel.NOT_SURE
    return DetectionLabel.FACTUAL
