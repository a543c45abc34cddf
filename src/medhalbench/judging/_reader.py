"""The strict verdict reader every benchmark's reader is built on.

Its first rule is never to read the wrong class. A reply is read as a stance on the judged
text (it holds, it fails, or the reply cannot tell) from its cues:

- *marked* cues: a label and its value ("Factual: NO", "Hallucination: No", "Verdict: 1",
  a JSON field, a table row, a boxed answer), a verdict at the start of the reply ("False.",
  "1 - hallucinated"), a verdict digit in verdict position ("the answer is 1", a final "0");
- *prose* cues: what the reply says of the judged text as a whole ("the statement is
  consistent with the context", "it is not hallucinated", "contains no errors"), negations
  and double negations read by their meaning; a verdict word about a part ("the dose is
  wrong") or in a condition or a question is no cue.

A reply that offers both classes ("0 (if ...) / 1 (if ...)", "True (or false, depending
...)"), whose marked cues disagree, or whose label contradicts its own explanation (no prose
cue agrees with the label and some oppose it) is not read. A cue labelled final ("Final
answer: 1") outweighs the marked cues before it. Words of every language come from
`verdict_words.yaml`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from medhalbench.judging._reply import Reading
from medhalbench.judging._structure import key_words
from medhalbench.judging._vocabulary import (
    WORD_CHAR,
    LabelSense,
    Stance,
    VerdictWord,
    WordKind,
    vocabulary,
)

Tone = Stance | Literal["partial", "hedge"]
"""What a cue says: a stance, a partial verdict ("partly true"), or a hedge ("it depends")."""

_OPPOSITE: dict[Stance, Stance] = {"holds": "fails", "fails": "holds", "unsure": "unsure"}


@dataclass(frozen=True)
class VerdictSchema:
    """How one benchmark's replies are read.

    Attributes:
        yes: The stance a plain "yes" states (None: the question is no yes/no question, and
            yes/no say nothing).
        digits: Verdict digits and their stances (MedHallu: 0 holds, 1 fails, 2 unsure).
        alone: Word kinds a reply may state without a subject ("False.", "Vero").
        anywhere: Word kinds that are cues about whatever they stand beside ("parts are
            hallucinated" fails the answer); other kinds count only of the whole text.
        unsure: Whether "cannot tell" is an answer here.
        hedge_is_unsure: A hedge, a partial verdict or doubt beside a verdict reads as
            unsure (DAHL's checker: "partly true" is unknown), instead of unreadable.
    """

    yes: Stance | None = None
    digits: Mapping[str, Stance] = field(default_factory=dict)
    alone: frozenset[WordKind] = frozenset()
    anywhere: frozenset[WordKind] = frozenset()
    unsure: bool = False
    hedge_is_unsure: bool = False


@dataclass(frozen=True)
class Cue:
    """One thing a reply says about its verdict.

    Attributes:
        tone: What it says.
        start: Where it starts in the reply.
        end: Where it ends.
        how: What kind of cue ("label", "lead", "digit", "word", "evidence", "fault",
            "unsure", "hedge", "partial").
        marked: A marked answer (label, leading verdict, verdict digit), not prose.
        final: Labelled as the final answer.
        initial: Labelled as an answer a final one replaces ("Initial answer: 0").
        whole: About the judged text as a whole (prose cues).
        kind: The verdict word's kind, for word cues.
    """

    tone: Tone
    start: int
    end: int
    how: str
    marked: bool = False
    final: bool = False
    initial: bool = False
    whole: bool = True
    kind: WordKind | None = None


# ---- values: what stands after a label, or at the start of a reply -----------------------

_VALUE_LEAD = re.compile(r"[\s\"'(\[{*`>~=:\-–—→•]*")
_DIGIT = re.compile(
    r"([0-2])(?![\w])(?!\.\d)(?!-\w)(?!\s*(?:%|/\s*\d|\.\d))"
    r"(?![ \t]+(?:patients?|stud(?:y|ies)|mg|ml|years?|months?|weeks?|days?|hours?|cases?|"
    r"trials?|groups?|cohorts?|participants?|subjects?|arms?|doses?|of|in|out)\b)",
    re.IGNORECASE,
)
_NONE = re.compile(
    r"(?:none|nothing|n/?a|nil|null|keine?|ninguna?|aucune?|无|なし|없음)(?!\w)", re.I
)


@dataclass(frozen=True)
class Value:
    """A value read at a position.

    Attributes:
        tone: The stance it gives under the label sense it was read with (None: none).
        end: Where it ends.
        word: The verdict word it holds, if any.
    """

    tone: Tone | None
    end: int
    word: VerdictWord | None = None


def _affirms(tone: Stance, sense: LabelSense) -> Stance:
    """The stance of an affirmation (yes, true, ✅, 1) or denial under a label."""
    if sense == "fails":
        return _OPPOSITE[tone]
    return tone


def read_value(
    text: str, start: int, schema: VerdictSchema, sense: LabelSense, *, leading: bool = False
) -> Value:
    """The verdict value at `start` (after a label of `sense`, or at the reply's start).

    Affirmations (yes, true, correct, ✅, and 1/0 under a yes/no label) answer the label's
    question; factuality and hallucination words say their own stance; digits say what the
    schema says; unsure words are unsure."""
    words = vocabulary()
    position = start + _VALUE_LEAD.match(text, start).end() - start  # type: ignore[union-attr]
    rest = text[position:]
    mark = rest[:1] if rest[:1] in words.affirm | words.deny else ""
    if not mark and rest[:2] in words.affirm | words.deny:
        mark = rest[:2]
    if mark:
        after = position + len(mark)
        behind = read_value(text, after, schema, sense, leading=leading)
        if behind.tone is not None:
            return behind  # "❌ Hallucinated": the sign decorates the word
        affirmed = mark in words.affirm
        if sense == "neutral":
            return Value(_yes(schema, affirmed), after)
        return Value(_affirms("holds" if affirmed else "fails", sense), after)
    unsure = words.unsure.match(rest)
    if unsure:
        return Value("unsure", position + unsure.end())
    partial = words.partial.match(rest)
    if partial:
        inner = read_value(text, position + partial.end(), schema, sense)
        if inner.word is not None:
            return Value("partial", inner.end, inner.word)
    negated = False
    negation = _negation_ahead().match(rest)
    if negation and negation.end() > 0:
        following = rest[negation.end() :]
        if words.faults.match(following) or words.words.match(following):
            negated = True
            rest = following
            position += negation.end()
    word = words.words.match(rest)
    if word:
        meaning = words.meaning(word)
        if (
            meaning.start_only
            and not leading
            and sense == "neutral"
            and not _label_context(text, start)
        ):
            return Value(None, position)
        tone: Stance = meaning.stance
        if meaning.kind in ("truth", "correctness") and sense != "neutral":
            tone = _affirms(tone, sense)
        end = position + word.end()
        after = words.negation_after.match(text[end:])
        if after:  # 誤りではありません, 환각이 없습니다
            negated, end = not negated, end + after.end()
        return Value(_OPPOSITE[tone] if negated else tone, end, meaning)
    if negated and words.faults.match(rest):  # "no errors", "keine Fehler"
        fault = words.faults.match(rest)
        assert fault is not None
        return Value("holds", position + fault.end())
    if schema.digits or sense != "neutral":
        digit = _DIGIT.match(rest)
        if digit:
            return Value(_digit_tone(digit.group(1), schema, sense), position + digit.end())
    for pattern, affirm in ((words.yes, True), (words.no, False)):
        answer = pattern.match(rest)
        if not answer:
            continue
        end = position + answer.end()
        if not affirm:
            fault = re.match(r"[ \t]+", text[end:])
            tail = text[end + (fault.end() if fault else 0) :]
            noun = words.faults.match(tail) if fault else None
            if noun:  # "No hallucination", "No errors found": the text holds
                return Value("holds", end + fault.end() + noun.end())  # type: ignore[union-attr]
        if sense == "neutral":
            return Value(_yes(schema, affirm), end)
        return Value(_affirms("holds" if affirm else "fails", sense), end)
    if sense != "neutral":
        none = _NONE.match(rest)
        if none:
            return Value(_affirms("fails", sense), position + none.end())
    return Value(None, position)


def _label_context(text: str, start: int) -> bool:
    return start > 0 and text[start - 1 : start] in (":", "：")


def _yes(schema: VerdictSchema, affirm: bool) -> Stance | None:
    if schema.yes is None:
        return None
    return schema.yes if affirm else _OPPOSITE[schema.yes]


def _digit_tone(digit: str, schema: VerdictSchema, sense: LabelSense) -> Stance | None:
    """A digit's stance: a verdict code where the schema has codes, a yes/no flag (1/0)
    under a yes/no label; where both readings apply they must agree ("Hallucinated: 1"
    does, "Factual: 1" does not: is it true, or verdict 1?)."""
    code = schema.digits.get(digit)
    if sense == "neutral" or digit not in "01":
        return code
    flag = _affirms("holds" if digit == "1" else "fails", sense)
    if code is not None and code != flag:
        return None
    return flag


# ---- labels ---------------------------------------------------------------------------------


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


_LABEL_NEGATION = re.compile(r"\b(?:not|non|no|is not|isn't)\b|-?\bfree\b", re.IGNORECASE)


@dataclass(frozen=True)
class Label:
    """A label found in a reply: its sense, and whether it marks the final answer."""

    sense: LabelSense | Literal["explanation"]
    final: bool
    start: int
    end: int
    initial: bool = False


_COPULA_INSIDE = re.compile(
    r"(?<!^)\b(?:is|are|was|were|seems|appears|does|do)(?:n't)?\b", re.IGNORECASE
)


def classify_label(phrase: str) -> tuple[LabelSense | Literal["explanation"], bool] | None:
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
    # The last label word is the label's head: "Correct answer" asks for an answer (neutral),
    # "Is the answer hallucinated" asks whether it is hallucinated (fails).
    heads = [
        (match.end(), sense)
        for sense in ("fails", "holds", "neutral")
        for match in words.labels[sense].finditer(text)
    ]
    if heads:
        _, sense = max(heads, key=lambda head: head[0])
        if sense != "neutral" and _LABEL_NEGATION.search(text):
            return ("holds" if sense == "fails" else "fails"), final
        return sense, final  # type: ignore[return-value]
    if final and re.search(r"\b(?:answer|verdict)\b", text, re.I):
        return "neutral", True
    return None


def find_labels(text: str) -> list[Label]:
    """Every label in a reply, with where its value starts."""
    found = []
    for match in _label_pattern().finditer(text):
        phrase = match.group("phrase")
        before = text[: match.start("phrase")].rstrip(" \t-*•>")
        strong = not before or before[-1] in "\n.!?。;；,，:：" or not before[-1].isalnum()
        if not strong and len(key_words(phrase).split()) > 2:
            continue  # inside a sentence, only a short label ("..., so my answer: 1")
        if match.group("sep").strip() in ("-", "–", "—") and len(phrase.split()) > 3:
            continue  # "The answer is not hallucinated - it matches": prose, not a label
        classified = classify_label(phrase)
        if classified is None:
            continue
        sense, final = classified
        initial = bool(vocabulary().initial_labels.search(phrase))
        found.append(Label(sense, final, match.start("phrase"), match.end(), initial))
    return found


# ---- prose ----------------------------------------------------------------------------------

_CLAUSE_END = re.compile(
    r"[.!?。！？;；:：\n,，—–(]|\b(?:but|however|while|whereas|although|though|yet|and|because|since"
    r"|given\s+that|so\s+that)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?。！？\n]")
# A verdict word before a noun qualifies the noun ("the correct dose", "false positives").
_FOLLOWING_NOUN = re.compile(
    r"^[ \t]+(?!(?:and|or|but|because|since|as|in|with|to|for|based|given|according|overall|"
    r"here|there|so|though|although|yet|if|when|while|regarding|about|on|at|by|from|per|than|"
    r"that|which|it|this|the|a|an|of|enough|now|too|either|nor|anyway|then|except|without|"
    r"compared|relative|insofar|inasmuch|not|is|are|was|were|statement|answer|claim|response|"
    r"information|content|details?|overall|throughout|here|today|indeed|though|"
    # the conjunctions and prepositions of other languages written in the Latin script
    r"e|ed|y|et|und|en|o|ou|oder|ma|mais|pero|aber|con|com|mit|avec|per|para|pour|según|selon)\b)"
    r"[a-z]"
)
# A verdict noun before another noun makes a compound ("hallucination types"); a participle
# qualifies it ("fabricated evidence" is a verdict).
_NOUN_FORM = re.compile(r"(?:ion|ions|ung|ungen|ión|ção)$", re.IGNORECASE)
_HYPOTHETICAL = re.compile(
    r"(?:would|could|might|may|should|can)\s+(?:not\s+)?(?:be|seem|appear|look)\s*(?:\w+\s+)?$",
    re.IGNORECASE,
)


def _clause_start(text: str, position: int) -> int:
    ends = [m.end() for m in _CLAUSE_END.finditer(text, 0, position)]
    return ends[-1] if ends else 0


def _sentence(text: str, position: int) -> tuple[int, int]:
    before = [m.end() for m in _SENTENCE_END.finditer(text, 0, position)]
    after = _SENTENCE_END.search(text, position)
    return (before[-1] if before else 0), (after.end() if after else len(text))


def _is_whole(prefix: str) -> bool:
    """Whether the words before a verdict word (in its clause) name the judged text as a
    whole, or nothing else: "the answer is", "I'd classify it as", "" but not "the dose is"."""
    words = vocabulary()
    if not re.search(r"[A-Za-zÀ-ÿ\u0400-\u04ff\u0600-\u06ff\u0900-\u097f]", prefix):
        return True  # nothing, or a script without spaces: about the whole
    rest = words.subjects.sub(" ", prefix)
    rest = words.negation.sub(" ", words.fillers.sub(" ", rest))
    return not re.search(WORD_CHAR, rest)


def _in_condition(text: str, start: int) -> bool:
    words = vocabulary()
    clause = text[_clause_start(text, start) : start]
    return bool(words.conditionals.search(clause)) or bool(_HYPOTHETICAL.search(clause))


def _in_question(text: str, start: int) -> bool:
    _, end = _sentence(text, start)
    return text[start:end].rstrip().endswith(("?", "？"))


def _frame_end(text: str, start: int) -> int | None:
    """Where a frame that denies its clause ("I don't think", "it is not that") ends, when
    one stands before `start` in its sentence."""
    words = vocabulary()
    begin, _ = _sentence(text, start)
    frames = list(words.frames.finditer(text, begin, start))
    return frames[-1].end() if frames else None


@functools.cache
def _negation_ahead() -> re.Pattern[str]:
    return re.compile(rf"(?:{vocabulary().negation.pattern})[ \t]*", re.IGNORECASE)


_NEGATION_EXCEPTIONS = re.compile(
    r"\b(?:not\s+only|not\s+just|no\s+(?:doubt|question|wonder)|no\s*,)", re.IGNORECASE
)
_TOKEN = re.compile(r"[\w'\-]+")
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
NEGATION_WINDOW = 4
"""Words before a verdict word a negation may stand in ("cannot be considered factual")."""


def _negated_before(prefix: str) -> bool:
    """Whether a verdict word after `prefix` is negated: an odd number of negations among
    the last words before it ("not untrue" holds; "not without errors" fails)."""
    words = vocabulary()
    # A negation stops at an offered alternative: in "not hallucinated / (or possibly)
    # hallucinated" it negates the first only, so both classes are seen offered.
    offered = list(re.finditer(rf"{words.alternatives.pattern}|/", prefix, re.IGNORECASE))
    prefix = prefix[offered[-1].end() :] if offered else prefix
    if prefix and _CJK.match(prefix[-1]):
        window = prefix[-6:]
    else:
        tokens = list(_TOKEN.finditer(prefix))
        window = (
            prefix[tokens[-NEGATION_WINDOW].start() :] if len(tokens) >= NEGATION_WINDOW else prefix
        )
    window = words.unsure.sub(" ", _NEGATION_EXCEPTIONS.sub(" ", window))
    return len(words.negation.findall(window)) % 2 == 1


# A verdict a reply only leans to and then qualifies: a hedge, not a verdict.
_LEANING = re.compile(
    r"\b(?:likely|probably|possibly|presumably|perhaps|maybe|seemingly)\s*$", re.IGNORECASE
)
_BUT_AFTER = re.compile(r"[^.;!?\n]{0,40}?,?\s+(?:but|although|though|however)\b", re.IGNORECASE)


def _tone_of_word(
    text: str, match: re.Match[str], stance: Stance, masked: str
) -> tuple[Tone, bool] | None:
    """The tone of a verdict word or evidence phrase in prose and whether it speaks of the
    whole text; None when it is no cue (in a condition, a question, or before a noun)."""
    words = vocabulary()
    start, end = match.span()
    if _in_condition(masked, start) or _in_question(masked, start):
        return None
    clause = _clause_start(masked, start)
    frame = _frame_end(masked, start)
    prefix = masked[max(clause, frame or 0) : start]
    tone: Tone = stance
    wholly = words.not_wholly.search(prefix[-40:])
    if wholly and prefix.rstrip().endswith(wholly.group(0).rstrip()):
        # "not entirely accurate" fails; "not entirely wrong" is partial.
        tone = "fails" if stance == "holds" else "partial"
        prefix = prefix[: wholly.start() + len(prefix) - len(prefix[-40:])]
    elif re.search(rf"(?:{words.partial.pattern})\s*$", prefix, re.IGNORECASE):
        tone = "partial"
    elif _LEANING.search(prefix) and _BUT_AFTER.match(masked[end:]):
        tone = "hedge"  # "Likely true, but the evidence in children is limited."
    elif _negated_before(prefix) or words.negation_after.match(masked[end:]):
        tone = _OPPOSITE[stance]
    if frame is not None and (tone == "holds" or tone == "fails"):
        tone = _OPPOSITE[tone]
    whole = _is_whole(prefix)
    return tone, whole


def _prose_cues(text: str, masked: str, schema: VerdictSchema) -> list[Cue]:
    words = vocabulary()
    cues: list[Cue] = []
    for match in words.words.finditer(masked):
        meaning = words.meaning(match)
        if meaning.start_only:
            continue
        # Only English puts its verdict adjectives before a noun ("the correct dose").
        following_noun = match.group(0).isascii() and _FOLLOWING_NOUN.match(masked[match.end() :])
        if following_noun and (
            meaning.kind != "hallucination" or _NOUN_FORM.search(match.group(0))
        ):
            continue  # "the correct dose", "hallucination rates": about something else
        toned = _tone_of_word(masked, match, meaning.stance, masked)
        if toned is None:
            continue
        tone, whole = toned
        subjectless = not re.search(
            WORD_CHAR, masked[_clause_start(masked, match.start()) : match.start()]
        )
        if subjectless and meaning.kind not in schema.alone and meaning.kind != "hallucination":
            continue  # "Correct." answers no question a detector was asked
        cues.append(Cue(tone, *match.span(), "word", whole=whole, kind=meaning.kind))
    evidence: tuple[Literal["holds", "fails"], ...] = ("holds", "fails")
    for stance in evidence:
        for match in words.evidence[stance].finditer(masked):
            toned = _tone_of_word(masked, match, stance, masked)
            if toned is None:
                continue
            tone, whole = toned
            if not whole:  # "the context contradicts this": the judged text is the object
                whole = bool(
                    re.match(rf"\s+(?:{words.subjects.pattern})", masked[match.end() :], re.I)
                )
            cues.append(Cue(tone, *match.span(), "evidence", whole=whole))
    for match in words.faults.finditer(masked):
        prefix = masked[_clause_start(masked, match.start()) : match.start()]
        if _negated_before(prefix) or words.negation_after.match(masked[match.end() :]):
            if not _in_condition(masked, match.start()) and not _in_question(masked, match.start()):
                cues.append(Cue("holds", *match.span(), "fault", whole=True))
    for match in words.unsure.finditer(masked):
        prefix = masked[_clause_start(masked, match.start()) : match.start()]
        if _negated_before(prefix) or _in_condition(masked, match.start()):
            continue  # "I'm not unsure", "if unsure, answer 2"
        cues.append(Cue("unsure", *match.span(), "unsure"))
    for match in words.hedges.finditer(masked):
        cues.append(Cue("hedge", *match.span(), "hedge"))
    return cues


# ---- verdict digits -------------------------------------------------------------------------

_DIGIT_TOKEN = r"(?<![\w.\-])([012])(?![\w])(?!\.\d)(?!-\w)"
_DIGIT_PHRASE = re.compile(
    r"(?:\b(?:answer|verdict|label|output|prediction|classification|judge?ment|rating|score|"
    r"respuesta|r[ée]ponse|antwort|resposta|risposta|veredicto|urteil|ответ|答案|判断|判定|结论)"
    r"(?:\s+(?:is|es|est|ist|é|è|would\s+be|will\s+be|here\s+is))?\s*[:=\-：]?"
    r"|\bi(?:'d|\s+would)?\s+(?:say|choose|pick|answer|go\s+with|rate\s+(?:it|this)|"
    r"classify\s+(?:it|this)\s+as|label\s+(?:it|this)(?:\s+as)?|mark\s+(?:it|this)(?:\s+as)?)"
    r"(?:\s+it(?:'s|\s+is))?\s*[:\-]?"
    r"|\b(?:it|this)\s+is|\b(?:so|thus|therefore|hence|overall)\s*,?|[→⇒]|->|=>|为|は|是)"
    rf"\s*[\"'(\[]*{_DIGIT_TOKEN}",
    re.IGNORECASE,
)
_FINAL_DIGIT = re.compile(rf"{_DIGIT_TOKEN}[\s.!)\]\"'}}。]*$")
_DIGIT_LINE = re.compile(r"^[\s\-*•>\"'(\[]*([012])[\s.!)\]\"']*$", re.MULTILINE)
_NOT_THIS = re.compile(
    r"(?:\bnot|\brather\s+than|\binstead\s+of|\bnor)\s*[\"'(\[]*$", re.IGNORECASE
)
_FINAL_WORDS = re.compile(r"\b(?:final|overall|conclusion|ultimately)\b|最终|最終", re.IGNORECASE)


@functools.cache
def _value_phrase() -> re.Pattern[str]:
    """A neutral label in a sentence, before its value: "the final answer is", "my verdict
    is:"."""
    neutral = vocabulary().labels["neutral"].pattern
    return re.compile(rf"(?:{neutral})\s+(?:is|was|remains)\s*[:=\-]?\s*", re.IGNORECASE)


def _phrase_cues(masked: str, schema: VerdictSchema) -> list[Cue]:
    """Values stated after a label in a sentence ("The final answer is YES")."""
    cues = []
    for match in _value_phrase().finditer(masked):
        if _in_condition(masked, match.start()) or _in_question(masked, match.start()):
            continue
        if _frame_end(masked, match.start()) is not None:
            continue
        value = read_value(masked, match.end(), schema, "neutral")
        if value.tone is None or value.tone in ("partial", "hedge") or value.word is not None:
            continue  # verdict words are read as prose, with their negations and frames
        final = bool(_FINAL_WORDS.search(masked[max(0, match.start() - 25) : match.end()]))
        cues.append(Cue(value.tone, match.start(), value.end, "phrase", marked=True, final=final))
    return cues


def _digit_cues(masked: str, schema: VerdictSchema) -> list[Cue]:
    cues = []
    for pattern, how in ((_DIGIT_PHRASE, "digit"), (_DIGIT_LINE, "digit"), (_FINAL_DIGIT, "digit")):
        for match in pattern.finditer(masked):
            tone = schema.digits.get(match.group(1))
            if _in_condition(masked, match.start(1)):
                continue  # "it could also be 0"
            if tone is None or _NOT_THIS.search(
                masked[max(0, match.start(1) - 20) : match.start(1)]
            ):
                continue  # "1, not 0": the digit it rules out
            final = bool(_FINAL_WORDS.search(masked[max(0, match.start() - 25) : match.start(1)]))
            cues.append(Cue(tone, match.start(1), match.end(1), how, marked=True, final=final))
    return cues


# ---- alternatives offered --------------------------------------------------------------------


Token = tuple[int, int, Tone, str]
"""A verdict value in a text: where it starts and ends, what it says, and its kind (a word
kind, `digit`, `answer` for yes/no, `unsure`)."""


def _value_tokens(text: str, schema: VerdictSchema) -> list[Token]:
    """Verdict values standing alone in the text (digits, yes/no, verdict words), for
    finding alternatives offered between them."""
    words = vocabulary()
    tokens: list[Token] = []
    for match in words.words.finditer(text):
        meaning = words.meaning(match)
        prefix = text[_clause_start(text, match.start()) : match.start()]
        negated = _negated_before(prefix) or bool(words.negation_after.match(text[match.end() :]))
        stance: Stance = _OPPOSITE[meaning.stance] if negated else meaning.stance
        tokens.append((match.start(), match.end(), stance, meaning.kind))
    if schema.digits:
        for match in re.finditer(_DIGIT_TOKEN, text):
            coded = schema.digits.get(match.group(1))
            if coded is not None:
                tokens.append((match.start(), match.end(), coded, "digit"))
    if schema.yes is not None:
        for pattern, affirm in ((words.yes, True), (words.no, False)):
            for match in pattern.finditer(text):
                if affirm or not words.faults.match(text[match.end() :].lstrip()):
                    answered = _yes(schema, affirm)
                    assert answered is not None
                    tokens.append((match.start(), match.end(), answered, "answer"))
    for match in words.unsure.finditer(text):
        tokens.append((match.start(), match.end(), "unsure", "unsure"))
    return sorted(tokens)


_QUESTION_AFTER = re.compile(r"^\s*[?？:：]")


def _asks(text: str, end: int) -> bool:
    """Whether options ending at `end` are a question an answer follows ("True or false?
    True"), not alternatives offered ("0 or 1?" and nothing else)."""
    question = _QUESTION_AFTER.match(text[end:])
    if question is None:
        return False
    return bool(re.search(WORD_CHAR, text[end + question.end() :]))


def option_questions(text: str, schema: VerdictSchema) -> list[tuple[int, int]]:
    """Where the reply restates the question's options ("True or false?", "Is the statement
    true or false:"): from the start of the sentence to the question mark or colon."""
    words = vocabulary()
    tokens = _value_tokens(text, schema)
    spans = []
    for first, second in zip(tokens, tokens[1:], strict=False):
        joined = text[first[1] : second[0]]
        if (
            first[2] == second[2]
            or first[3] != second[3]
            or not re.fullmatch(
                rf"\s*(?:,\s*)?(?:{words.alternatives.pattern}|/)\s*", joined, re.IGNORECASE
            )
        ):
            continue  # a question lists options of one kind ("true or false?", "0 or 1?")
        question = _QUESTION_AFTER.match(text[second[1] :])
        if question and _asks(text, second[1]):
            begin, _ = _sentence(text, first[0])
            if question.group().strip() in ":：" and not _ASKS_BEFORE.fullmatch(
                text[begin : first[0]]
            ):
                continue  # "The statement is not factual or factual: yes" asks nothing
            spans.append((begin, second[1] + question.end()))
    return spans


# Before options that end in a colon, a question lists them ("Is it true or false:") or
# nothing does ("True or false:"); a statement ("It is false or true:") asks nothing.
_ASKS_BEFORE = re.compile(
    r"\W*(?:(?:is|are|was|were|does|do|did|can|could|would|should|whether)\b.*)?", re.I | re.S
)


def _labelled(text: str, token: Token, schema: VerdictSchema) -> Token:
    """A token that is a label ("factual: no") stands for its value's verdict."""
    colon = re.match(r"[ \t]*[:：][ \t]*", text[token[1] :])
    classified = classify_label(text[token[0] : token[1]]) if colon else None
    if colon is None or classified is None or classified[0] == "explanation":
        return token
    value = read_value(text, token[1] + colon.end(), schema, classified[0])
    if value.tone not in ("holds", "fails", "unsure"):
        return token
    return (token[0], value.end, value.tone, "label")


def offers_both(text: str, schema: VerdictSchema) -> str | None:
    """Why the reply offers more than one verdict instead of one ("0 or 1", "YES if ...,
    otherwise NO", "True (or false, depending ...)", "between 0 and 1"), or None. A
    question that lists the options ("True or false? ...") offers nothing."""
    words = vocabulary()
    tokens = _value_tokens(text, schema)
    connectors = [
        (m.start(), m.end(), m.group(0).lower())
        for m in re.finditer(rf"{words.alternatives.pattern}|/|\bbetween\b", text, re.IGNORECASE)
    ]
    for start, end, word in connectors:
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        line_end = len(text) if line_end < 0 else line_end
        before = [t for t in tokens if line_start <= t[0] and t[1] <= start and start - t[1] <= 80]
        after = [t for t in tokens if end <= t[0] < line_end and t[0] - end <= 80]
        if word == "between" and len(after) >= 2:
            between = text[after[0][1] : after[1][0]]
            if re.fullmatch(r"\s*(?:and|&|y|et|und|e|en|и|和|与)\s*", between, re.I):
                if after[0][2] != after[1][2]:
                    return "offers a verdict between two"
            continue
        if not before or not after:
            continue
        first, second = before[-1], _labelled(text, after[0], schema)
        if first[2] == second[2]:
            continue
        if first[3] == second[3] and _asks(text, second[1]):
            continue  # "True or false? ...": the question, not an answer
        return "offers both verdicts as alternatives"
    for first, second in zip(tokens, tokens[1:], strict=False):
        joined = text[first[1] : second[0]]
        if first[2] != second[2] and re.fullmatch(r"\s*(?:and|&)\s*", joined, re.I):
            if first[3] != second[3] or not _asks(text, second[1]):
                return "offers both verdicts joined"
    return None


# ---- reading ---------------------------------------------------------------------------------


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        for i in range(start, min(end, len(chars))):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


@dataclass(frozen=True)
class Cues:
    """The cues of a reply: every cue, where its explanation labels stand ("Explanation:",
    as (start, end) of the label), the reply, and whether verdict words stand in a
    condition or a question."""

    all: list[Cue]
    explanations: list[tuple[int, int]]
    text: str = ""
    conditional_words: bool = False

    @property
    def marked(self) -> list[Cue]:
        return [c for c in self.all if c.marked and c.tone in ("holds", "fails", "unsure")]

    def prose(self, schema: VerdictSchema) -> list[Cue]:
        return [
            c
            for c in self.all
            if not c.marked
            and c.tone in ("holds", "fails")
            and (c.whole or (c.kind is not None and c.kind in schema.anywhere))
        ]


def find_cues(text: str, schema: VerdictSchema) -> Cues:
    """Every cue of a prepared reply."""
    cues: list[Cue] = []
    spans: list[tuple[int, int]] = []
    explanations: list[tuple[int, int]] = []
    labels = find_labels(text)
    for label in labels:
        if label.sense == "explanation":
            explanations.append((label.start, label.end))
            continue
        spans.append((label.start, label.end))  # a label's words are never prose
        value = read_value(text, label.end, schema, label.sense)
        after = text[value.end : value.end + 3]
        if value.tone is None:
            said = _verdict_word_label(text, label, schema)
            if said is not None:  # "False: the drug is renally cleared."
                cues.append(Cue(said, label.start, label.end, "lead", marked=True))
            continue
        if re.match(r"\s*[:：]", after):
            continue  # the value is itself a label ("Verdict: Factual: NO")
        cues.append(
            Cue(value.tone, label.start, value.end, "label", marked=True, final=label.final,
                initial=label.initial)
        )  # fmt: skip
        spans.append((label.start, value.end))
    lead = read_value(text, 0, schema, "neutral", leading=True)
    in_label = any(label.start < lead.end and lead.end <= label.end for label in labels)
    if (
        lead.tone is not None
        and not in_label
        and not re.match(r"\s*[:：?？=]", text[lead.end : lead.end + 3])
    ):
        alone = lead.word is None or lead.word.kind in schema.alone or lead.word.start_only
        if alone and lead.word is None and _is_answer_word(text, lead.end):
            alone = bool(_ANSWER_ENDS.match(text, lead.end))  # "No." but not "No es factual"
        if lead.word is not None and lead.word.kind != "hallucination":
            alone = alone and not _FOLLOWING_NOUN.match(text[lead.end :])  # "True positive"
        if alone or lead.tone in ("unsure", "partial"):
            cues.append(Cue(lead.tone, 0, lead.end, "lead", marked=True))
            spans.append((0, lead.end))
    masked = _mask(text, spans)
    if schema.digits:
        cues += [c for c in _digit_cues(masked, schema) if not _inside(c, spans)]
    cues += [c for c in _phrase_cues(masked, schema) if not _inside(c, spans)]
    for cue in list(cues):
        gloss = _gloss(masked, cue, schema)
        if gloss is not None:  # "0 (factual)", "1 - hallucinated": part of the marked verdict
            spans.append((cue.end, gloss.end))
            if gloss.tone != cue.tone:
                cues.append(Cue(gloss.tone, cue.end, gloss.end, "gloss", marked=True))  # type: ignore[arg-type]
    masked = _mask(text, spans)
    cues += _prose_cues(text, masked, schema)
    # Verdict words a condition or question sets aside still conflict with "not sure"
    # ("Not sure if it is hallucinated").
    words = [
        m
        for m in vocabulary().words.finditer(masked)
        if vocabulary().meaning(m).kind in schema.alone and not vocabulary().meaning(m).start_only
    ]
    conditional = any(not any(c.start == m.start() for c in cues) for m in words)
    return Cues(sorted(cues, key=lambda c: c.start), explanations, text, conditional)


_GLOSS = re.compile(r"[ \t]*(?:\([ \t]*|[-–—:,][ \t]*)")


def _gloss(text: str, cue: Cue, schema: VerdictSchema) -> Value | None:
    """A verdict word glossing a marked verdict right after it ("1 (hallucinated)")."""
    if not cue.marked or cue.tone not in ("holds", "fails", "unsure"):
        return None
    opening = _GLOSS.match(text, cue.end)
    if opening is None or opening.end() == cue.end:
        return None
    value = read_value(text, opening.end(), schema, "neutral")
    if value.tone is None or (value.word is None and value.tone != "unsure"):
        return None
    return value


def _verdict_word_label(text: str, label: Label, schema: VerdictSchema) -> Tone | None:
    """The stance of a "label" that is itself a verdict followed by its reasons, at the
    start of a line: a true/false or correct/wrong word before a colon ("False: the drug is
    renally cleared."), a verdict the schema reads alone before a dash ("Not hallucinated —
    the answer restates the abstract")."""
    phrase = text[label.start : label.end].rstrip(" \t:：=?？-–—→>")
    line = text[text.rfind("\n", 0, label.start) + 1 : label.start]
    if re.search(WORD_CHAR, line):
        return None  # not at the start of its line (a list marker or a sign may stand before)
    value = read_value(phrase, 0, schema, "neutral", leading=True)
    if value.word is None or value.tone is None or phrase[value.end :].strip():
        return None
    separator = text[label.start + len(phrase) : label.end].strip()
    dashed = separator in ("-", "–", "—")
    # "Factual: ..." may be a label whose value is missing; "Not factual: ..." is no label.
    negated = bool(_LABEL_NEGATION.search(phrase))
    if value.word.kind not in ("truth", "correctness") and not (
        (dashed or negated) and value.word.kind in schema.alone
    ):
        return None
    if separator in ("?", "？"):
        return None
    return value.tone


_ANSWER_ENDS = re.compile(r"\s*(?:[.,!;:。，、()\-–—→/\"'”’]|$|\n|\s+(?:and|but|because|so|or)\b)")


def _is_answer_word(text: str, end: int) -> bool:
    """Whether the value ending at `end` is a bare yes/no word ("No", "Não", "はい")."""
    words = vocabulary()
    start = len(text[:end]) - len(text[:end].lstrip())
    head = text[start:end].strip(" \"'([*`>")
    return bool(words.yes.fullmatch(head) or words.no.fullmatch(head))


def _inside(cue: Cue, spans: list[tuple[int, int]]) -> bool:
    return any(start <= cue.start < end for start, end in spans)


def decide(cues: Cues, schema: VerdictSchema) -> Reading[Stance]:
    """The stance the cues give, or why none."""
    marked = cues.marked
    prose = cues.prose(schema)
    unsure = [c for c in cues.all if c.tone == "unsure"]
    partial = [c for c in cues.all if c.tone == "partial"]
    hedges = [c for c in cues.all if c.tone == "hedge"]
    stances = {c.tone for c in marked + prose if c.tone in ("holds", "fails")}
    if schema.hedge_is_unsure and (unsure or partial or hedges):
        return Reading("unsure", "hedged or unknown")
    if unsure and vocabulary().refusals.search(cues.text) and not marked:
        return Reading(None, "declines to judge")
    if unsure:
        if stances or cues.conditional_words:
            return Reading(None, "conflicting verdicts: unsure and a verdict")
        if schema.unsure:
            return Reading("unsure", "says it cannot tell")
        return Reading(None, "says it cannot tell, which is no answer here")
    if not marked and not prose:
        if partial:
            return Reading(None, "a partial verdict, no verdict")
        return Reading(None, "hedged, no verdict" if hedges else "no verdict found")
    decided = _marked_stance(marked) if marked else None
    if marked and decided is None:
        return Reading(None, "conflicting verdicts")
    if decided is None:
        tones = {c.tone for c in prose}
        if len(tones) > 1:
            return Reading(None, "conflicting verdicts")
        return Reading(prose[0].tone, "stated in prose")  # type: ignore[arg-type]
    agree = any(c.tone == decided for c in prose)
    oppose = any(c.tone == _OPPOSITE[decided] for c in prose)
    if oppose and not agree:
        return Reading(None, "conflicting verdicts: the verdict and its explanation disagree")
    if oppose and len(vocabulary().conditionals.findall(cues.text)) >= 2:
        # "If it means adults, factual (0); if children, hallucinated (1)."
        return Reading(None, "offers each verdict under its own condition")
    how = "final answer" if any(c.final for c in marked) else marked[-1].how
    return Reading(decided, f"marked verdict ({how})")


def _marked_stance(marked: list[Cue]) -> Stance | None:
    finals = [c for c in marked if c.final]
    if len({c.tone for c in finals}) > 1:
        return None  # two final answers that disagree
    if finals:
        # A final answer replaces only answers marked as initial ("Initial answer: 0 ...
        # Final answer: 1"); any other that disagrees leaves the reply unread.
        last = finals[-1]
        others = {c.tone for c in marked if not c.initial}
        if others - {last.tone}:
            return None
        return last.tone  # type: ignore[return-value]
    tones = {c.tone for c in marked}
    return tones.pop() if len(tones) == 1 else None  # type: ignore[return-value]


_VERDICT_LINE = re.compile(
    r"^[ \t]*(?:[-*•]+[ \t]*|\d+[.)][ \t]*|\(\d+\)[ \t]*)?(?P<value>\S.*?)[ \t]*$", re.M
)


def several_verdict_lines(text: str, schema: VerdictSchema) -> bool:
    """Whether lines holding nothing but a verdict give different verdicts ("True\\nFalse",
    "1. True\\n2. False", "- 1\\n- 0")."""
    found = set()
    for match in _VERDICT_LINE.finditer(text):
        line = match.group("value")
        value = read_value(line, 0, schema, "neutral", leading=True)
        if value.tone in ("holds", "fails") and not line[value.end :].strip(" .!)]\"'"):
            found.add(value.tone)
    return len(found) > 1


def read_with_cues(text: str, schema: VerdictSchema) -> tuple[Reading[Stance], Cues | None]:
    """Read a prepared reply without self-corrections, with the cues it was read from
    (None where the reply was set aside before its cues were weighed)."""
    text = text.strip()
    if not text:
        return Reading(None, "no verdict found"), None
    if several_verdict_lines(text, schema):
        return Reading(None, "several verdicts that disagree"), None
    text = _mask(text, option_questions(text, schema))
    offered = offers_both(text, schema)
    if offered:
        return Reading("unsure" if schema.hedge_is_unsure else None, offered), None
    cues = find_cues(text, schema)
    offered = _cues_offer_both(cues)
    if offered:
        return Reading("unsure" if schema.hedge_is_unsure else None, offered), cues
    return decide(cues, schema), cues


def _cues_offer_both(cues: Cues) -> str | None:
    """Why two neighbouring cues of different verdicts, joined by "or" (or another
    alternative) on one line, offer both ("YES or Factual: NO"), or None."""
    words = vocabulary()
    tones = ("holds", "fails", "unsure")
    stated = [c for c in cues.all if c.tone in tones]
    for first, second in zip(stated, stated[1:], strict=False):
        between = cues.text[first.end : second.start]
        if first.tone == second.tone or "\n" in between or len(between) > 80:
            continue
        if re.search(rf"{words.alternatives.pattern}|/", between, re.IGNORECASE):
            if not _asks(cues.text, second.end):
                return "offers both verdicts as alternatives"
    return None


def read_stance(text: str, schema: VerdictSchema) -> Reading[Stance]:
    """Read a prepared reply without self-corrections (`read_last_verdict` adds them)."""
    return read_with_cues(text, schema)[0]
