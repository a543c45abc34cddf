"""What every verdict reader does before it reads: reasoning blocks removed, structured parts
(JSON, tables, tags, boxed answers) turned into labelled lines, markdown and decoration
removed, a heading or label on its own line joined to the value under it; and the reply cut
at an explicit self-correction, so that the last verdict stated is the one read."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from medhalbench.judging._structure import structured_lines
from medhalbench.judging._vocabulary import vocabulary

T = TypeVar("T")

# Reasoning that providers leave in the text: <think>...</think> (DeepSeek-R1, Qwen3, QwQ),
# <thinking>, <reasoning>, <reflection>, [THINK]...[/THINK] (Magistral), ◁think▷ (Kimi).
# gpt-oss (harmony) writes its reasoning in the analysis channel and its tool preambles in
# the commentary channel: only the final channel is the reply.
_REASONING = re.compile(
    r"<(think|thinking|reasoning|reflection)>.*?(?:</\1>|$)|\[THINK\].*?(?:\[/THINK\]|$)"
    r"|◁think▷.*?(?:◁/think▷|$)"
    r"|<\|channel\|>[ \t]*(?:analysis|commentary)\b.*?(?:<\|end\|>|(?=<\|channel\|>)|$)",
    re.IGNORECASE | re.DOTALL,
)
# A closing tag without its opening (the provider cut the opening off): all before it is reasoning.
_UNOPENED = re.compile(r"^.*?(?:</(?:think|thinking|reasoning)>|\[/THINK\]|◁/think▷)", re.I | re.S)
_EMPHASIS = re.compile(r"\*\*|__|`|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])|~~")
_STRUCK = re.compile(r"~~.*?~~", re.DOTALL)  # struck out: withdrawn
_HEADER = re.compile(r"^[ \t]*#+[ \t]*", re.MULTILINE)
_QUOTE_MARK = re.compile(r"^[ \t]*>[ \t]?", re.MULTILINE)
_CITATION = re.compile(r"\[\d+(?:\s*[,–-]\s*\d+)*\]")
_QUOTES_AND_SPACES = {"’": "'", "‘": "'", "“": '"', "”": '"', "\u00a0": " ", "\u2009": " "}
# Arabic-Indic and Persian digits read as the digits they are ("۰" is 0).
_EASTERN_DIGITS = {chr(base + d): str(d) for base in (0x0660, 0x06F0) for d in range(10)}
_TYPOGRAPHY = str.maketrans(_QUOTES_AND_SPACES | _EASTERN_DIGITS)
# A line that is only a label ("### Verdict", "**Factual**", "Answer:"): joined to the value below.
_LABEL_ONLY = re.compile(
    r"^[ \t]*(?:[-*•][ \t]+)?(?P<label>[^\W\d_][\w'\- ]{0,40}?)[ \t]*[:：?]?[ \t]*$"
)


def strip_reasoning(reply: str) -> str:
    """The reply without reasoning blocks, wherever they stand (an unclosed block runs to the
    end: no answer; a closing tag left without its opening ends the reasoning before it)."""
    return _UNOPENED.sub(" ", _REASONING.sub(" ", reply)).strip()


def _without_decoration(text: str) -> str:
    """Symbols that decorate (🚩, ⚠️, 💡) removed; the signs that stand for yes or no kept."""
    words = vocabulary()
    keep = words.affirm | words.deny
    kept = []
    for char in text:
        if char in ("\ufe0f", "\u200d"):
            continue
        if unicodedata.category(char) == "So" and char not in keep:
            kept.append(" ")
            continue
        kept.append(char)
    return "".join(kept)


_LABEL_LEAD = re.compile(r"^(?:(?:my|the|your|our|final|overall)\s+)+", re.IGNORECASE)


def _is_label(words: str) -> bool:
    """Whether a short line is only a label ("Verdict", "Final Answer", "Explanation")."""
    vocab = vocabulary()
    bare = _LABEL_LEAD.sub("", words.strip())
    patterns = [*vocab.labels.values(), vocab.explanation_labels, vocab.final_labels]
    return len(words.split()) <= 4 and any(p.fullmatch(bare) for p in patterns)


def _starts_with_value(text: str) -> bool:
    vocab = vocabulary()
    head = text.lstrip(" \"'([*`>")
    return bool(
        re.match(r"[0-2](?!\w)", head)
        or head[:1] in vocab.affirm | vocab.deny
        or head[:2] in vocab.affirm | vocab.deny
        or any(p.match(head) for p in (vocab.words, vocab.yes, vocab.no, vocab.unsure))
        or re.match(r"(?:not|non)\b", head, re.IGNORECASE)
        or "final answer:" in head[:14].lower()
    )


def _joins(label: str, value: str) -> bool:
    """Whether a label line takes the next line as its value: an explanation label always;
    a label that is itself a verdict word ("True", "Factual") only when a value follows
    ("### Factual\\nNO", not "True\\nFalse" nor "**True**\\nMetformin ...")."""
    vocab = vocabulary()
    if vocab.explanation_labels.fullmatch(label):
        return True
    if vocab.words.fullmatch(label):
        return _starts_with_value(value) and not (
            vocab.words.fullmatch(value.strip(" .!")) and _kind_of(label) == _kind_of(value)
        )
    return True


def _kind_of(word: str) -> str:
    vocab = vocabulary()
    match = vocab.words.match(word.strip(" .!"))
    return vocab.meaning(match).kind if match else ""


_LIST_MARK = re.compile(r"^[ \t]*(?:[-*•]+|\d+[.)])[ \t]*")


def _join_labels(text: str) -> str:
    """A label alone on its line joined to the next line that is not blank (which is then
    its value, never a label itself)."""
    out: list[str] = []
    pending: str | None = None
    pending_line = ""
    for line in text.split("\n"):
        if pending is not None:
            if not line.strip():
                continue
            value = _LIST_MARK.sub("", line).strip()
            if _joins(pending, value):
                out.append(f"{pending}: {line.strip()}")
                pending = None
                continue
            out.append(pending)  # "True\nMetformin ...": a verdict, not a label
            pending = None
        only = _LABEL_ONLY.match(line)
        if only and _is_label(only.group("label")):
            pending, pending_line = only.group("label").strip(), line
            continue
        out.append(line)
    if pending is not None:
        # "Factual:" with nothing after it is a label without its value, not a verdict.
        out.append(pending_line.strip() if pending_line.rstrip().endswith((":", "：")) else pending)
    return "\n".join(out)


# Chat-template tokens a served model may leak ("<|assistant|>", "<|im_end|>", "<|eot_id|>").
# A harmony header ("<|start|>assistant<|channel|>final<|message|>") is no text of the reply.
_CHAT_TOKEN = re.compile(
    r"<\|start\|>[ \t]*\w+|<\|channel\|>[ \t]*final\b[^<\n]{0,40}"
    r"|<\|[A-Za-z_][\w.]{0,30}\|>|\[/?(?:TOOL_CALLS|TOOL_RESULTS|AVAILABLE_TOOLS)\]"
    r"|\[\|[A-Za-z_]\w{0,30}\|\]"
)


# A Llama-2 style echo of the prompt ("[INST] ... [/INST]"): the prompt names every class.
_ECHOED_PROMPT = re.compile(r"\[INST\].*?\[/INST\]", re.DOTALL)


def prepare_reply(reply: str) -> str:
    """A reply ready to read, case kept: no reasoning blocks; structured parts as labelled
    lines; no markdown emphasis, header or quote marks, citation marks or decoration; a
    label alone on its line ("### Factual", "**Verdict:**") joined to the value below it."""
    text = _CHAT_TOKEN.sub("\n", strip_reasoning(reply))
    text = _ECHOED_PROMPT.sub("\n", text).translate(_TYPOGRAPHY)
    text = structured_lines(_STRUCK.sub(" ", text))
    text = _EMPHASIS.sub("", text)
    text = _QUOTE_MARK.sub("", _HEADER.sub("", text))
    text = _CITATION.sub("", _without_decoration(text))
    return _join_labels(text.strip()).strip()


@dataclass(frozen=True)
class Reading(Generic[T]):
    """A verdict read from a reply, or None with the reason.

    Attributes:
        verdict: The verdict (None: not read).
        reason: How it was read, or why not.
    """

    verdict: T | None
    reason: str


def _corrections() -> re.Pattern[str]:
    words = vocabulary()
    return re.compile(
        r"(?:^|(?<=[.!?:;,)\]\n—–…。，]))[ \t]*(?:hmm+,?\s*|oh,?\s*|no,?\s*|but\s+|ah,?\s*)?"
        rf"(?:{words.corrections.pattern})",
        re.IGNORECASE,
    )


# "Actually, ..." starts a correction only when what follows states a verdict.
_WEAK_CORRECTION = re.compile(
    r"(?:^|(?<=[.!?\n]))[ \t]*(?:(?:hmm+|oh|well|ah),?\s*(?:actually|in fact)\b,?"
    r"|(?:actually|in fact)\s*(?:,|(?=\s+(?:no|yes|not)\b)))",
    re.IGNORECASE,
)


def _after_weak(
    text: str, weak: re.Match[str], read: Callable[[str], Reading[T]]
) -> Reading[T] | None:
    """What "actually, ..." changes: the verdict after it; no reading where it opens with
    an answer that cannot be read ("Yes. Actually, no: ..."); None where it corrects
    nothing."""
    after = read(text[weak.end() :])
    if after.verdict is not None:
        return Reading(after.verdict, f"after a self-correction: {after.reason}")
    words = vocabulary()
    rest = text[weak.end() :].lstrip(" \t,")
    if words.yes.match(rest) or words.no.match(rest):
        return Reading(None, "a self-correction whose verdict cannot be read")
    return None


MAX_READ_CHARS = 8_000
"""The longest reply (after its reasoning) the reader reads, about 2,000 tokens: a verdict
takes far less, and reading costs time in the number of verdict words, so a longer reply is
unread (counted, with this reason) rather than read for minutes."""


def read_reply(reply: str, read: Callable[[str], Reading[T]]) -> Reading[T]:
    """Read a model's reply with a benchmark's reading of prepared text: the reply is
    prepared (`prepare_reply`) and read honouring its self-corrections (`read_last_verdict`);
    one with nothing left to read (empty, or reasoning only) or longer than `MAX_READ_CHARS`
    is not read, with that reason."""
    # A reply many times the bound is not even prepared (its reasoning may be long).
    text = prepare_reply(reply) if len(reply) <= 16 * MAX_READ_CHARS else reply
    if not text:
        return Reading(None, "empty reply" if not reply.strip() else "reasoning only")
    if len(text) > MAX_READ_CHARS:
        return Reading(None, f"too long to read ({len(text):,} characters, reasoning aside)")
    return read_last_verdict(text, read)


def read_last_verdict(text: str, read: Callable[[str], Reading[T]]) -> Reading[T]:
    """Read a prepared reply, honouring an explicit self-correction: after "wait", "on
    second thought", "re-reading ..." (and "actually," when a verdict follows it) the verdict
    stated after the last correction is read. A correction that states no verdict leaves the
    verdict stated before it ("1. Wait, let me double-check... yes, the numbers differ"),
    unless it withdraws it or voices doubt ("I take that back", "Wait, that can't be
    right"): then the reply is not read."""
    words = vocabulary()
    strong = list(_corrections().finditer(text))
    weak = [
        m for m in _WEAK_CORRECTION.finditer(text) if not strong or m.start() > strong[-1].start()
    ]
    corrected = _after_weak(text, weak[-1], read) if weak else None
    if corrected is not None:
        return corrected
    if not strong:
        return read(text)
    # What follows the correction, its separator set aside ("wait, YES" states YES).
    tail = text[strong[-1].end() :].lstrip(" \t,;:—–-")
    after = read(tail)
    if after.verdict is not None:
        return Reading(after.verdict, f"after a self-correction: {after.reason}")
    if words.doubt.search(tail) or words.withdrawals.search(text, strong[-1].start()):
        return Reading(
            None, "a self-correction that withdraws or doubts the verdict and states none"
        )
    before = read_last_verdict(text[: strong[-1].start()], read)
    return Reading(before.verdict, f"kept after a self-correction stating none: {before.reason}")
