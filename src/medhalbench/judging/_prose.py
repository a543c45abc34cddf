"""Prose cues: what a reply says of the judged text as a whole ("the statement is consistent
with the context", "it is not hallucinated", "contains no errors"), negations and double
negations read by their meaning. A verdict word about a part ("the dose is wrong"), in a
condition or in a question is no cue."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from medhalbench.judging._schema import OPPOSITE, Cue, Tone, VerdictSchema
from medhalbench.judging._vocabulary import WORD_CHAR, Stance, vocabulary

_CLAUSE_END = (
    r"[.!?。！？;；:：\n,，—–(]|\b(?:but|however|while|whereas|although|though|yet|and|because"
    r"|since|given\s+that|so\s+that)\b"
)


@functools.cache
def _clause_end() -> re.Pattern[str]:
    """What ends a clause: punctuation, and the words that start another clause in English
    and, from the words file, other languages ("aunque", "mais")."""
    return re.compile(rf"{_CLAUSE_END}|{vocabulary().contrasts.pattern}", re.IGNORECASE)


_SENTENCE_END = re.compile(r"[.!?。！？\n]")
# A verdict word before a noun qualifies the noun ("the correct dose", "false positives").
FOLLOWING_NOUN = re.compile(
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


MAX_CLAUSE_CHARS = 400
"""The most of a clause read before a verdict word: what bears on a verdict stands near it,
and a bound keeps a reply's reading linear in its length (a clause without end, such as a
word repeated thousands of times, would make it quadratic)."""


def clause_start(text: str, position: int) -> int:
    """Where the clause holding `position` starts (at most `MAX_CLAUSE_CHARS` before it)."""
    low = max(0, position - MAX_CLAUSE_CHARS)
    ends = [m.end() for m in _clause_end().finditer(text, low, position)]
    return ends[-1] if ends else low


def sentence(text: str, position: int) -> tuple[int, int]:
    """Where the sentence holding `position` starts and ends."""
    before = [m.end() for m in _SENTENCE_END.finditer(text, 0, position)]
    after = _SENTENCE_END.search(text, position)
    return (before[-1] if before else 0), (after.end() if after else len(text))


def is_whole(prefix: str) -> bool:
    """Whether the words before a verdict word (in its clause) name the judged text as a
    whole, or nothing else: "the answer is", "I'd classify it as", "" but not "the dose is"."""
    words = vocabulary()
    if not re.search(r"[A-Za-zÀ-ÿ\u0400-\u04ff\u0600-\u06ff\u0900-\u097f]", prefix):
        return True  # nothing, or a script without spaces: about the whole
    rest = words.subjects.sub(" ", prefix)
    rest = words.negation.sub(" ", words.fillers.sub(" ", rest))
    return not re.search(WORD_CHAR, rest)


def in_condition(text: str, start: int) -> bool:
    """Whether `start` stands in a condition or a hypothesis ("if it is false", "would be")."""
    words = vocabulary()
    clause = text[clause_start(text, start) : start]
    return bool(words.conditionals.search(clause)) or bool(_HYPOTHETICAL.search(clause))


def in_question(text: str, start: int) -> bool:
    """Whether `start` stands in a sentence that ends with a question mark."""
    _, end = sentence(text, start)
    return text[start:end].rstrip().endswith(("?", "？"))


def set_aside(text: str, start: int) -> bool:
    """Whether what stands at `start` is no statement: in a condition or a question."""
    return in_condition(text, start) or in_question(text, start)


def frame_end(text: str, start: int) -> int | None:
    """Where a frame that denies its clause ("I don't think", "it is not that") ends, when
    one stands before `start` in its sentence."""
    words = vocabulary()
    begin, _ = sentence(text, start)
    # A frame denies its clause, up to a semicolon ("I would not say it is hallucinated;
    # it is factual").
    begin = max(begin, text.rfind(";", begin, start) + 1, text.rfind("；", begin, start) + 1)
    frames = list(words.frames.finditer(text, begin, start))
    return frames[-1].end() if frames else None


_NEGATION_EXCEPTIONS = re.compile(
    r"\b(?:not\s+only|not\s+just|no\s+(?:doubt|question|wonder)|no\s*,)", re.IGNORECASE
)
_TOKEN = re.compile(r"[\w'\-]+")
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
NEGATION_WINDOW = 4
"""Words before a verdict word a negation may stand in ("cannot be considered factual")."""


def negated_before(prefix: str) -> bool:
    """Whether a verdict word after `prefix` is negated: an odd number of negations among
    the last words before it ("not untrue" holds; "not without errors" fails), or anywhere
    in a prefix that only names the judged text ("Nothing in the statement is wrong")."""
    words = vocabulary()
    # A negation stops at an offered alternative: in "not hallucinated / (or possibly)
    # hallucinated" it negates the first only, so both classes are seen offered.
    offered = list(re.finditer(rf"{words.alternatives.pattern}|/", prefix, re.IGNORECASE))
    prefix = prefix[offered[-1].end() :] if offered else prefix
    tokens = list(_TOKEN.finditer(prefix))
    if prefix and _CJK.match(prefix[-1]):
        window = prefix[-6:]
    elif len(tokens) < NEGATION_WINDOW or is_whole(prefix):
        window = prefix
    else:
        window = prefix[tokens[-NEGATION_WINDOW].start() :]
    window = words.unsure.sub(" ", _NEGATION_EXCEPTIONS.sub(" ", window))
    return len(words.negation.findall(window)) % 2 == 1


# A verdict a reply only leans to and then qualifies: a hedge, not a verdict.
_LEANING = re.compile(
    r"\b(?:likely|probably|possibly|presumably|perhaps|maybe|seemingly)\s*$", re.IGNORECASE
)
_BUT_AFTER = re.compile(r"[^.;!?\n]{0,40}?,?\s+(?:but|although|though|however)\b", re.IGNORECASE)


def _qualified(prefix: str, stance: Stance, after: str) -> tuple[Tone, str] | None:
    """A verdict word qualified by what stands before it: "not entirely accurate" fails,
    "not entirely wrong" and "partly true" are partial, "likely true, but ..." a hedge; the
    prefix left before the qualifier."""
    words = vocabulary()
    wholly = words.not_wholly.search(prefix[-40:])
    if wholly and prefix.rstrip().endswith(wholly.group(0).rstrip()):
        cut = prefix[: wholly.start() + len(prefix) - len(prefix[-40:])]
        return ("fails" if stance == "holds" else "partial"), cut
    if re.search(rf"(?:{words.partial.pattern})\s*$", prefix, re.IGNORECASE):
        return "partial", prefix
    if _LEANING.search(prefix) and _BUT_AFTER.match(after):
        return "hedge", prefix  # "Likely true, but the evidence in children is limited."
    return None


@dataclass(frozen=True)
class Toned:
    """What a verdict word or evidence phrase says in prose.

    Attributes:
        tone: Its tone, negations and qualifiers read.
        whole: It speaks of the judged text as a whole.
        excepted: An exception after it turned it ("accurate — except the dose").
    """

    tone: Tone
    whole: bool
    excepted: bool = False


def tone_of_word(masked: str, match: re.Match[str], stance: Stance) -> Toned | None:
    """The tone of a verdict word or evidence phrase in prose and whether it speaks of the
    whole text; None when it is no cue (in a condition or a question)."""
    words = vocabulary()
    start, end = match.span()
    if set_aside(masked, start):
        return None
    frame = frame_end(masked, start)
    prefix = masked[max(clause_start(masked, start), frame or 0) : start]
    prefix, part = _part_named(prefix)
    tone: Tone = stance
    qualifier = _qualified(prefix, stance, masked[end:])
    if qualifier is not None:
        tone, prefix = qualifier
    elif negated_before(prefix) or words.negation_after.match(masked[end:]):
        tone = OPPOSITE[stance]
    if frame is not None and tone in ("holds", "fails"):
        tone = OPPOSITE[tone]
    exception = excepted(masked, end) if tone == "holds" else None
    tone = exception or tone
    whole = is_whole(prefix) and not (part and tone != "fails")
    return Toned(tone, whole, exception is not None)


def excepted(masked: str, end: int) -> Tone | None:
    """A verdict that holds but for an exception ("accurate — except the dose is wrong"):
    it fails where the exception names a fault, and is partial where it does not."""
    exception = vocabulary().exceptions.match(masked, end)
    if exception is None:
        return None
    _, stop = sentence(masked, exception.end())
    return "fails" if _names_a_fault(masked[exception.end() : stop]) else "partial"


def qualified(masked: str, end: int) -> Cue | None:
    """A hedge where a verdict that holds is qualified by a fault ("Yes, but the dose is
    wrong", "true, but misleading"): the verdict is not committed to."""
    qualifier = vocabulary().qualifiers.match(masked, end)
    if qualifier is None:
        return None
    _, stop = sentence(masked, qualifier.end())
    if not _names_a_fault(masked[qualifier.end() : stop]):
        return None
    return Cue("hedge", qualifier.start(), qualifier.end(), "qualified")


def _names_a_fault(text: str) -> bool:
    words = vocabulary()
    faulty = (words.deviations, words.faults, words.evidence["fails"])
    return any(p.search(text) for p in faulty) or _fails_word(text)


def _fails_word(text: str) -> bool:
    words = vocabulary()
    return any(words.meaning(m).stance == "fails" for m in words.words.finditer(text))


def _part_named(prefix: str) -> tuple[str, bool]:
    """A prefix that names a claim of the judged text ("the claim that aspirin prevents
    strokes is"): what stands after that name, and whether one was named. A claim of the
    text that fails fails the text; one that holds says nothing of the rest."""
    named = list(vocabulary().parts.finditer(prefix))
    if not named:
        return prefix, False
    return prefix[named[-1].end() :], True


def _is_noun_modifier(masked: str, match: re.Match[str], kind: str) -> bool:
    """Whether a verdict word qualifies the noun after it ("the correct dose",
    "hallucination rates"); only English puts its verdict adjectives there."""
    if not match.group(0).isascii() or not FOLLOWING_NOUN.match(masked[match.end() :]):
        return False
    return kind != "hallucination" or bool(_NOUN_FORM.search(match.group(0)))


def _word_cues(masked: str, schema: VerdictSchema) -> list[Cue]:
    words = vocabulary()
    cues: list[Cue] = []
    for match in words.found(masked):
        meaning = words.meaning(match)
        if meaning.start_only or _is_noun_modifier(masked, match, meaning.kind):
            continue
        toned = tone_of_word(masked, match, meaning.stance)
        if toned is None:
            continue
        subjectless = not re.search(
            WORD_CHAR, masked[clause_start(masked, match.start()) : match.start()]
        )
        if subjectless and meaning.kind not in schema.alone and meaning.kind != "hallucination":
            continue  # "Correct." answers no question a detector was asked
        how = "exception" if toned.excepted else "word"
        if toned.tone == "holds" and _quantified_away(masked, match):
            how = "fault"  # "nothing wrong", "nothing incorrect": a fault denied
        cues.append(Cue(toned.tone, *match.span(), how, whole=toned.whole, kind=meaning.kind))
        hedge = qualified(masked, match.end()) if toned.tone == "holds" else None
        cues += [hedge] if hedge else []
    return cues


def _quantified_away(masked: str, match: re.Match[str]) -> bool:
    """ "nothing wrong", "none incorrect": a verdict word denied by a quantifier."""
    prefix = masked[clause_start(masked, match.start()) : match.start()].rstrip()
    none = list(vocabulary().none.finditer(prefix))
    return bool(none) and none[-1].end() == len(prefix)


def _evidence_cues(masked: str) -> list[Cue]:
    """How the text stands against the evidence ("consistent with the context", "the
    context contradicts this", "the knowledge says the opposite")."""
    words = vocabulary()
    cues: list[Cue] = []
    stances: tuple[Literal["holds", "fails"], ...] = ("holds", "fails")
    for stance in stances:
        for match in words.evidence[stance].finditer(masked):
            toned = tone_of_word(masked, match, stance)
            if toned is None:
                continue
            tone = toned.tone
            whole = (
                toned.whole or _of_the_text(masked, match) or _by_the_source(masked, match, tone)
            )
            cues.append(Cue(tone, *match.span(), "evidence", whole=whole))
    return cues


def _of_the_text(masked: str, match: re.Match[str]) -> bool:
    """ "the context contradicts this": the judged text is the evidence phrase's object."""
    subjects = vocabulary().subjects.pattern
    return bool(re.match(rf"\s+(?:{subjects})", masked[match.end() :], re.IGNORECASE))


def _by_the_source(masked: str, match: re.Match[str], tone: Tone) -> bool:
    """ "the context says the opposite", "the knowledge states the same thing": the
    evidence, as the subject, says how the judged text stands (the phrase's object is the
    text or nothing; a source that contradicts a claim of the text fails it, one that
    supports a part says nothing of the rest)."""
    words = vocabulary()
    prefix = masked[clause_start(masked, match.start()) : match.start()]
    source = words.sources.search(prefix)
    if source is None or not is_whole(prefix[source.end() :]):
        return False
    rest = masked[match.end() :]
    after = rest[: _clause_stop(rest)].strip()
    if not re.search(WORD_CHAR, after) or words.subjects.fullmatch(after):
        return True
    return tone == "fails" and bool(words.parts.match(after))


def _clause_stop(text: str) -> int:
    """Where the first clause of `text` ends."""
    end = _clause_end().search(text)
    return end.start() if end else len(text)


def _fault_cues(masked: str) -> list[Cue]:
    """Faults denied ("no errors", "nothing incorrect") hold; faults the reply says the
    text has ("there is an error in the answer") fail."""
    words = vocabulary()
    cues: list[Cue] = []
    for match in words.faults.finditer(masked):
        if set_aside(masked, match.start()):
            continue
        prefix = masked[clause_start(masked, match.start()) : match.start()]
        if negated_before(prefix) or words.negation_after.match(masked[match.end() :]):
            cues.append(Cue("holds", *match.span(), "fault", whole=True))
        elif _fault_present(masked, match, prefix):
            cues.append(Cue("fails", *match.span(), "fault", whole=True))
    return cues


def _fault_present(masked: str, match: re.Match[str], prefix: str) -> bool:
    """ "There is an error in the answer", "it contains fabrications": a fault of the
    judged text (not one of the evidence: "an error in the knowledge passage")."""
    words = vocabulary()
    present = words.fault_present.search(prefix)
    if present is None or present.end() != len(prefix.rstrip()):
        return False
    if not is_whole(prefix[: present.start()]):
        return False  # "the knowledge has an error"
    return not words.fault_of_source.match(masked, match.end())


def _unsure_cues(masked: str) -> list[Cue]:
    """The reply says it cannot tell: not where that is denied ("I'm not unsure"), a
    condition ("if unsure, answer 2"), a question it answers ("Not sure? No — 1"), an
    earlier state ("not sure at first, but ...") or about a part ("unsure whether the dose
    is right")."""
    words = vocabulary()
    cues: list[Cue] = []
    for match in words.unsure.finditer(masked):
        prefix = masked[clause_start(masked, match.start()) : match.start()]
        if negated_before(prefix) or in_condition(masked, match.start()):
            continue
        if _answered(masked, match) or _earlier(masked, match, prefix):
            continue
        if _about_a_part(masked, match):
            continue
        cues.append(Cue("unsure", *match.span(), "unsure"))
    return cues


def _earlier(masked: str, match: re.Match[str], prefix: str) -> bool:
    """ "not sure at first", "initially unsure": a state the reply has moved past."""
    words = vocabulary()
    after = re.compile(rf"[ \t,]*(?:{words.earlier.pattern})", re.IGNORECASE)
    before = re.compile(rf"(?:{words.earlier.pattern})[ \t,]*$", re.IGNORECASE)
    return bool(after.match(masked, match.end()) or before.search(prefix))


_ANSWERED = re.compile(r"[ \t]*[?？][ \t]*(?P<answer>\S)")


def _answered(masked: str, match: re.Match[str]) -> bool:
    """ "Not sure? No — ...": a doubt the reply asks itself and answers."""
    words = vocabulary()
    asked = _ANSWERED.match(masked, match.end())
    return asked is not None and bool(words.no.match(masked, asked.start("answer")))


def _about_a_part(masked: str, match: re.Match[str]) -> bool:
    """ "I'm unsure whether the dose is right": doubt about a part, not the verdict."""
    words = vocabulary()
    topic = words.topics.match(masked, match.end())
    if topic is None:
        return False
    _, end = sentence(masked, topic.end())
    clause = masked[topic.end() : end]
    word = words.words.search(clause)
    return not is_whole(clause[: word.start()] if word else clause)


def _hedge_cues(masked: str) -> list[Cue]:
    """Hedges ("it depends"), withdrawals ("I take that back") and verdicts the reply only
    leans to ("leaning 0", "my best guess")."""
    words = vocabulary()
    kinds = (
        ("hedge", words.hedges),
        ("withdrawal", words.withdrawals),
        ("tentative", words.tentative),
    )
    return [
        Cue("hedge", *m.span(), how) for how, pattern in kinds for m in pattern.finditer(masked)
    ]


def prose_cues(masked: str, schema: VerdictSchema) -> list[Cue]:
    """Every prose cue of a reply whose marked verdicts are masked."""
    return [
        *_word_cues(masked, schema),
        *_evidence_cues(masked),
        *_fault_cues(masked),
        *_unsure_cues(masked),
        *_hedge_cues(masked),
    ]
