"""Options a reply defines itself and then picks by letter or number ("Options: A) factual
B) hallucinated → B", "Let me define: (1) not hallucinated, (2) hallucinated. I pick option
1."): the pick is read as the option's words, and the reply's own numbers never as the
benchmark's verdict digits."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from medhalbench.judging._schema import VerdictSchema, mask
from medhalbench.judging._values import read_value
from medhalbench.judging._vocabulary import vocabulary

_KEY = r"[A-Da-d1-4]"
_OPTION_END = re.compile(r"[ \t]*(?:[,;.][ \t]*)?$")
_SEQUENCES = ("1234", "abcd", "ABCD")


@dataclass(frozen=True)
class Options:
    """A reply with its own options read: the text to read (the definitions masked and the
    option picked stated in its words), or why it cannot be read."""

    text: str
    reason: str = ""


@dataclass(frozen=True)
class _Option:
    key: str
    start: int
    end: int
    words: str


@functools.cache
def _marker() -> re.Pattern[str]:
    """An option's marker: "(1)", "A)", "1.", "Option 2:"."""
    named = vocabulary().option_words.pattern
    return re.compile(
        rf"(?<![\w(])(?:\((?P<inner>{_KEY})\)|(?P<bare>{_KEY})[.)]"
        rf"|(?:{named})[ \t]*(?P<named>{_KEY})[ \t]*[:.)=\-])(?=[ \t]+\S)",
        re.IGNORECASE,
    )


@functools.cache
def _pick() -> re.Pattern[str]:
    """Where the reply picks an option: after an arrow or a word that picks ("option",
    "I pick", "→")."""
    picks = vocabulary().picks.pattern
    return re.compile(
        rf"(?:(?:{picks})[ \t]*[:\-]?|[→⇒]|->|=>)[ \t]*(?:\((?P<inner>{_KEY})\)|(?P<bare>{_KEY}))"
        r"(?!\w)",
        re.IGNORECASE,
    )


def _key(match: re.Match[str]) -> str:
    found = match.groupdict()
    return found.get("inner") or found.get("bare") or found.get("named") or ""


def _names_a_verdict(words: str, schema: VerdictSchema) -> bool:
    """Whether an option's words are a verdict and nothing else ("not hallucinated",
    "True", "Factual")."""
    value = read_value(words, 0, schema, "neutral", leading=True)
    return value.tone in ("holds", "fails", "unsure") and not words[value.end :].strip(" .)")


def _option_at(text: str, match: re.Match[str], end: int, schema: VerdictSchema) -> _Option | None:
    """The option a marker defines, up to the next marker, its line's end or a pick."""
    line = text.find("\n", match.end())
    end = min(end, len(text) if line < 0 else line)
    pick = _pick().search(text, match.end(), end)
    end = pick.start() if pick else end
    words = _OPTION_END.sub("", text[match.end() : end].strip())
    if not words or not _names_a_verdict(words, schema):
        return None
    return _Option(
        _key(match), match.start(), match.end() + len(text[match.end() : end].rstrip()), words
    )


def _defined(text: str, schema: VerdictSchema) -> list[_Option]:
    """The options the reply defines: at least two markers in sequence ("A)", "B)" or
    "(1)", "(2)"), each naming nothing but a verdict."""
    markers = list(_marker().finditer(text))
    ends = [m.start() for m in markers[1:]] + ([len(text)] if markers else [])
    found = [_option_at(text, m, end, schema) for m, end in zip(markers, ends, strict=True)]
    options = [o for o in found if o is not None]
    for sequence in _SEQUENCES:
        run = [o for o in options if o.key in sequence]
        if len(run) >= 2 and sequence.startswith("".join(o.key for o in run)):
            return run
    return []


def _stances(options: list[_Option], schema: VerdictSchema) -> set[object]:
    return {read_value(o.words, 0, schema, "neutral", leading=True).tone for o in options}


def own_options(text: str, schema: VerdictSchema) -> Options:
    """The reply with the options it defines itself read (see the module's docstring)."""
    options = _defined(text, schema)
    if len(_stances(options, schema)) < 2:
        return Options(text)
    by_key = {o.key.lower(): o for o in options}
    after = options[-1].end
    picks = [m for m in _pick().finditer(text, after) if _key(m).lower() in by_key]
    masked = mask(text, [(options[0].start, after), *(m.span() for m in picks)])
    chosen = {_key(m).lower() for m in picks}
    if len(chosen) > 1:
        return Options(text, "picks more than one of the options it defines")
    if chosen:
        return Options(f"{by_key[chosen.pop()].words}\n{masked}")
    named = "|".join(re.escape(key) for key in by_key)
    if re.search(rf"(?<![\w.])(?:{named})(?![\w])", masked[after:], re.IGNORECASE):
        # The reply's own numbers or letters, where no pick names them, are no verdict.
        return Options(text, "defines its own options and picks none of them")
    return Options(masked)
