"""The strict verdict reader every benchmark's reader is built on: a reply is read only when
it commits to one class and nothing withdraws, hedges or contradicts it; its marked and prose
cues are read independently and must not disagree (the rules: `README.md` here; the words of
every language: `verdict_words.yaml`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from medhalbench.judging._alternatives import offers_both, option_questions
from medhalbench.judging._digits import digit_cues, phrase_cues
from medhalbench.judging._labels import classify_label, fields
from medhalbench.judging._marked import is_answer_word, marked_cues
from medhalbench.judging._options import own_options
from medhalbench.judging._prose import prose_cues, sentence
from medhalbench.judging._reply import Reading
from medhalbench.judging._schema import OPPOSITE, Cue, VerdictSchema, mask
from medhalbench.judging._score import set_scores_aside
from medhalbench.judging._values import read_value
from medhalbench.judging._vocabulary import Stance, vocabulary


@dataclass(frozen=True)
class Cues:
    """A reply's cues: every cue, its explanation labels' (start, end) ("Explanation:"),
    the reply, and whether verdict words stand in a condition or a question."""

    all: list[Cue]
    explanations: list[tuple[int, int]]
    text: str = ""
    conditional_words: bool = False

    @property
    def marked(self) -> list[Cue]:
        """The marked cues that state a verdict (or that the reply cannot tell)."""
        return [c for c in self.all if c.marked and c.tone in ("holds", "fails", "unsure")]

    def prose(self, schema: VerdictSchema) -> list[Cue]:
        """The prose cues that state a verdict of the whole text (or of a part, for the
        word kinds the schema reads anywhere)."""
        return [
            c
            for c in self.all
            if not c.marked
            and c.tone in ("holds", "fails")
            and (c.whole or (c.kind is not None and c.kind in schema.anywhere))
        ]

    def of_tone(self, tone: str) -> list[Cue]:
        """Every cue of one tone."""
        return [c for c in self.all if c.tone == tone]

    def disagreeing(self, cues: list[Cue]) -> str:
        """The first of these cues of each stance, quoted: which cues disagreed."""
        first = {c.tone: c for c in reversed(cues)}
        said = [f"{self.text[c.start : c.end].strip()!r} {t}" for t, c in sorted(first.items())]
        return "; ".join(said)


def _answers_another_question(cues: list[Cue], text: str) -> list[Cue]:
    """Cues without a leading yes/no whose own sentence says what it confirms ("Yes, there
    is an error", "No, I don't see any problems"): the sentence is the verdict, and the
    yes/no answers it, not the question asked. A yes/no beside a verdict word of the
    question ("Yes, it is hallucinated") answers the question, and the two must agree."""
    lead = next((c for c in cues if c.how == "lead" and c.start == 0), None)
    if lead is None or not is_answer_word(text, lead.end):
        return cues
    _, end = sentence(text, lead.end)
    said = [c for c in cues if lead.end <= c.start < end and not c.marked and c.whole]
    confirmed = [c for c in said if c.how in ("fault", "exception") or c.kind == "casual"]
    if not confirmed or len({c.tone for c in said}) > 1:
        return cues
    return [c for c in cues if c is not lead]


# Words in quotation marks: what the reply quotes (the prompt's instructions, the statement
# judged), not its own answer; a quoted value of one word after a label is its own.
_QUOTED = re.compile(r'"([^"\n]{3,400})"')


def _quoted(text: str) -> str:
    """The text with what it quotes (two words or more in quotation marks) masked: by
    blanks after the judged text's name ('The statement "..." is false'), else by letters,
    so that a verdict of the quotation is one of a part ('"..." is true, but ...')."""
    quotes = [m for m in _QUOTED.finditer(text) if len(m.group(1).split()) >= 2]
    subject = vocabulary().subjects
    named = [
        m.span(1)
        for m in quotes
        if re.search(rf"(?:{subject.pattern})\s*$", text[: m.start()], re.I)
    ]
    other = [m.span(1) for m in quotes if m.span(1) not in named]
    return mask(mask(text, named), other, "q")


_ITEM = re.compile(r"(?:^|\s)(?:\d{1,2}|[A-Z])(?:\s|$|\()")


def find_cues(text: str, schema: VerdictSchema, scores: Sequence[Cue] = ()) -> Cues:
    """Every cue of a prepared reply (its scores read and masked: `set_scores_aside`)."""
    found, _ = marked_cues(text, schema)
    for score in scores:
        found.add(score)
    named = fields(text)
    for start, end, value in named:  # every field's value is a cue: all must agree
        name = text[start:end]
        read = read_value(text, value, schema, "neutral", leading=True)
        said = any(c.start == start for c in found.cues)  # "Верно: утверждение ..."
        if read.tone is None and not said and _names_the_verdict(name, text, value, schema):
            # "Factual: N/A": the verdict's own field holds none, whatever the prose says.
            found.add(Cue("hedge", start, end, "no verdict in its field", marked=True))
            continue
        if read.tone not in ("holds", "fails", "unsure"):
            continue
        # One of several numbered items ("Claim 2", "Reviewer B") a final answer replaces.
        item = bool(_ITEM.search(text[start:end]))
        cue = Cue(read.tone, value, read.end, "field", marked=True, initial=item)
        if not found.covers(cue):
            found.add(cue)
    masked = mask(text, found.spans)
    if schema.digits:
        found.cues += [c for c in digit_cues(masked, schema) if not found.covers(c)]
    found.cues += [c for c in phrase_cues(masked, schema) if not found.covers(c)]
    masked = mask(text, found.spans)
    # A field's name is no verdict: its value decides ("Đúng sự thật: KHÔNG"); nor are the
    # words of a sentence that declines to judge ("I cannot judge the truthfulness of ...").
    aside = [(s, e) for s, e, _ in named] + [
        sentence(text, m.start()) for m in vocabulary().refusals.finditer(text)
    ]
    prose = [
        c
        for c in prose_cues(masked, schema)
        if c.tone not in ("holds", "fails") or not any(s <= c.start < e for s, e in aside)
    ]
    cues = _answers_another_question([*found.cues, *prose], text)
    conditional = _set_aside(masked, cues, schema)
    return Cues(sorted(cues, key=lambda c: c.start), found.explanations, text, conditional)


def _names_the_verdict(name: str, text: str, value: int, schema: VerdictSchema) -> bool:
    """Whether a field is named by a verdict word and its value, read under that name, is
    none ("Factual: N/A"; but "Errors: N/A" says there are none)."""
    label = classify_label(name)
    if label is None or label[0] not in ("holds", "fails"):
        return False  # "Answer: ..." may hold the reasons; "Factual: ..." holds the verdict
    return read_value(text, value, schema, label[0], leading=True).tone is None


def _set_aside(masked: str, cues: list[Cue], schema: VerdictSchema) -> bool:
    """Whether verdict words stand in a condition or a question: they still conflict with
    "not sure" ("Not sure if it is hallucinated")."""
    words = vocabulary()
    starts = {c.start for c in cues}
    for match in words.found(masked):
        meaning = words.meaning(match)
        if meaning.kind in schema.alone and not meaning.start_only and match.start() not in starts:
            return True
    return False


# ---- deciding --------------------------------------------------------------------------------

Rule = Callable[[Cues, VerdictSchema], Reading[Stance] | None]


def _hedged(cues: Cues, schema: VerdictSchema) -> Reading[Stance] | None:
    """DAHL's checker: a hedge, a partial verdict or doubt is `unknown`."""
    doubts = cues.of_tone("unsure") + cues.of_tone("partial") + cues.of_tone("hedge")
    if schema.hedge_is_unsure and doubts:
        return Reading("unsure", "hedged or unknown")
    return None


def _withdrawn(cues: Cues, schema: VerdictSchema) -> Reading[Stance] | None:
    """A verdict withdrawn, hedged or left open after it is given ("True. I take that
    back.", "No — although I may be wrong here")."""
    stated = [c for c in cues.marked + cues.prose(schema) if c.tone in ("holds", "fails")]
    if not stated:
        return None
    if any(c.how == "tentative" for c in cues.all):
        return Reading(None, "a verdict the reply only leans to")
    first = min(c.start for c in stated)
    # "partly fabricated" bears out a verdict that fails; "mostly correct" leaves one that
    # holds open.
    doubts = ("hedge", "partial") if any(c.tone == "holds" for c in stated) else ("hedge",)
    if any(c.tone in doubts and c.start > first for c in cues.all):
        return Reading(None, "a verdict withdrawn, hedged or qualified after it is given")
    return None


def _declined(cues: Cues, schema: VerdictSchema) -> Reading[Stance] | None:
    empty = next((c for c in cues.all if c.how == "no verdict in its field"), None)
    if empty is not None:
        return Reading(None, f"the field {cues.text[empty.start : empty.end]!r} holds no verdict")
    declines = vocabulary().refusals.search(cues.text)
    if cues.of_tone("unsure") and declines and not cues.marked:
        return Reading(None, "declines to judge")
    return None


def _cannot_tell(cues: Cues, schema: VerdictSchema) -> Reading[Stance] | None:
    if not cues.of_tone("unsure"):
        return None
    stated = [c for c in cues.marked + cues.prose(schema) if c.tone in ("holds", "fails")]
    if stated or cues.conditional_words:
        said = cues.disagreeing(cues.of_tone("unsure") + stated)
        return Reading(None, f"conflicting verdicts: unsure and a verdict ({said})")
    if schema.unsure:
        return Reading("unsure", "says it cannot tell")
    return Reading(None, "says it cannot tell, which is no answer here")


def _nothing_stated(cues: Cues, schema: VerdictSchema) -> Reading[Stance] | None:
    if cues.marked or cues.prose(schema):
        return None
    return Reading(None, "hedged, no verdict" if cues.of_tone("hedge") else "no verdict found")


def _weighed(cues: Cues, schema: VerdictSchema) -> Reading[Stance] | None:
    """The marked verdict, which the prose must not contradict; without one, the prose."""
    marked, prose = cues.marked, cues.prose(schema)
    if not marked:
        if len({c.tone for c in prose}) > 1:
            return Reading(None, f"conflicting verdicts ({cues.disagreeing(prose)})")
        return Reading(prose[0].tone, "stated in prose")  # type: ignore[arg-type]
    decided = _marked_stance(marked)
    if decided is None:
        return Reading(None, f"conflicting verdicts ({cues.disagreeing(marked)})")
    agree = any(c.tone == decided for c in prose)
    oppose = any(c.tone == OPPOSITE[decided] for c in prose)
    last = max(prose, key=lambda c: c.start) if prose else None
    if oppose and (not agree or (last is not None and last.tone != decided)):
        # "No, it is not factual. The context confirms exactly what it says.": what the
        # explanation ends with contradicts the verdict.
        said = cues.disagreeing(marked + prose)
        return Reading(None, f"conflicting verdicts: the verdict and its explanation ({said})")
    if oppose and len(vocabulary().conditionals.findall(cues.text)) >= 2:
        # "If it means adults, factual (0); if children, hallucinated (1)."
        return Reading(None, "offers each verdict under its own condition")
    how = "final answer" if any(c.final for c in marked) else marked[-1].how
    return Reading(decided, f"marked verdict ({how})")


_RULES: tuple[Rule, ...] = (_hedged, _withdrawn, _declined, _cannot_tell, _nothing_stated, _weighed)


def decide(cues: Cues, schema: VerdictSchema) -> Reading[Stance]:
    """The stance the cues give, or why none."""
    for rule in _RULES:
        reading = rule(cues, schema)
        if reading is not None:
            return reading
    return Reading(None, "no verdict found")


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


# ---- reading ---------------------------------------------------------------------------------


def read_with_cues(text: str, schema: VerdictSchema) -> tuple[Reading[Stance], Cues | None]:
    """Read a prepared reply without self-corrections, with the cues it was read from
    (None where the reply was set aside before its cues were weighed)."""
    text, scores = set_scores_aside(text.strip(), schema)
    if not text.strip() and not scores:
        return Reading(None, "no verdict found"), None
    chosen = own_options(text, schema)
    if chosen.reason:
        return Reading(None, chosen.reason), None
    text = _quoted(mask(chosen.text, option_questions(chosen.text, schema)))
    offered = offers_both(text, schema)
    if offered:
        return Reading("unsure" if schema.hedge_is_unsure else None, offered), None
    cues = find_cues(text, schema, scores)
    return decide(cues, schema), cues


def read_stance(text: str, schema: VerdictSchema) -> Reading[Stance]:
    """Read a prepared reply without self-corrections (`read_last_verdict` adds them)."""
    return read_with_cues(text, schema)[0]
