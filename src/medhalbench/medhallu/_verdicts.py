"""Strict parsing of a detector's verdict: 0 factual, 1 hallucinated, 2 not sure.

Read by the shared strict reader (`medhalbench.judging`), whose first rule is never to read
the wrong class: a reply that offers both classes, whose marked verdicts disagree or whose
verdict its own explanation contradicts is unparseable and counted as such by the metrics.
Before it, what only MedHallu's prompt invites is set aside: an echo of the prompt's options
(`0 if ... factual`, `1 = hallucinated`), a numbered list, a restated hallucination type.
`paper_detection_reading` is MedHallu's own substring reading, for the `paper_*` figures.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from enum import IntEnum

from pydantic import BaseModel, ConfigDict

from medhalbench.judging import (
    Reading,
    Stance,
    VerdictSchema,
    read_reply,
    read_stance,
    vocabulary,
)
from medhalbench.outputs import PaperText


class DetectionLabel(IntEnum):
    """A detector's answer, in MedHallu's numbering."""

    FACTUAL = 0
    HALLUCINATED = 1
    NOT_SURE = 2


UNPARSEABLE = "unparseable"
"""The prediction's name where no verdict could be read."""


class MedHalluScoreMetadata(BaseModel):
    """What a detection score keeps.

    Attributes:
        label: The true label (None in older logs: the sample's stands for it).
        prediction: Our reading's name: `factual`, `hallucinated`, `not_sure` or
            `unparseable`.
        read_by: Who read the verdict: `strict`, `extractor`, or None.
        paper_prediction: The authors' reading of the same reply (0/1/2).
        paper_text: What their reading read: the reply's text as sent, or (a reply whose text
            was not kept, None in older logs) the completion.
        p_hallucinated: P(hallucinated) at the verdict token, where log-probabilities were kept.
        unread_reason: Why the strict reader read no verdict from the reply (None where it
            read one), kept where the extractor then read one.
    """

    model_config = ConfigDict(frozen=True, extra="ignore")

    label: int | None = None
    prediction: str = UNPARSEABLE
    read_by: str | None = None
    paper_prediction: int | None = None
    paper_text: PaperText | None = None
    p_hallucinated: float | None = None
    unread_reason: str | None = None


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


DETECTION_SCHEMA = VerdictSchema(
    yes=None,  # "factual (0) or hallucinated (1)?" is no yes/no question
    digits={"0": "holds", "1": "fails", "2": "unsure"},
    alone=frozenset({"factuality", "hallucination"}),
    anywhere=frozenset({"hallucination"}),
    unsure=True,
)
_LABELS: dict[Stance, DetectionLabel] = {
    "holds": DetectionLabel.FACTUAL,
    "fails": DetectionLabel.HALLUCINATED,
    "unsure": DetectionLabel.NOT_SURE,
}
# "0 if the answer is factual", "1 = hallucinated", "2: not sure": the prompt's options.
_OPTION = re.compile(
    r"(?<![\w.])\(?([012])\)?\s*(?:if|=|:|-|–|—|means|for|->|→)\s*(?:the\s+answer\s+is\s+)?"
    r"(?:(?:you\s+are\s+)?(?:factual|hallucinated|not\s+sure|unsure))",
    re.IGNORECASE,
)
# A numbered item, on its own line or after a comma ("0. No, 1. No, 2. ..."): several of
# them number the reply's own list, not its verdict.
_LIST_ITEM = re.compile(r"(?:^|(?<=[,;]))[ \t]*(\d+)[.)](?=[ \t]+\S)", re.MULTILINE)
_HALLUCINATION_TYPES = re.compile(
    r"^\s*(?:\d+[.)]\s*)?(?:type\s*:?\s*)?(?:misinterpretation\s+of|incomplete\s+information"
    r"|mechanism\s+and\s+pathway|methodological\s+and\s+evidence)",
    re.IGNORECASE,
)
_PROMPT_ECHO = re.compile(r"your\s+judge?ment\s*\(a\s+single\s+digit\)\s*:?", re.IGNORECASE)


def _unnumbered(text: str, items: list[re.Match[str]]) -> list[str]:
    """The text with each list item's number blanked."""
    parts, last = [], 0
    for item in items:
        parts += [text[last : item.start()], " " * (item.end() - item.start())]
        last = item.end()
    return [*parts, text[last:]]


def _echoes_the_prompt(option: re.Match[str]) -> bool:
    """Whether an option gives its digit the prompt's meaning ("1 = hallucinated"); one
    that does not ("Option 1: factual") is the reply's own numbering, read as such."""
    words = vocabulary()
    said = option.group(0)[option.end(1) - option.start() :]
    word = words.words.search(said)
    stance = "unsure" if word is None else words.meaning(word).stance
    return DETECTION_SCHEMA.digits.get(option.group(1)) == stance


def _read(text: str, schema: VerdictSchema = DETECTION_SCHEMA) -> Reading[Stance]:
    """Read a prepared reply without self-corrections (see `parse_detection_verdict`)."""
    text = _PROMPT_ECHO.sub(" ", text).strip()
    if not text:
        return Reading(None, "no verdict found")
    options = list(_OPTION.finditer(text))
    if len({m.group(1) for m in options}) > 1 and all(map(_echoes_the_prompt, options)):
        rest = text
        for match in reversed(options):
            rest = rest[: match.start()] + " " * (match.end() - match.start()) + rest[match.end() :]
        inner = read_stance(rest, schema)
        if inner.verdict is None:
            return Reading(None, "echoes the prompt's options")
        return Reading(inner.verdict, f"after the prompt's options: {inner.reason}")
    items = list(_LIST_ITEM.finditer(text))
    if len({m.group(1) for m in items}) > 1:
        # A numbered list's numbers are no verdict digits ("1. Identify the claim ...").
        text = "".join(_unnumbered(text, items))
    if _HALLUCINATION_TYPES.match(text):
        return Reading(None, "restates a hallucination type, no verdict")
    return read_stance(text, schema)


def parse_detection_verdict(
    reply: str, *, allow_not_sure: bool = False, score_threshold: float | None = None
) -> DetectionVerdict:
    """Read a detector's reply (the reader's rules: `judging/README.md`).

    Args:
        reply: The model's completion.
        allow_not_sure: Whether 2 / "not sure" is a valid answer in this setting; when it
            is not, such a reply is unparseable.
        score_threshold: Where the prompt asks for the probability that the answer is
            hallucinated: a score at or above it reads as hallucinated, below it as factual
            (None: a score is never a verdict).

    Returns:
        The verdict, or an unparseable verdict with the reason.
    """
    schema = DETECTION_SCHEMA.scored(score_threshold, "fails")
    read = read_reply(reply, functools.partial(_read, schema=schema))
    if read.verdict is None:
        return DetectionVerdict(None, read.reason)
    label = _LABELS[read.verdict]
    if label is DetectionLabel.NOT_SURE and not allow_not_sure:
        return DetectionVerdict(None, f"'not sure' ({read.reason}) is not an allowed answer here")
    return DetectionVerdict(label, read.reason)


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
