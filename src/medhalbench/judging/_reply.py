"""What every verdict reader does before it reads: reasoning blocks removed, code fences and
markdown marks removed, a heading or label on its own line joined to the value under it, and
the reply cut at an explicit self-correction, so that the last verdict stated is the one read."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

# Reasoning that providers leave in the text: <think>...</think> (DeepSeek-R1, Qwen3, QwQ),
# <thinking>, <reasoning>, <reflection>, [THINK]...[/THINK] (Magistral), ◁think▷ (Kimi).
_REASONING = re.compile(
    r"<(think|thinking|reasoning|reflection)>.*?(?:</\1>|$)|\[THINK\].*?(?:\[/THINK\]|$)"
    r"|◁think▷.*?(?:◁/think▷|$)",
    re.IGNORECASE | re.DOTALL,
)
# A closing tag without its opening (the provider cut the opening off): all before it is reasoning.
_UNOPENED = re.compile(r"^.*?(?:</(?:think|thinking|reasoning)>|\[/THINK\]|◁/think▷)", re.I | re.S)
_FENCE = re.compile(r"^```[a-z]*\s*|\s*```$")
_EMPHASIS = re.compile(r"\*\*|__|`|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])")
_HEADER = re.compile(r"^\s*#+\s*", re.MULTILINE)
# Words that label a verdict: a line holding only one of them is a label for the next line.
LABEL_WORDS = (
    r"factual(?:ity)?|verdict|answer|final\s+answer|judge?ment|label|classification|prediction"
    r"|conclusion|result|assessment|decision|rating|output|factuel(?:le)?|f[áa]ctic[oa]"
    r"|faktisch|respuesta|r[ée]ponse|antwort|resposta|veredicto|urteil|事实性|事实|答案|判断|结论"
)
_LABEL_LINE = re.compile(rf"^[ \t]*({LABEL_WORDS})[ \t]*[:：]?[ \t]*\n\s*(?=\S)", re.I | re.M)

# An explicit self-correction: the last verdict after one is the reader's answer.
_CORRECTION = re.compile(
    r"(?:^|(?<=[.!?:;,)\]\n—–]))[ \t]*(?:hmm+,?\s*|oh,?\s*|no,?\s*|but\s+)?"
    r"(?:wait\b|on\s+second\s+thought|on\s+reflection|on\s+closer\s+(?:look|inspection|reading)"
    r"|(?:upon\s+|after\s+)?re-?reading|looking\s+(?:at\s+it\s+)?again|let\s+me\s+(?:re-?consider"
    r"|re-?check|double[- ]check|look\s+again|correct\s+(?:that|myself))|correction\s*:"
    r"|scratch\s+that|i\s+take\s+(?:that|it)\s+back|i\s+(?:was|am)\s+wrong|i\s+made\s+a\s+mistake"
    r"|espera\b|attendez\b|attends\b|moment\s+mal\b|warte\b|espere\b|等等|等一下|不对，)",
    re.IGNORECASE,
)
# "Actually, ..." starts a correction only when what follows states a verdict.
_WEAK_CORRECTION = re.compile(
    r"(?:^|(?<=[.!?\n]))[ \t]*(?:(?:hmm+|oh|well),?\s*)?actually\s*,", re.IGNORECASE
)
# Doubt after a correction ("Wait, that can't be right?"): the earlier verdict does not stand.
_DOUBT = re.compile(
    r"\?|can(?:'t|not)\s+be\s+right|not\s+sure|unsure|doubt|no\s+estoy|pas\s+s[ûu]r|nicht\s+sicher"
    r"|n[ãa]o\s+tenho\s+certeza|不确定",
    re.IGNORECASE,
)


def strip_reasoning(reply: str) -> str:
    """The reply without reasoning blocks (an unclosed block runs to the end: no answer)."""
    return _REASONING.sub(" ", _UNOPENED.sub(" ", reply)).strip()


def normalise_reply(reply: str, *, lower: bool = True) -> str:
    """A reply ready to read: no reasoning blocks, code fences, markdown emphasis or header
    marks; a label alone on its line ("### Factual") joined to the value below it
    ("Factual: NO"); lower-cased unless asked not to."""
    text = _FENCE.sub("", strip_reasoning(reply))
    text = _HEADER.sub("", _EMPHASIS.sub("", text)).strip()
    text = _LABEL_LINE.sub(lambda m: f"{m.group(1)}: ", text)
    return text.lower() if lower else text


@dataclass(frozen=True)
class Reading(Generic[T]):
    """A verdict read from a reply, or None with the reason.

    Attributes:
        verdict: The verdict (None: not read).
        reason: How it was read, or why not.
    """

    verdict: T | None
    reason: str


def read_last_verdict(text: str, read: Callable[[str], Reading[T]]) -> Reading[T]:
    """Read a normalised reply, honouring an explicit self-correction: after "wait", "on
    second thought", "re-reading ..." (and "actually," when a verdict follows it) the verdict
    stated after the last correction is read. A correction that states no verdict leaves the
    verdict stated before it ("1. Wait, let me double-check... yes, the numbers differ"),
    unless it voices doubt ("Wait, that can't be right"): then the reply is not read."""
    strong = list(_CORRECTION.finditer(text))
    weak = [
        m for m in _WEAK_CORRECTION.finditer(text) if not strong or m.start() > strong[-1].start()
    ]
    if weak:
        after = read(text[weak[-1].end() :])
        if after.verdict is not None:
            return Reading(after.verdict, f"after a self-correction: {after.reason}")
    if not strong:
        return read(text)
    tail = text[strong[-1].end() :]
    after = read(tail)
    if after.verdict is not None:
        return Reading(after.verdict, f"after a self-correction: {after.reason}")
    if _DOUBT.search(tail):
        return Reading(None, "a self-correction that doubts the verdict and states none")
    before = read_last_verdict(text[: strong[-1].start()], read)
    return Reading(before.verdict, f"kept after a self-correction stating none: {before.reason}")
