"""Rules that drop generated questions which need the source paper to be answered.

DAHL's three families: (1) a demonstrative or possessive with a study-type noun ("this
study", "the authors"), (2) verbs that point at the paper's content ("mentioned",
"observed"), (3) was/were + past participle, the voice of a paper's methods and results
("was used", "were identified").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_STUDY_NOUNS = (
    r"stud(?:y|ies)|paper|article|analys[ie]s|research|work|experiments?|trials?|investigations?"
    r"|reports?|reviews?|manuscript|findings|results|data(?:set)?|cohort|samples?|survey"
    r"|authors?|researchers?|investigators?|text|passage|document|model"
)
_DEMONSTRATIVE = re.compile(
    rf"\b(?:this|these|that|those|the\s+present|the\s+current|our|the\s+above|the\s+aforementioned)"
    rf"\s+(?:\w+\s+)?(?:{_STUDY_NOUNS})\b"
    r"|\bthe\s+(?:authors?|researchers?|investigators?|paper|article|manuscript)\b"
    r"|\b(?:in|from|according\s+to|by)\s+the\s+(?:stud(?:y|ies)|paper|article|text|passage|authors?)\b",
    re.IGNORECASE,
)
_CONTEXT_VERBS = re.compile(
    r"\b(?:mentioned|inferred|addressed|observed|suggested|described|discussed|reported|noted|highlighted)\b",
    re.IGNORECASE,
)
_IRREGULAR_PARTICIPLES = (
    "done|made|found|shown|seen|given|taken|known|chosen|drawn|grown|held|kept|led|left|lost"
    "|met|paid|put|read|run|said|sent|set|spent|told|thought|understood|written|built|brought"
    "|bought|caught|fed|felt|got|gotten|hidden|hit|hurt|laid|let|meant|proven|shut|sold|split"
    "|spread|struck|taught|thrown|won|undertaken|undergone"
)
# An -ed/-en word after was/were is a participle unless it is a common adjective.
_NOT_PARTICIPLES = frozenset(
    {
        "red",
        "bed",
        "seed",
        "need",
        "speed",
        "often",
        "open",
        "even",
        "hundred",
        "kindred",
        "sacred",
        "naked",
        "wicked",
        "rugged",
    }
)
_PASSIVE = re.compile(
    rf"\b(?:was|were)\s+(?:(?:not|also|then|first|initially|successfully|significantly|further)\s+)?"
    rf"(\w+(?:ed|en)|{_IRREGULAR_PARTICIPLES})\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class FilterMatch:
    """Why a question was dropped: the rule family and the words that matched."""

    rule: str
    matched: str


def context_dependence(question: str) -> FilterMatch | None:
    """The first rule a question breaks, or None when it stands on its own.

    Args:
        question: A generated exam question.
    """
    match = _DEMONSTRATIVE.search(question)
    if match:
        return FilterMatch("demonstrative_study_noun", match.group(0))
    match = _CONTEXT_VERBS.search(question)
    if match:
        return FilterMatch("context_verb", match.group(0))
    for match in _PASSIVE.finditer(question):
        if match.group(1).lower() not in _NOT_PARTICIPLES:
            return FilterMatch("was_were_participle", match.group(0))
    return None
