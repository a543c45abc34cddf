"""Marked cues: a label and its value ("Factual: NO", "Hallucination: No"), a verdict at the
start of the reply ("False.", "1 - hallucinated"), a verdict word before its reasons ("False:
the drug is renally cleared."), a gloss of a marked verdict ("0 (factual)") and the answer to
a question the reply asks itself ("Does the answer agree with the knowledge? Yes.")."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from medhalbench.judging._labels import LABEL_NEGATION, MODAL, Label, find_labels
from medhalbench.judging._prose import FOLLOWING_NOUN, excepted, prose_cues, qualified, sentence
from medhalbench.judging._schema import OPPOSITE, Cue, Tone, Value, VerdictSchema, mask
from medhalbench.judging._values import read_value
from medhalbench.judging._vocabulary import WORD_CHAR, Stance, vocabulary


@dataclass
class Found:
    """Marked cues found so far, the spans they cover (never read again as prose), and
    where the explanation labels stand."""

    cues: list[Cue] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    explanations: list[tuple[int, int]] = field(default_factory=list)

    def add(self, cue: Cue, span: tuple[int, int] | None = None) -> None:
        self.cues.append(cue)
        self.spans.append(span or (cue.start, cue.end))

    def covers(self, cue: Cue) -> bool:
        return any(start <= cue.start < end for start, end in self.spans)


def label_cues(text: str, labels: list[Label], schema: VerdictSchema, found: Found) -> None:
    """Each label's value as a marked cue (or, where it has none, the label itself when it
    is a verdict before its reasons)."""
    for label in labels:
        if label.sense == "explanation":
            found.explanations.append((label.start, label.end))
            continue
        if label.asks and label.sense == "neutral":
            continue  # "Does the answer contradict the knowledge?": read as a question
        found.spans.append((label.start, label.end))  # a label's words are never prose
        value = read_value(text, label.end, schema, label.sense)
        said = _verdict_word_label(text, label, schema)
        name = text[label.start : label.end].rstrip()
        # A negated verdict before a dash is no label: "Not factual — wrong dose" (reasons).
        if value.tone is None or (said and name[-1] in "-–—" and LABEL_NEGATION.search(name)):
            if said is not None:  # "False: the drug is renally cleared."
                found.cues.append(Cue(said, label.start, label.end, "lead", marked=True))
            continue
        if re.match(r"\s*[:：]", text[value.end : value.end + 3]):
            continue  # the value is itself a label ("Verdict: Factual: NO")
        cue = Cue(_excepted(text, value), label.start, value.end, "label", marked=True,
                  final=label.final, initial=label.initial)  # fmt: skip
        found.add(cue)


def _excepted(text: str, value: Value) -> Tone:
    """A marked value that holds but for an exception ("Correct, except that the femur
    ...", "Is it accurate? Yes, except for the dose, which is wrong")."""
    assert value.tone is not None
    return (excepted(text, value.end) if value.tone == "holds" else None) or value.tone


def _verdict_word_label(text: str, label: Label, schema: VerdictSchema) -> Tone | None:
    """The stance of a "label" that is itself a verdict followed by its reasons, at the
    start of a line: a true/false or correct/wrong word before a colon ("False: the drug is
    renally cleared."), a verdict the schema reads alone before a dash ("Not hallucinated —
    the answer restates the abstract")."""
    phrase = text[label.start : label.end].rstrip(" \t:：=?？-–—→>")
    line = text[text.rfind("\n", 0, label.start) + 1 : label.start]
    if re.search(WORD_CHAR, line) or label.asks:
        return None  # not at the start of its line (a list marker or a sign may stand before)
    value = read_value(phrase, 0, schema, "neutral", leading=True)
    if value.word is None or value.tone is None or phrase[value.end :].strip():
        return None
    dashed = text[label.start + len(phrase) : label.end].strip() in ("-", "–", "—")
    # "Factual: ..." may be a label whose value is missing; "Not factual: ..." is no label.
    negated = bool(LABEL_NEGATION.search(phrase))
    if value.word.kind in ("truth", "correctness"):
        return value.tone
    return value.tone if (dashed or negated) and value.word.kind in schema.alone else None


_ANSWER_ENDS = re.compile(r"\s*(?:[.,!;:。，、()\-–—→/\"'”’]|$|\n|\s+(?:and|but|because|so|or)\b)")


def is_answer_word(text: str, end: int) -> bool:
    """Whether the value ending at `end` is a bare yes/no word ("No", "Não", "はい")."""
    words = vocabulary()
    start = len(text[:end]) - len(text[:end].lstrip())
    head = text[start:end].strip(" \"'([*`>")
    return bool(words.yes.fullmatch(head) or words.no.fullmatch(head))


def _stands_alone(text: str, lead: Value, schema: VerdictSchema) -> bool:
    """Whether a verdict at the reply's start is the reply's verdict: a word the schema reads
    alone, not before a noun ("True positive"), a yes/no that ends its phrase ("No." but not
    "No es factual")."""
    word = lead.word
    if lead.tone in ("unsure", "partial"):
        return True
    alone = word is None or word.kind in schema.alone or word.start_only
    if alone and word is None and is_answer_word(text, lead.end):
        alone = bool(_ANSWER_ENDS.match(text, lead.end))
    if word is not None and word.kind != "hallucination":
        alone = alone and not FOLLOWING_NOUN.match(text[lead.end :])
    return alone


def lead_cue(text: str, labels: list[Label], schema: VerdictSchema) -> Cue | None:
    """The verdict at the start of the reply, where it stands alone."""
    lead = read_value(text, 0, schema, "neutral", leading=True)
    if lead.tone is None:
        return None
    if lead.tone == "unsure" and re.match(
        rf"[ \t,]*(?:{vocabulary().earlier.pattern})", text[lead.end :], re.I
    ):
        return None  # "Not sure at first, but ...": a doubt the reply moves past
    if any(label.start < lead.end <= label.end for label in labels):
        return None
    if re.match(r"\s*[:：?？=]", text[lead.end : lead.end + 3]):
        return None
    if not _stands_alone(text, lead, schema):
        return None
    return Cue(_excepted(text, lead), 0, lead.end, "lead", marked=True)


_ANSWERED_QUESTION = re.compile(r"[?？][ \t\"'*]*(?:[-–—:][ \t]*)?(?=\S)")


def question_cues(text: str, labels: list[Label], schema: VerdictSchema) -> list[Cue]:
    """A question the reply asks itself about the judged text and answers ("Does the
    answer agree with the knowledge? Yes.", "Any discrepancy? None that I can see."): the
    answer confirms or denies what the question says."""
    cues = []
    for mark in _ANSWERED_QUESTION.finditer(text):
        begin, _ = sentence(text, mark.start())
        if any(_read_as_label(label, begin, mark.end()) for label in labels):
            continue  # a label that asks ("Is it hallucinated? No") is read as a label
        said = _question_stance(text[begin : mark.start()], schema)
        answer = _answer(text, mark.end())
        if said is None or answer is None:
            continue
        affirm, end = answer
        cues.append(Cue(said if affirm else OPPOSITE[said], begin, end, "question", marked=True))
    return cues


def _read_as_label(label: Label, begin: int, end: int) -> bool:
    overlaps = label.start <= begin < label.end or begin <= label.start < end
    return overlaps and not (label.asks and label.sense == "neutral")


def _answer(text: str, start: int) -> tuple[bool, int] | None:
    """Whether the word at `start` affirms (yes) or denies (no, none), and where it ends."""
    words = vocabulary()
    for pattern, affirm in ((words.yes, True), (words.no, False)):
        match = pattern.match(text, start)
        if match and _ANSWER_ENDS.match(text, match.end()):
            return affirm, match.end()
    none = words.none.match(text, start)  # "None that I can see."
    return (False, none.end()) if none else None


def _question_stance(question: str, schema: VerdictSchema) -> Stance | None:
    """What a question asks of the judged text, as the stance a yes to it states: "Is the
    statement contradicted by the context" fails, "Does the answer agree with the
    knowledge" holds, "Any fabricated facts" fails."""
    words = vocabulary()
    if MODAL.search(question):
        return None  # "Could the statement be wrong? Yes.": a possibility, not a verdict
    asked = question.strip() + "."
    tones = {c.tone for c in prose_cues(asked, schema) if c.whole and c.tone in ("holds", "fails")}
    if words.faults.search(asked) and not tones:
        tones.add("fails")  # "Any errors?": a yes says there are
    for match in words.words.finditer(asked):
        if words.meaning(match).kind == "hallucination":
            tones.add("fails")
    return tones.pop() if len(tones) == 1 else None


def marked_cues(text: str, schema: VerdictSchema) -> tuple[Found, list[Label]]:
    """The marked cues of a reply: labels and their values, the lead, questions it
    answers."""
    found = Found()
    labels = find_labels(text)
    label_cues(text, labels, schema, found)
    lead = lead_cue(text, labels, schema)
    if lead is not None:
        found.add(lead)
        hedge = qualified(text, lead.end) if lead.tone == "holds" else None
        found.cues += [hedge] if hedge else []  # "Yes, but the dose is wrong"
    for cue in question_cues(mask(text, found.spans), labels, schema):
        if not found.covers(cue):
            found.add(cue)
    return found, labels
