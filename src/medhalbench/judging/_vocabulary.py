"""The verdict words of every language, read once from `verdict_words.yaml` (the one place
they are kept) and compiled into the patterns the reader uses."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal, get_args

import yaml

Stance = Literal["holds", "fails", "unsure"]
"""A reply's stance on the text it judged: it holds (factual, true, correct), it fails
(hallucinated, false, not factual), or the reply cannot tell."""

WordKind = Literal["truth", "correctness", "factuality", "hallucination", "casual"]
"""What a verdict word speaks of: true/false, correct/wrong, factual/non-factual,
hallucinated/fabricated, or a casual verdict (a myth, outdated, spot on). A benchmark says
which kinds may stand on their own."""

LabelSense = Literal["neutral", "holds", "fails"]
"""What a label asks: `neutral` (its value says the verdict: "Verdict: false"), `holds` (a yes
under it holds: "Factual: YES"), `fails` (a yes under it fails: "Hallucination: yes")."""

WORD_KINDS: tuple[WordKind, ...] = ("truth", "correctness", "factuality", "hallucination", "casual")
WORDS_FILE = "verdict_words.yaml"
# Letters, digits and the combining marks of Indic scripts (Python's \w leaves those out).
WORD_CHAR = r"[\w\u0300-\u036f\u0900-\u0dff\u0e00-\u0e7f]"
_SAME_NAMED = (
    "unsure", "partial", "not_wholly", "hedges", "faults", "subjects", "fillers", "refusals",
    "frames", "conditionals", "alternatives", "corrections", "doubt", "withdrawals", "earlier",
    "topics", "parts", "sources", "fault_present", "fault_of_source", "qualifiers", "exceptions",
    "conjunctions", "digit_leads", "picks", "deviations", "option_words", "tentative",
    "contrasts",
)  # fmt: skip
"""The `Vocabulary` patterns compiled from the file's section of the same name."""


@dataclass(frozen=True)
class VerdictWord:
    """What one alternative of the verdict-word pattern means.

    Attributes:
        stance: The stance it gives.
        kind: What it speaks of.
        start_only: Read only at the start of a reply or as a label's value (short words
            that mean other things inside a sentence).
    """

    stance: Literal["holds", "fails"]
    kind: WordKind
    start_only: bool = False


@dataclass(frozen=True)
class Vocabulary:
    """Every language's verdict words, compiled: a field for each section of
    `verdict_words.yaml` (its header says what each holds), named as the section is, save
    `yes`/`no` (`yes_words`/`no_words`), `negation` (`negation_before`), `none` (`none_words`),
    the `labels` section (its senses in `labels`, the rest in `final_labels`, `initial_labels`
    and `explanation_labels`), and the `marks`
    (`affirm`, `deny`, `affirm_alone`, `deny_alone`, `select`).

    Attributes:
        words: Every verdict word; the index of the group that matched, less one, indexes
            `meanings`.
        meanings: What each alternative of `words` means.
    """

    words: re.Pattern[str]
    meanings: tuple[VerdictWord, ...]
    yes: re.Pattern[str]
    no: re.Pattern[str]
    unsure: re.Pattern[str]
    partial: re.Pattern[str]
    not_wholly: re.Pattern[str]
    hedges: re.Pattern[str]
    negation: re.Pattern[str]
    negation_after: re.Pattern[str]
    faults: re.Pattern[str]
    evidence: Mapping[Literal["holds", "fails"], re.Pattern[str]]
    labels: Mapping[LabelSense, re.Pattern[str]]
    final_labels: re.Pattern[str]
    initial_labels: re.Pattern[str]
    explanation_labels: re.Pattern[str]
    subjects: re.Pattern[str]
    fillers: re.Pattern[str]
    refusals: re.Pattern[str]
    frames: re.Pattern[str]
    conditionals: re.Pattern[str]
    alternatives: re.Pattern[str]
    corrections: re.Pattern[str]
    doubt: re.Pattern[str]
    withdrawals: re.Pattern[str]
    earlier: re.Pattern[str]
    topics: re.Pattern[str]
    parts: re.Pattern[str]
    sources: re.Pattern[str]
    fault_present: re.Pattern[str]
    fault_of_source: re.Pattern[str]
    qualifiers: re.Pattern[str]
    exceptions: re.Pattern[str]
    deviations: re.Pattern[str]
    conjunctions: re.Pattern[str]
    digit_leads: re.Pattern[str]
    picks: re.Pattern[str]
    option_words: re.Pattern[str]
    tentative: re.Pattern[str]
    contrasts: re.Pattern[str]
    none: re.Pattern[str]
    affirm: frozenset[str]
    deny: frozenset[str]
    affirm_alone: frozenset[str]
    deny_alone: frozenset[str]
    select: frozenset[str]

    def meaning(self, match: re.Match[str]) -> VerdictWord:
        """What a match of `words` means."""
        assert match.lastindex is not None
        return self.meanings[match.lastindex - 1]

    def found(self, text: str) -> tuple[re.Match[str], ...]:
        """Every verdict word of a text, found once per text (several readers scan it)."""
        return _found(self.words, text)


@functools.lru_cache(maxsize=64)
def _found(words: re.Pattern[str], text: str) -> tuple[re.Match[str], ...]:
    return tuple(words.finditer(text))


@dataclass(frozen=True)
class _Entry:
    """One entry of the file in one language, with its word boundaries."""

    pattern: str
    spaced: bool
    prefix: bool

    def bounded(self) -> str:
        body = re.sub(r" ", r"\\s+", self.pattern)
        if not self.spaced:
            return f"(?:{body})"
        # An entry that starts or ends with a sign ("non-", "-free") has no boundary there.
        before = f"(?<!{WORD_CHAR})" if re.match(r"[\w(\[]", self.pattern) else ""
        after = (
            "" if self.prefix or re.search(r"[^\w)?*+\]]$", self.pattern) else f"(?!{WORD_CHAR})"
        )
        return f"{before}(?:{body}){after}"


def _entries(languages: Mapping[str, Any], *path: str) -> list[_Entry]:
    """The entries under one section (a path of keys) of every language."""
    found = []
    for name, language in languages.items():
        node: Any = language
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if node is None:
            continue
        if not isinstance(node, list) or not all(isinstance(e, str) for e in node):
            raise ValueError(f"{WORDS_FILE}: {name}.{'.'.join(path)} must be a list of strings")
        spaced = bool(language.get("spaced", True))
        prefix = bool(language.get("prefix", False))
        found += [_Entry(e, spaced, prefix) for e in node]
    return found


def _alternation(entries: Iterable[_Entry]) -> str:
    # Longer entries first: at one position, "incorrect" before "correct", 不正确 before 正确.
    ordered = sorted(entries, key=lambda e: len(e.pattern), reverse=True)
    return "|".join(e.bounded() for e in ordered) or r"(?!x)x"


def _compile(entries: Iterable[_Entry]) -> re.Pattern[str]:
    return re.compile(_alternation(entries), re.IGNORECASE)


def _words(languages: Mapping[str, Any]) -> tuple[re.Pattern[str], tuple[VerdictWord, ...]]:
    alternatives: list[tuple[_Entry, VerdictWord]] = []
    stances: tuple[Literal["holds", "fails"], ...] = ("holds", "fails")
    for stance in stances:
        for kind in WORD_KINDS:
            meaning = VerdictWord(stance, kind)
            alternatives += [(e, meaning) for e in _entries(languages, stance, kind)]
        start = VerdictWord(stance, "truth", start_only=True)
        alternatives += [(e, start) for e in _entries(languages, f"start_{stance}")]
    alternatives.sort(key=lambda pair: len(pair[0].pattern), reverse=True)
    pattern = "|".join(f"({entry.bounded()})" for entry, _ in alternatives)
    return re.compile(pattern, re.IGNORECASE), tuple(meaning for _, meaning in alternatives)


def _marks(raw: Mapping[str, Any], key: str) -> frozenset[str]:
    marks = raw.get("marks", {}).get(key, [])
    return frozenset(str(m) for m in marks)


def build_vocabulary(raw: Mapping[str, Any]) -> Vocabulary:
    """Compile a parsed words file.

    Raises:
        ValueError: A section that is not a list of words, or a word that is no valid
            regular expression.
    """
    languages = raw.get("languages")
    if not isinstance(languages, dict) or not languages:
        raise ValueError(f"{WORDS_FILE}: no languages")
    # YAML reads some bare codes as other types (Norwegian `no:` is False): quote them.
    if named := [repr(n) for n in languages if not isinstance(n, str)]:
        raise ValueError(f"{WORDS_FILE}: language names must be text; quote {', '.join(named)}")
    words, meanings = _words(languages)

    def section(*path: str) -> re.Pattern[str]:
        return _compile(_entries(languages, *path))

    after = _alternation(_entries(languages, "negation_after"))
    return Vocabulary(
        words=words,
        meanings=meanings,
        yes=section("yes_words"),
        no=section("no_words"),
        negation=section("negation_before"),
        negation_after=re.compile(rf"^(?:{after})", re.IGNORECASE),
        evidence={"holds": section("evidence", "holds"), "fails": section("evidence", "fails")},
        labels={sense: section("labels", sense) for sense in get_args(LabelSense)},
        final_labels=section("labels", "final"),
        initial_labels=section("labels", "initial"),
        explanation_labels=section("labels", "explanation"),
        none=section("none_words"),
        affirm=_marks(raw, "affirm"),
        deny=_marks(raw, "deny"),
        affirm_alone=_marks(raw, "affirm_alone"),
        deny_alone=_marks(raw, "deny_alone"),
        select=_marks(raw, "select"),
        **{name: section(name) for name in _SAME_NAMED},
    )


@functools.cache
def vocabulary() -> Vocabulary:
    """The packaged vocabulary (`judging/verdict_words.yaml`), compiled once."""
    text = resources.files(__package__).joinpath(WORDS_FILE).read_text(encoding="utf-8")
    return build_vocabulary(yaml.safe_load(text))
