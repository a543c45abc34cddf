"""Checks that drop generated questions which are not questions or need their source paper.

Two rule sets, chosen by the build protocol:

- `ours` (precise): a question points at its paper when it names the paper or its people
  ("the study", "the authors", "the case presented"), uses a demonstrative with a study noun
  whose antecedent is not in the question itself ("this cohort", "these findings"), names a
  study's groups ("the control group", "the participants"), or reports what was observed
  ("was observed", "were enrolled"). Tuned to keep the questions DAHL's authors accepted by
  hand (it drops under 1% of their released questions) while catching those that need the
  paper; imperative exam prompts ("Analyze...", "Provide...") are questions.
- `paper`: the three broad families the DAHL paper names: (1) a demonstrative or possessive
  with a study-type noun, (2) verbs that point at the paper's content ("mentioned",
  "observed"), (3) was/were + past participle. The authors applied them by hand; the builder
  under `paper` only flags what they match (see `_build.py`).

`medhalbench dahl filter` applies the same checks to any question set."""

from __future__ import annotations

import csv
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from medhalbench._errors import DataError
from medhalbench.arguments import BuildProtocol, ByProtocol, LocalPath, NotTaken, Spelling
from medhalbench.data import atomic_text, read_rows
from medhalbench.registry import RoleModels
from medhalbench.results import Column, ResultTable

THEIR_FAMILIES = "the paper's three rule families have no case-report rule"
"""Why `--cases` is not taken by `--protocol paper`."""

OurRule = Literal[
    "not_a_question",
    "paper_reference",
    "demonstrative",
    "study_group",
    "study_finding",
    "own_study",
    "case_reference",
]
PaperRule = Literal["demonstrative_study_noun", "context_verb", "was_were_participle"]
RULES: dict[BuildProtocol, tuple[str, ...]] = {
    "ours": get_args(OurRule),
    "paper": get_args(PaperRule),
}
"""Each protocol's rules, in the order they are tried."""

RULE_HELP: dict[str, str] = {
    "not_a_question": "neither a question nor an instruction (a statement, an answer, a heading)",
    "paper_reference": "names the paper, its people or its text (the study, the authors, mentioned)",
    "demonstrative": "this/these/our + a study noun with no antecedent in the question",
    "study_group": "names a study's groups or participants (the control group, the participants)",
    "study_finding": "reports what a study observed (was observed, were found, were enrolled)",
    "own_study": "speaks of a study's own cohort, team, analyses or results as if known (the cohort, the sensitivity analysis showed, the patients examined)",
    "case_reference": "points at a case report or its patient (this patient, the case presented)",
    "demonstrative_study_noun": "paper family 1: a demonstrative or possessive with a study noun",
    "context_verb": "paper family 2: a verb that points at the paper's content",
    "was_were_participle": "paper family 3: was/were + past participle",
}


@dataclass(frozen=True)
class FilterMatch:
    """Why a question was dropped (or flagged): the rule and the words that matched."""

    rule: str
    matched: str


# --- ours -----------------------------------------------------------------------------------

_IMPERATIVES = (
    "analy[sz]e|appraise|argue|assess|calculate|categori[sz]e|characteri[sz]e|clarify|classify"
    "|comment|compare|consider|construct|contrast|critically|critique|deduce|define|delineate"
    "|demonstrate|derive|describe|design|detail|determine|develop|diagram|differentiate|discuss"
    "|distinguish|draw|elaborate|elucidate|enumerate|estimate|evaluate|examine|explain|explore"
    "|express|formulate|give|highlight|hypothesi[sz]e|identify|illustrate|imagine|indicate|infer"
    "|interpret|investigate|justify|list|map|mention|name|note|outline|plan|point|predict"
    "|prioriti[sz]e|propose|provide|rank|recommend|reflect|relate|review|select|show|sketch"
    "|specify|state|suggest|summari[sz]e|support|trace|walk|write"
)
_INTERROGATIVES = (
    "what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|should"
    "|would|will|has|have|had|may|might|must|in what|to what"
)
# A label before a question ("Q3:", "1.", "-") is not part of it; an answer's label is not a question.
_LABEL = re.compile(r"^\s*(?:(?:q(?:uestion)?\s*\d*|\d+)\s*[:.)\-]|[-*•])\s*", re.IGNORECASE)
_ANSWER_LABEL = re.compile(r"^\s*a(?:nswer)?\s*\d*\s*:", re.IGNORECASE)
_OPENS_AS_ASKING = re.compile(rf"^(?:(?:{_IMPERATIVES})\b|(?:{_INTERROGATIVES})\b)", re.IGNORECASE)
# A lead-in clause before the instruction: "Based on X, list ...", "Given X, predict ...".
_LEAD_IN = re.compile(
    r"^(?:based|given|considering|using|in|with|for|from|after|assuming|taking|according|if|when"
    r"|as|regarding|beyond|apart|besides|other|focusing|drawing|referring|reflecting)\b[^.?!]*?,\s*",
    re.IGNORECASE,
)
_SENTENCE_START = re.compile(r"(?:^|(?<=[.!?])\s+)(?=[A-Z\"'(])")


def _asks(sentence: str) -> bool:
    """Whether a sentence asks something: it opens with a question word or an instruction,
    directly or after a lead-in clause."""
    text = sentence.strip().strip("\"'(")
    if _OPENS_AS_ASKING.match(text):
        return True
    lead = _LEAD_IN.match(text)
    return lead is not None and bool(_OPENS_AS_ASKING.match(text[lead.end() :]))


def question_form(question: str) -> FilterMatch | None:
    """`not_a_question` when the text neither asks (a "?" or a question word) nor instructs
    ("Explain...", "Based on X, list..."), in any of its sentences; an answer ("A2: ...") or
    fewer than three words never is a question."""
    text = _LABEL.sub("", question).strip()
    if _ANSWER_LABEL.match(text) or len(text.split()) < 3:
        return FilterMatch("not_a_question", text[:40])
    if "?" in text:
        return None
    sentences = [s for s in _SENTENCE_START.split(text) if s.strip()]
    if any(_asks(s) for s in sentences):
        return None
    return FilterMatch("not_a_question", " ".join(text.split()[:4]))


_PAPER_REFERENCE = re.compile(
    r"\bthe\s+(?:authors?|researchers|investigators|study\s+team|research\s+team"
    r"|(?:first|second|senior|lead|corresponding)\s+author)\b"
    r"|\bthe\s+(?:study|paper|article|manuscript|text|passage)\b(?!\s+of\b)"
    r"|\bthe\s+(?:data|results|findings|figures?|tables?)\s+(?:presented|described|shown|reported|provided|above)\b"
    r"|\b(?:described|presented|mentioned|reported|shown|discussed|outlined)\s+(?:above|earlier|here|below)\b"
    r"|\bthe\s+(?:above|aforementioned)\b"
    r"|\baccording\s+to\s+the\s+(?:findings|results|data|analysis|authors?|study|report)\b"
    # The paper's own figures and tables ("Figure 2", "Fig. 3B", "Table S1").
    r"|\b(?:supplementary\s+)?(?:figure|fig\.|table)\s*S?\d+[a-z]?\b"
    # Verbs that only the paper's own content can be the agent of ("are mentioned", "can be
    # inferred"); "as described by Hanahan" names its source and stays.
    r"|\b(?:mentioned|inferred)\b"
    r"|\b(?:is|are|was|were)\s+(?:\w+ly\s+)?(?:discussed|highlighted|outlined|addressed)\b(?!\s+by\b)",
    re.IGNORECASE,
)
# Words that may stand between a demonstrative and its noun: "this retrospective cohort
# study", "this single-centre descriptive study" (adjectives, not verbs: "these failures
# impact patients" is no demonstrative phrase).
_MODIFIER = (
    r"(?:[\w]+-[\w-]+|\w+(?:ive|al|ic|ed|ar|ous|ent|ant|ory|ing)|single|multicent(?:er|re)|pilot"
    r"|cohort|case|large|small|recent|prospective|retrospective|systematic|randomi[sz]ed|meta)"
)
_STUDY_NOUNS = (
    r"stud(?:y|ies)|paper|article|manuscript|trials?|cohorts?|experiments?|investigations?"
    r"|surveys?|reviews?|meta-analys[ie]s|analys[ie]s|research|findings|results|data(?:set)?"
    r"|samples?|protocol|participants|subjects|respondents|volunteers|work|series"
    r"|interviews|questionnaires?|programmes?|programs?|project"
)
_DEMONSTRATIVE = re.compile(
    rf"\b(?:this|these|the\s+present|the\s+current|our)\s+(?:{_MODIFIER}\s+){{0,2}}?({_STUDY_NOUNS})\b",
    re.IGNORECASE,
)
_CASE_DEMONSTRATIVE = re.compile(
    rf"\b(?:this|these|the\s+present|our)\s+(?:{_MODIFIER}\s+){{0,2}}?(case\s+reports?|case\s+series"
    r"|cases?|patients?|child|infant|woman|man|boy|girl|neonate)\b",
    re.IGNORECASE,
)
_CASE_REFERENCE = re.compile(
    r"\bthe\s+(?:case\s+report|case\s+series)\b"
    r"|\bthe\s+(?:case|cases|patient|patients|child|woman|man)\s+(?:presented|described|reported|discussed|above)\b"
    r"|\bthe\s+(?:described|presented|reported|present)\s+(?:case|cases|patient|patients)\b"
    r"|\b(?:in|from|of)\s+the\s+case\b(?!\s+of\b)"
    r"|\bthe\s+\d+[- ](?:year|month|week|day)[- ]old\b",
    re.IGNORECASE,
)
_STUDY_GROUP = re.compile(
    r"\bthe\s+(?:control|intervention|treatment|experimental|placebo|comparison|exposed"
    r"|unexposed|study)\s+(?:groups?|arms?|cohorts?|population)\b"
    r"|\bthe\s+(?:participants|respondents|subjects|enrolled|enrollees|interviewees)\b"
    r"|\bthe\s+(?:tested|studied|surveyed|enrolled|interviewed|sampled|recruited)\s+\w+"
    r"|\bthe\s+\w+\s+(?:surveyed|studied|investigated|enrolled|recruited|interviewed|sampled)\b",
    re.IGNORECASE,
)
# A study's groups spoken of generically: "the control group in a randomized trial".
_GENERIC_STUDY = re.compile(
    r"\b(?:a|an|any)\s+(?:[\w-]+\s+){0,3}?(?:trials?|stud(?:y|ies)|experiments?|rcts?)\b",
    re.IGNORECASE,
)
_STUDY_FINDING = re.compile(
    r"\b(?:was|were)\s+(?:\w+ly\s+)?(?:observed|noted|found|seen|detected|recorded|documented"
    r"|enrolled|recruited|randomi[sz]ed|allocated)\b"
    r"|\bthe\s+observed\s+\w+"
    r"|\b(?:observed|noted)\s+(?:in|for|among|between|during|after|at)\s+the\b",
    re.IGNORECASE,
)
# A study's own things spoken of as known, without a demonstrative: "the cohort", "the team"
# (whatever the tense), and "the trial", "the sensitivity analysis", "the results", "the
# patients", ... where the question asks what they did or showed (a past auxiliary) or a
# participle says they were the study's ("the tumours examined", "the two hospitals studied").
# Lower-case words only: a named study or framework ("the DAPA-CKD trial", "the Team FIRST
# framework") is a public thing a question may name.
# Modifiers between "the" and its noun: words, not the function words that start another
# phrase ("the prognosis for patients" is no study's patients).
_MODIFIER_WORD = r"(?!(?:of|for|and|or|in|to|with|on|at|by|from)\b)[a-z][a-z-]*"
_OWN_ALWAYS = re.compile(
    r"\b[Tt]he\s+(?:team|questionnaires?|randomi[sz]ation|enrol(?:l)?ment)\b(?!\s+of\b)"
    # A study's own sample or material, whatever its modifiers ("the validation cohort").
    rf"|\b[Tt]he\s+(?:{_MODIFIER_WORD}\s+){{0,2}}?"
    r"(?:cohort|interviews|interviewees|focus\s+groups"
    r"|data\s?set|isolates|households)\b(?!\s+of\b)"
    r"|\b(?:of|among|by)\s+respondents\b"
)
_OWN_NOUNS = (
    r"trials?|surveys?|experiments?|analys[ie]s|models?|samples?|results|findings|follow-up"
    r"|outcomes?|endpoints?|criteria|population|series|programmes?|programs?|interventions?"
    r"|patients|participants|children|mice|rats|cells|tumou?rs|hospitals|centres|centers"
    r"|groups|cases|assays?|measurements|variables|covariates|themes|visits?|curves|scores?"
    r"|biomarkers|protocols|clinicians|nurses|physicians|sites|wards|clinics|specimens"
    r"|biopsies|strains|lines|cardiomyocytes|neurons|xenografts|controls"
)
_OWN_DEFINITE = re.compile(
    rf"\b[Tt]he\s+(?:{_MODIFIER_WORD}\s+){{0,2}}?(?:{_OWN_NOUNS})\b(?!\s+of\b)"
)
# A study the question names ("the DAPA-CKD trial", "the iSUSI registry"): its parts are
# public, and "the secondary endpoints" are that study's.
_NAMED_STUDY = re.compile(
    r"\b[\w-]*[A-Z][\w-]*[A-Z][\w-]*\s+(?:trials?|stud(?:y|ies)|registry|cohort|survey)\b"
)
# One patient or case: the case-report rule's (`--cases`), not this one.
_ONE_CASE = re.compile(r"\b(?:patient|case|child|woman|man|boy|girl|infant)\b(?!s)", re.IGNORECASE)
_PAST = re.compile(r"\b(?:was|were|did|had)\b", re.IGNORECASE)
_OWN_PARTICIPLE = re.compile(
    rf"\b[Tt]he\s+(?:{_MODIFIER_WORD}\s+|\d+\s+){{0,3}}?(?:{_OWN_NOUNS})\s+(?:examined|studied"
    r"|described|included|enrolled|analy[sz]ed|reported|tested|assessed|investigated|sampled"
    r"|surveyed|followed)\b(?!\s+(?:by|with|for|in|to)\b)"
)


def _own_study(question: str) -> re.Match[str] | None:
    """A study's own thing spoken of as known (see `_OWN_ALWAYS`, `_OWN_DEFINITE`)."""
    if _GENERIC_STUDY.search(question) or _NAMED_STUDY.search(question):
        return None  # a study in general ("the control group in a randomized trial"), or named
    if _ONE_CASE.search(question):
        return None
    found = _OWN_ALWAYS.search(question) or _OWN_PARTICIPLE.search(question)
    if found is None and _PAST.search(question):
        found = _OWN_DEFINITE.search(question)
    return found


# Someone introduced by the question itself ("A 45-year-old woman ... this patient").
_INTRODUCED = re.compile(
    r"\b(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:patients?|child|infant|woman|man|boy|girl|neonate|case)\b"
    r"|\b(?:a|an)\s+\d+[- ](?:year|month|week|day)[- ]old\b",
    re.IGNORECASE,
)


def _stem(noun: str) -> str:
    word = noun.lower().split()[-1]
    for ending, replacement in (("ies", "y"), ("ses", "sis"), ("s", "")):
        if word.endswith(ending) and len(word) > 4:
            return word[: -len(ending)] + replacement
    return word


def _unresolved(pattern: re.Pattern[str], question: str) -> re.Match[str] | None:
    """A demonstrative whose noun the question has not named before it ("A trial of X ...
    this trial" is resolved; "in this cohort" alone is not)."""
    for match in pattern.finditer(question):
        if match.group(0).lower().startswith("the current") and match.group(1).endswith("s"):
            continue  # "the current studies": the literature, not the paper
        noun = _stem(match.group(1))
        before = question[: match.start()].lower()
        if not re.search(rf"\b{re.escape(noun)}", before):
            return match
    return None


def ours_context_dependence(question: str, *, cases: bool = False) -> FilterMatch | None:
    """The first of our context rules a question breaks, or None.

    Args:
        question: A generated exam question.
        cases: Also drop references to a case report or its patient (`case_reference`).
    """
    match = _PAPER_REFERENCE.search(question)
    if match:
        return FilterMatch("paper_reference", match.group(0))
    match = _unresolved(_DEMONSTRATIVE, question)
    if match:
        return FilterMatch("demonstrative", match.group(0))
    match = _STUDY_GROUP.search(question)
    if match and not _GENERIC_STUDY.search(question):
        return FilterMatch("study_group", match.group(0))
    match = _STUDY_FINDING.search(question)
    if match:
        return FilterMatch("study_finding", match.group(0))
    match = _own_study(question)
    if match:
        return FilterMatch("own_study", match.group(0))
    if cases and not _INTRODUCED.search(question):
        match = _CASE_REFERENCE.search(question) or _unresolved(_CASE_DEMONSTRATIVE, question)
        if match:
            return FilterMatch("case_reference", match.group(0))
    return None


# --- the paper's three families -------------------------------------------------------------

_PAPER_STUDY_NOUNS = (
    r"stud(?:y|ies)|paper|article|analys[ie]s|research|work|experiments?|trials?|investigations?"
    r"|reports?|reviews?|manuscript|findings|results|data(?:set)?|cohort|samples?|survey"
    r"|authors?|researchers?|investigators?|text|passage|document|model"
)
_PAPER_DEMONSTRATIVE = re.compile(
    rf"\b(?:this|these|that|those|the\s+present|the\s+current|our|the\s+above|the\s+aforementioned)"
    rf"\s+(?:\w+\s+)?(?:{_PAPER_STUDY_NOUNS})\b"
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
    "red bed seed need speed often open even hundred kindred sacred naked wicked rugged".split()
)
_PASSIVE = re.compile(
    rf"\b(?:was|were)\s+(?:(?:not|also|then|first|initially|successfully|significantly|further)\s+)?"
    rf"(\w+(?:ed|en)|{_IRREGULAR_PARTICIPLES})\b",
    re.IGNORECASE,
)


def paper_context_dependence(question: str) -> FilterMatch | None:
    """The first of the paper's three families a question matches, or None."""
    match = _PAPER_DEMONSTRATIVE.search(question)
    if match:
        return FilterMatch("demonstrative_study_noun", match.group(0))
    match = _CONTEXT_VERBS.search(question)
    if match:
        return FilterMatch("context_verb", match.group(0))
    for match in _PASSIVE.finditer(question):
        if match.group(1).lower() not in _NOT_PARTICIPLES:
            return FilterMatch("was_were_participle", match.group(0))
    return None


def context_dependence(
    question: str, protocol: BuildProtocol = "ours", *, cases: bool = False
) -> FilterMatch | None:
    """The first context rule of a protocol a question breaks, or None when it stands alone.

    Args:
        question: A generated exam question.
        protocol: `ours` (precise rules) or `paper` (the paper's three families).
        cases: With `ours`, also drop references to a case report or its patient.
    """
    if protocol == "paper":
        return paper_context_dependence(question)
    return ours_context_dependence(question, cases=cases)


def check_question(
    question: str, protocol: BuildProtocol = "ours", *, cases: bool = False
) -> FilterMatch | None:
    """Every check of a protocol on one question: its form (ours), then its context; None
    when it is kept."""
    if protocol == "ours":
        form = question_form(question)
        if form is not None:
            return form
    return context_dependence(question, protocol, cases=cases)


@dataclass(frozen=True)
class FilterRequest:
    """Apply the DAHL builder's question checks to any question set, naming each drop's rule.

    Keeps the questions that stand on their own; each dropped one is printed and written
    with the rule that dropped it.

    Examples:
        medhalbench dahl filter dahl_built/questions.csv --out kept

    Attributes:
        questions: A CSV or JSONL with a `question` column (e.g. DAHL's questions.csv).
        out: The CSV of kept rows (all columns of the input); the dropped rows, with their
            rule and the words it matched, go beside it as OUT.dropped.csv.
        protocol: 'ours' (the builder's checks) or 'paper' (the paper's three families).
        cases: Also drop references to a case report or its patient (with 'ours').
    """

    questions: Annotated[str, Spelling(positional=True), LocalPath(dir_okay=False, must_exist=True)]
    out: Annotated[str, LocalPath(dir_okay=False)]
    protocol: BuildProtocol = "ours"
    cases: Annotated[bool | None, ByProtocol(False, NotTaken(THEIR_FAMILIES))] = None


@dataclass
class FilterResult:
    """What the checks kept and dropped."""

    total: int = 0
    kept: int = 0
    dropped: list[dict[str, Any]] = field(default_factory=list)
    protocol: BuildProtocol = "ours"
    out: str = ""
    dropped_out: str = ""

    @property
    def by_rule(self) -> Counter[str]:
        """Dropped questions per rule."""
        return Counter(d["rule"] for d in self.dropped)

    def summary(self) -> list[str | ResultTable]:
        """Counts per rule, then every dropped question with its rule."""
        share = f"{len(self.dropped) / self.total:.2%}" if self.total else "–"
        counts = self.by_rule
        table = ResultTable(
            f"DAHL question checks ({self.protocol})",
            "dahl_filter",
            [Column("rule"), Column("dropped", digits=0), Column("what it catches")],
        )
        for rule in RULES[self.protocol]:
            if counts.get(rule) or rule != "case_reference":
                table.add([rule, counts.get(rule, 0), RULE_HELP[rule]])
        lines: list[str | ResultTable] = [
            f"Questions: {self.total}; kept {self.kept} -> {self.out}; dropped "
            f"{len(self.dropped)} ({share}) -> {self.dropped_out}",
            table,
        ]
        lines += [f"{d['rule']}: {d['matched']!r}: {_short(d['question'])}" for d in self.dropped]
        return lines


def _short(text: str, width: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def dropped_path(out: str | Path) -> Path:
    """Where the dropped rows of `out` go: `KEPT.dropped.csv` beside it."""
    path = Path(out)
    return path.with_name(f"{path.stem}.dropped{path.suffix or '.csv'}")


def filter_questions(
    source: str | Path, out: str | Path, protocol: BuildProtocol = "ours", *, cases: bool = False
) -> FilterResult:
    """Check every question of a file; write the kept rows to `out` and the dropped ones
    (with `rule`, `matched`) beside it.

    Raises:
        DataError: The file cannot be read or a row has no question.
    """
    rows = list(read_rows(source))
    result = FilterResult(protocol=protocol, out=str(out), dropped_out=str(dropped_path(out)))
    kept: list[dict[str, Any]] = []
    columns: list[str] = []
    for line, row in rows:
        question = row.get("question")
        if not isinstance(question, str) or not question.strip():
            raise DataError("no question", path=source, line=line, field="question")
        columns += [c for c in row if c not in columns]
        match = check_question(question, protocol, cases=cases)
        if match is None:
            kept.append(row)
        else:
            result.dropped.append({**row, "rule": match.rule, "matched": match.matched})
    result.total, result.kept = len(rows), len(kept)
    _write(Path(out), columns, kept)
    _write(dropped_path(out), [*columns, "rule", "matched"], result.dropped)
    return result


def _write(path: Path, columns: list[str], rows: list[dict[str, Any]]) -> None:
    with atomic_text(path, newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


def run_filter(request: FilterRequest, models: RoleModels) -> FilterResult:
    """`medhalbench dahl filter QUESTIONS --out KEPT.csv`."""
    return filter_questions(
        request.questions, request.out, request.protocol, cases=bool(request.cases)
    )
