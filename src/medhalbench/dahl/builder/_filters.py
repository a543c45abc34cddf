"""Checks that drop generated questions which are not questions or need their source paper,
by the build protocol: `ours` (precise rules, then a learned stage, `_learned.py`, for what
they let through) or `paper` (the three families the DAHL paper names, which the builder only
flags). What each rule catches and why, and what each protocol drops of the released
questions: the DAHL README's "Which questions are kept". `medhalbench dahl filter` applies
the same checks to any question set."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

import numpy as np

from medhalbench._errors import DataError
from medhalbench.dahl._settings import FilterRequest
from medhalbench.dahl.builder._learned import learned_stage
from medhalbench.data import read_rows, write_csv
from medhalbench.registry import RoleModels
from medhalbench.results import Column, ResultTable
from medhalbench.settings import BuildProtocol

OurRule = Literal[
    "not_a_question",
    "paper_reference",
    "demonstrative",
    "study_group",
    "study_finding",
    "study_method",
    "own_study",
    "case_reference",
    "learned",
]
PaperRule = Literal["demonstrative_study_noun", "context_verb", "was_were_participle"]
RULES: dict[BuildProtocol, tuple[str, ...]] = {
    "ours": get_args(OurRule),
    "paper": get_args(PaperRule),
}
"""Each protocol's rules, in the order they are tried."""

RULE_HELP: dict[str, str] = {
    "not_a_question": "neither a question nor an instruction (a statement, an answer, a heading)",
    "paper_reference": "names the paper, its people or its text (the study, the authors, mentioned, herein, the supplementary data)",
    "demonstrative": "this/these/our + a study noun with no antecedent in the question (this cohort, our model)",
    "study_group": "names a study's groups or participants (the control group, the high-dose arm, the participants)",
    "study_finding": "reports what a study observed or what happened in it (was observed, were independently associated, how many participants dropped out)",
    "study_method": "asks how a study handled its subjects or data, in the past (how were the controls matched)",
    "own_study": "speaks of a study's own cohort, team, analyses, people or results as if known (the cohort, the subgroup analysis, the caregivers, the knockout mice)",
    "case_reference": "points at a case report or its patient (this patient, the case presented)",
    "learned": "what the rules let through, dropped by a logistic regression on the question's sentence embedding (matched: its probability)",
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
    # "the authors of clinical guidelines" are anyone's.
    r"\bthe\s+(?:authors?|researchers|investigators|study\s+team|research\s+team"
    r"|(?:first|second|senior|lead|corresponding)\s+author)\b(?!\s+of\b)"
    r"|\bthe\s+(?:study|paper|article|manuscript|text|passage)\b(?!\s+of\b)"
    # What the paper shows: "the data presented", "the Kaplan-Meier curves shown" (not "the
    # model presented by Engel": a named source is public).
    r"|\bthe\s+(?:[\w-]+\s+){0,2}?(?:data|results|findings|figures?|tables?|curves?|plots?"
    r"|graphs?|charts?|images?|panels?|diagrams?|maps?)\s+(?:presented|described|shown|reported"
    r"|provided|depicted|displayed|illustrated|above)\b(?!\s+by\b)"
    r"|\b(?:described|presented|mentioned|reported|shown|discussed|outlined)\s+(?:above|earlier|here|below)\b"
    # Words only a paper uses of itself: "Herein, ...", "the supplementary data", its sections.
    r"|\bherein\b"
    r"|\b(?:methods?|results|discussion|introduction|abstract|conclusions?|limitations)"
    r"\s+sections?\b"
    r"|\b(?:according\s+to|in)\s+the\s+(?:discussion|abstract|introduction|methods)\b"
    r"|\bsupplementa(?:ry|l)\s+(?:data|materials?|tables?|figures?|files?|information|appendix"
    r"|methods|results|analys[ie]s)\b"
    # The paper's reasoning offered as known: "What explanation is offered for ...?"
    r"|\b(?:explanations?|reasons?|rationale|justifications?)\s+(?:is|are)\s+(?:\w+ly\s+)?"
    r"(?:offered|given|provided|proposed|suggested|put\s+forward)\b"
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
    r"|interviews|questionnaires?|programmes?|programs?|project|(?<!case\s)reports?"
    r"|registry|registries|database|biobank|audit"
    r"|patients|mice|rats|animals|specimens|isolates|strains|cell\s+lines"
)
_DEMONSTRATIVE = re.compile(
    rf"\b(?:this|these|the\s+present|the\s+current|our)\s+(?:{_MODIFIER}\s+){{0,2}}?({_STUDY_NOUNS})\b",
    re.IGNORECASE,
)
# "this" with any words before a study noun ("this HIV clinic cohort"); "this population"
# usually names one the question gave.
_THIS_STUDY = re.compile(
    r"\bthis\s+(?:(?!(?:of|for|and|or|in|to|with|on|at|by|from|is|are|was|were|has|have|can"
    r"|may|will|would|could|should|does|do|did)\b)[\w-]+\s+){0,3}?(study|cohort|trial|survey"
    r"|sample|series|analysis|data\s?set|work|project|programme|program|investigation|experiment"
    r"|review|meta-analysis|(?<!case\s)report|paper|article|manuscript|registry|database|biobank"
    r"|audit)\b",
    re.IGNORECASE,
)
# "our" with anything but the common good ("our understanding of X", "our bodies"): the
# writers' own model, patients, centre.
_OUR = re.compile(
    r"\bour\s+(?!(?:current\s+|present\s+|collective\s+|growing\s+)?(?:understanding|knowledge"
    r"|ability|bod(?:y|ies)|planet|society|world|lives|species|own|bearings)\b)[\w-]+",
    re.IGNORECASE,
)
# "The current studies" are the literature; "the current results" are the paper's.
_LITERATURE = frozenset(
    "studies trials reviews meta-analyses investigations surveys programmes programs cohorts "
    "interviews questionnaires".split()
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
    r"|unexposed|study|(?:high|low|medium|mid|standard|intermediate|double|single)-dose"
    r"|(?:un)?supplemented|(?:un)?vaccinated|sham|vehicle|usual[- ]care|wait-?list|comparator)"
    r"\s+(?:groups?|arms?|cohorts?|population)\b"
    # An arm by the kind of care it got: "the early and late surgery groups", "the exercise arm".
    r"|\bthe\s+(?:test|surgical|medical|conservative|operative|non-?operative|exercise|training"
    r"|education(?:al)?|counsell?ing|screening|standard|usual|early|late|delayed|immediate|deferred"
    r"|high-intensity|low-intensity|passive|enhanced|routine|conventional|digital|remote"
    r"|in-person|supervised|unsupervised|home-based|hospital-based|community-based)\s+"
    r"(?:(?:and|or|versus|vs\.?)\s+[a-z-]+\s+)?(?:[a-z-]+\s+)?(?:groups?|arms?)\b"
    r"(?!\s+(?:of|that|which)\b)"
    # A trial's arm by what it got: "the exercise arm", "the ketamine and placebo arms" (not
    # a limb: "the upper arm", a robot's, or a named trial's: "the SPRINT treatment arm").
    r"|\bthe\s+(?:(?!(?:of|for|and|or|in|to|with|on|at|by|from|upper|lower|left|right|affected"
    r"|contralateral|robotic|mechanical|other|same|short|long)\b)(?!(?-i:[A-Z]{3,})\b)"
    r"[A-Za-z0-9-]+\s+"
    r"(?:(?:and|or|versus|vs\.?)\s+[A-Za-z0-9-]+\s+)?){1,2}?arms?\b(?!\s+of\b)"
    # Counted, they are the study's: "the two transplant groups", "the three sites".
    r"|\bthe\s+(?:two|three|four|five|six|\d+)\s+(?:[\w-]+\s+){0,2}?(?:groups|arms|cohorts|sites"
    r"|waves|rounds|centres|centers)\b(?!\s+of\b)"
    r"|\bthe\s+(?:first|last|initial|remaining)\s+(?:\d+|two|three|four|five|six|ten)\s+(?:cases"
    r"|patients|participants|procedures|operations|subjects|infants|children)\b"
    r"|\bthe\s+(?:participants|respondents|subjects|enrolled|enrollees|interviewees)\b"
    r"|\bthe\s+(?:tested|studied|surveyed|enrolled|interviewed|sampled|recruited)\s+\w+"
    r"|\bthe\s+\w+\s+(?:surveyed|studied|investigated|enrolled|recruited|interviewed|sampled)\b",
    re.IGNORECASE,
)
# A study's groups spoken of generically: "the control group in a randomized trial".
_GENERIC_STUDY = re.compile(
    r"\b(?:a|an|any)\s+(?:[\w-]+\s+){0,3}?(?:trials?|stud(?:y|ies)|experiments?|rcts?)\b"
    # Studies in the plural with no article: "the mice used in gene knockout studies".
    r"|(?<!the\s)\b(?:in|of|from|across|for)\s+(?!(?:the|this|these|those|our|their|its|such"
    r"|vitro|vivo|silico)\b)"
    r"(?:[\w-]+\s+){0,2}?(?:trials|studies|experiments|rcts)\b",
    re.IGNORECASE,
)
_STUDY_FINDING = re.compile(
    r"\b(?:was|were)\s+(?:(?:most|more|less|least|\w+ly)\s+){0,2}(?:observed|noted|found|seen"
    r"|detected|recorded|documented"
    r"|enrolled|recruited|randomi[sz]ed|allocated|identified|achieved|retained|obtained)\b"
    # A number the study reported ("What hazard ratio was reported ...?"); "which side effects
    # were reported" may ask about the literature.
    r"|\b(?:ratios?|rates?|prevalence|incidence|AUC|odds|risks?|means?|medians?|percentages?"
    r"|proportions?|sensitivity|specificity|values?|coefficients?|differences?|reductions?"
    r"|increases?|decreases?|effect\s+sizes?|estimates?|accuracy|levels?|concentrations?|scores?"
    r"|intervals?)\s+(?:was|were)\s+reported\b"
    # The study's sample stated as a fact: "A total of 120 patients underwent ...".
    r"|\ba\s+total\s+of\s+\d"
    r"|\bthe\s+observed\s+\w+"
    r"|\b(?:observed|noted)\s+(?:in|for|among|between|during|after|at)\s+the\b",
    re.IGNORECASE,
)
# What happened in the study, told in the past: a difference ("why the incidence was higher"),
# what was done to its animals or cells ("which genes were knocked down"), an effect that
# changed or a study that stopped ("the effect was attenuated after adjustment"), an
# association it found, a count of its subjects ("how many participants completed ...") or
# its conclusion ("what conclusion is drawn"). Not of a famous study or a past era
# (`_PUBLIC_STUDY`), nor counts of the world ("worldwide").
_STUDY_RESULT = re.compile(
    r"\b(?:was|were)\s+(?:\w+ly\s+)?(?:higher|lower|greater|smaller|increased|decreased|reduced"
    r"|elevated|better|worse)\b"
    r"|\b(?:was|were)\s+(?:\w+ly\s+)?(?:knocked\s+(?:down|out)|silenced|overexpressed|transfected"
    r"|injected|implanted|inoculated|infected|immuni[sz]ed|euthani[sz]ed|sacrificed|fed|housed)\b"
    r"|\b(?:was|were)\s+(?:\w+ly\s+|not\s+)?(?:attenuated|abolished|reversed|diminished|stopped"
    r"|terminated|halted|discontinued|suspended|abandoned)\b"
    # An association it found: "which factors were independently associated with ...".
    r"|\b(?:was|were)\s+(?:(?:not|most|more|less|least|\w+ly)\s+){0,2}(?:associated|correlated"
    r"|linked|predictive|protective|predicted)\b"
    r"|\bhow\s+many\s+(?:participants|patients|respondents|subjects|volunteers|women|men|children"
    r"|infants|mice|rats|animals|samples|isolates)\s+(?!(?:are|is|have|has|do|does|can|should"
    r"|will|would|need|must|may)\b)(?:were|had|did|[a-z]{3,}ed)\b"
    r"|\b(?:conclusions?|recommendations?)\s+(?:is|are)\s+(?:\w+ly\s+)?(?:drawn|made|reached"
    r"|offered|given)\b",
    re.IGNORECASE,
)
_WORLDWIDE = re.compile(r"\b(?:worldwide|globally|in\s+the\s+world|each\s+year|annually)\b", re.I)


def _study_finding(question: str) -> re.Match[str] | None:
    """What a study observed (`_STUDY_FINDING`), or what happened in it (`_STUDY_RESULT`)."""
    found = _STUDY_FINDING.search(question)
    if found is None and not (_PUBLIC_STUDY.search(question) or _WORLDWIDE.search(question)):
        found = _STUDY_RESULT.search(question)
    return found


# How the study handled its subjects, samples or data, asked as a past event ("How were the
# controls matched?", "..., and how were they selected?"): the paper's methods. Verbs of a
# study's conduct only: "How was penicillin discovered?" is history.
_METHOD_WORD = r"(?!(?:of|for|and|or|in|to|with|on|at|by|from|into|during|after|before)\b)[\w-]+"
_STUDY_METHOD = re.compile(
    rf"(?:(?:^|[,;]\s*|\band\s+)how\s+(?:was|were)\s+(?:{_METHOD_WORD}\s+){{0,4}}?"
    # or told ("Explain how the scoring tool was calibrated").
    rf"|\bhow\s+(?:{_METHOD_WORD}\s+){{1,4}}?(?:was|were)\s+(?:\w+ly\s+)?)"
    r"(?:processed|modified|matched|stained|housed|fed|randomi[sz]ed|allocated|assigned|blinded"
    r"|piloted|translated|validated|calibrated|trained|recruited|sampled|selected|chosen|collected"
    r"|handled|imputed|adjusted|cultured|harvested|stored|transported|genotyped|sequenced"
    r"|interviewed|followed|contacted|approached|consented|screened|excluded|anonymi[sz]ed|coded"
    r"|scored|graded|rated|weighted|stratified|segmented|annotated|labell?ed|transcribed|reviewed"
    r"|pooled|aggregated|merged|cleaned|normali[sz]ed|filtered|quantified|analy[sz]ed|resolved"
    r"|settled|adjudicated|reconciled)\b",
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
_MODIFIER_WORD = (
    r"(?!(?:of|for|and|or|in|to|with|on|at|by|from|between|among|about|regarding|within|during"
    r"|after|before|across|into|over|under|than)\b)[a-z][a-z-]*"
)
# A species or method named in title case modifies a study's material too ("the Klebsiella
# pneumoniae isolates", "the Kaplan-Meier curves"); an acronym ("the DAPA-CKD trial") names one.
_NAME_WORD = r"[A-Z][a-z]+(?:-[A-Z][a-z]+)*"
# Where a study's experiments ran: "the in vitro experiments".
_SETTING_WORD = r"(?:in|ex)\s+vi(?:tro|vo)|in\s+silico"
_OWN_ALWAYS = re.compile(
    r"\b[Tt]he\s+(?:team|questionnaires?|randomi[sz]ation|enrol(?:l)?ment)\b(?!\s+of\b)"
    # A study's own sample or material, whatever its modifiers ("the validation cohort").
    rf"|\b[Tt]he\s+(?:(?:{_SETTING_WORD}|{_MODIFIER_WORD}|{_NAME_WORD})\s+){{0,2}}?"
    r"(?:cohort|interviews|interviewees|focus\s+groups|experiments?|trial|survey|audit"
    r"|data\s?set|isolates|households)\b(?!\s+of\b)"
    # Its split of the data: "the external validation set", "the training cohort".
    rf"|\b[Tt]he\s+(?:{_MODIFIER_WORD}\s+)?(?:validation|training|test|testing|derivation"
    r"|development|discovery|replication)\s+(?:sets?|cohorts?|data\s?sets?|samples?)\b"
    r"|\b(?:of|among|by)\s+respondents\b"
    r"|\b(?:each|both|either)\s+(?:study\s+|treatment\s+|trial\s+)?arms?\b"
    # The people who ran it: "the field team", "the data collection team".
    rf"|\b[Tt]he\s+(?:{_MODIFIER_WORD}\s+){{0,2}}?(?:field|survey|project|trial|data\s+collection"
    r"|fieldwork|outreach|evaluation)\s+teams?\b"
    # Its findings as the subject of what they mean: "the findings could inform policy".
    r"|\b[Tt]he\s+(?:[a-z-]+\s+)?(?:findings|results|data)\s+(?:could|might|may|would|can"
    r"|suggest|indicate|imply|support|show|reveal|demonstrate)\b"
)
# A participle before the noun that makes it the study's: "the screened compounds", "the
# matched controls", "the treated and untreated organoids", "the differentially expressed genes".
_OWN_PRENOMINAL = re.compile(
    r"\b[Tt]he\s+(?:measured|screened|examined|analy[sz]ed|collected|evaluated|assessed|matched"
    r"|randomi[sz]ed|(?:un)?treated|differentially\s+expressed|identified|(?:up|down)-?regulated"
    r"|dysregulated|detected|candidate)\s+[a-z]+"
)
# An analysis only a study runs on its own data: "the subgroup analysis", "the final
# multivariable model", "the probabilistic sensitivity analysis" (not "a sensitivity
# analysis", nor "the Cox model" in general).
_OWN_ANALYSIS = re.compile(
    rf"\b[Tt]he\s+(?:{_MODIFIER_WORD}\s+){{0,2}}?(?:subgroup|sensitivity|mediation|multivariable"
    r"|multivariate|univariate|univariable|bivariate|bivariable|adjusted|unadjusted|crude|final"
    r"|interim|exploratory|post[- ]hoc|per-protocol|intention-to-treat|pooled|secondary|primary"
    r"|main|additional|further|cost-effectiveness|probabilistic|qualitative|thematic"
    r"|latent\s+class|cluster|factor|principal\s+component|network|pathway|enrichment|survival"
    r"|dose-response|meta-regression|time-series|propensity(?:-score)?|matched|stratified"
    r"|multilevel|mixed-effects|random\s+forest|machine\s+learning|deep\s+learning|regression"
    r"|logistic)\s+(?:analys[ie]s|models?|regressions?|classifiers?)\b(?!\s+of\b)"
    r"|\b[Tt]he\s+(?:power|sample[- ]size)\s+calculations?\b"
)
_OWN_NOUNS = (
    r"trials?|surveys?|experiments?|analys[ie]s|models?|samples?|results|findings|follow-up"
    r"|outcomes?|endpoints?|criteria|population|series|programmes?|programs?|interventions?"
    r"|patients|participants|children|mice|rats|cells|tumou?rs|hospitals|centres|centers"
    r"|groups|cases|assays?|measurements|variables|covariates|themes|visits?|curves|scores?"
    r"|biomarkers|protocols|clinicians|nurses|physicians|sites|wards|clinics|specimens"
    r"|biopsies|strains|lines|cardiomyocytes|neurons|xenografts|controls|data|regressions?"
)
_OWN_DEFINITE = re.compile(
    rf"\b[Tt]he\s+(?:(?:{_MODIFIER_WORD}|{_NAME_WORD})\s+){{0,2}}?(?:{_OWN_NOUNS})\b(?!\s+of\b)"
    # Whose they are, named: "the interventions employed by Canada" are public.
    r"(?!\s+(?:\([^)]*\)\s+)?\w+ed\s+by\s+[A-Z])"
)
# A study's people, animals, specimens and settings, with the article that makes them its
# own ("the caregivers", "the knockout mice", "the 300 nursing students", "the patient-derived
# samples"); questions about people in general say "older adults", "in mice".
_SUBJECTS = (
    r"patients|participants|subjects|respondents|volunteers|students|nurses|physicians"
    r"|clinicians|doctors|radiologists|surgeons|pharmacists|dentists|midwives|caregivers|carers"
    r"|parents|mothers|fathers|women|men|children|infants|neonates|newborns|adolescents|adults"
    r"|workers|employees|residents|farmers|veterans|athletes|smokers|users|donors|recipients"
    r"|survivors|responders|non-?responders|completers|non-?completers|drop-?outs|decedents"
    r"|households|teachers|inmates|prisoners|refugees|migrants"
    r"|staff|trainees|raters|readers|observers|experts|stakeholders|informants|interviewees"
    r"|couples|twins|siblings|girls|boys|schoolchildren|pathologists|cardiologists|oncologists"
    r"|anaesthetists|anesthetists|anesthesiologists|psychiatrists|psychologists|therapists"
    r"|physiotherapists|paediatricians|pediatricians|obstetricians|gynaecologists|gynecologists"
    r"|dermatologists|neurologists|ophthalmologists|endoscopists|urologists|sonographers"
    r"|technicians|technologists|scientists|assessors|collectors|coders|annotators|counsell?ors"
    r"|interviewers|fieldworkers|enumerators|mentors|supervisors|managers|administrators"
    r"|practitioners|paramedics|hygienists|dietitians|nutritionists|veterinarians|vets|auditors"
    r"|graders|reviewers|examiners|operators|interns|fellows|learners|pupils"
    r"|mice|rats|piglets|pigs|sows|horses|dogs|cats|sheep|cattle|cows|goats|rabbits|zebrafish"
    r"|animals|birds|chickens|broilers|hens|calves|monkeys|primates|herds|flocks|farms"
    r"|samples|specimens|isolates|cell\s+lines|organoids|tissues|biopsies|sera|tumou?rs"
    r"|xenografts|cultures|scans|slides"
    r"|clinics|hospitals|schools|sites|centres|centers|wards|pharmacies|facilities|villages"
    r"|districts"
)
# Its modifiers: words, not function words, plurals ("the key aspects clinicians ...") or the
# words of a general statement ("the main cells", "the healthy ...": typical of anyone).
_SUBJECT_MODIFIER = (
    r"(?!(?:of|for|and|or|in|to|with|on|at|by|from|the|a|an|among|between|about|regarding"
    r"|within|during|after|before|across|into|over|under|than|that|which|who|why|how|what"
    r"|when|where|is|are|was|were|be|been|have|has|had|do|does|did|not|can|could|may|might"
    r"|will|would|should|their|its|these|those|this|such|main|primary|key|major|common"
    r"|commonly|typical|typically|principal|most|different|various|specific|other|certain"
    r"|many|some|all|both|each|affected|human|normal)\b)(?![\w-]*[^s]s\b)[\w-]+"
)
_OWN_SUBJECTS = re.compile(
    rf"\b[Tt]he\s+(?:{_SUBJECT_MODIFIER}\s+(?:and|or|versus|vs\.?)\s+)?"
    rf"(?:{_SUBJECT_MODIFIER}\s+){{0,2}}?"
    rf"({_SUBJECTS})\b(?!\s+of\b)"
)
# A study the question names ("the DAPA-CKD trial", "the iSUSI registry"): its parts are
# public, and "the secondary endpoints" are that study's.
_NAMED_STUDY = re.compile(
    r"\b[\w-]*[A-Z][\w-]*[A-Z][\w-]*\s+(?:trials?|stud(?:y|ies)|registry|cohort|survey)\b"
)
# A famous study or event, whose people are public too: a name in title case inside the
# sentence ("the Minnesota Starvation Experiment", "the Nurses' Health Study"), a person's
# ("Milgram's obedience experiments", "What did Semmelweis observe"), a year before the 1990s
# or a war ("the children who received the Cutter vaccine in 1955").
_PUBLIC_STUDY = re.compile(
    r"(?<=[a-z,;:]\s)(?:[A-Z][a-z][\w'’-]*\s+){1,3}(?:[Tt]rials?|[Ss]tud(?:y|ies)|[Ee]xperiments?"
    r"|[Rr]egistry|[Cc]ohort|[Ss]urvey|[Ii]nitiative|[Pp]roject)\b"
    r"|\b[A-Z][a-z]+['’]s?\s+(?:[\w-]+\s+){0,2}?(?:trials?|stud(?:y|ies)|experiments?|cases)\b"
    r"|\b(?:did|had)\s+[A-Z][a-z]+\s+[a-z]+"
    r"|\b1[0-9][0-8][0-9]s?\b|\bWorld\s+War\b|\b1\d(?:th|st)\s+century\b"
)
# A question in the present tense asks what is generally true; one in the past, what happened.
_PRESENT = re.compile(r"\b(?:is|are|do|does|should|can|must|may|might)\b", re.IGNORECASE)
_PAST_ANY = re.compile(r"\b(?:was|were|did|had|[a-z]{3,}ed)\b", re.IGNORECASE)
# People in general: "the nurses in a rapid response team".
_IN_GENERAL = re.compile(r"\s+(?:in|of|on|at|from|within)\s+(?:a|an|any)\b")
# One patient or case: the case-report rule's (`--cases`), not this one ("patient-derived" is
# no patient).
_ONE_CASE = re.compile(
    r"\b(?:patient|case|child|woman|man|boy|girl|infant)\b(?![-s])", re.IGNORECASE
)
_PAST = re.compile(r"\b(?:was|were|did|had)\b", re.IGNORECASE)
_OWN_PARTICIPLE = re.compile(
    rf"\b[Tt]he\s+(?:{_MODIFIER_WORD}\s+|\d+\s+){{0,3}}?(?:{_OWN_NOUNS})\s+(?:examined|studied"
    r"|described|included|enrolled|analy[sz]ed|reported|tested|assessed|investigated|sampled"
    r"|surveyed|followed)\b(?!\s+(?:by|with|for|in|to)\b)"
    # Any plural the study chose and examined: "the 300 nursing students surveyed", "the
    # fluoridated and non-fluoridated schools examined", "the Klebsiella isolates collected".
    rf"|\b[Tt]he\s+(?:(?:{_MODIFIER_WORD}|{_NAME_WORD}|\d[\d,]*|and)\s+){{0,4}}?[a-z]+s\s+"
    r"(?:examined|studied|surveyed|enrolled|recruited|interviewed|sampled|screened|collected"
    r"|analy[sz]ed|followed|investigated|tested|assessed|observed|compared)\b"
    r"(?!\s+(?:by|with|for|to|as)\b)"
)


# A study's own thing as the subject of a past verb: "the intervention failed to ...", "the
# candidate biomarkers retained ..." (not a participle: "the patients treated with X", nor a
# passive: "How is the Apgar score calculated?").
_OWN_ACTED = re.compile(
    rf"\b[Tt]he\s+(?:(?:{_MODIFIER_WORD}|{_NAME_WORD})\s+){{0,2}}?(?:{_OWN_NOUNS}|{_SUBJECTS})\s+"
    r"(?!(?:based|related|associated|used|called|known|termed|named|linked|mediated|induced"
    r"|derived|focused|need|exposed|infected|affected|involved|required|needed|included|treated"
    r"|diagnosed)\b)[a-z]{3,}ed\b(?!\s+(?:by|with|in|as|at|on|from|for|under|using|during|after"
    r"|before|within|between|among|into|over|through|via)\b)"
)
_PASSIVE_BEFORE = re.compile(r"\b(?:is|are|was|were|be|been|being|has|have|had)\s+$", re.IGNORECASE)


def _own_acted(question: str) -> re.Match[str] | None:
    """A study's own thing that did something (see `_OWN_ACTED`)."""
    for match in _OWN_ACTED.finditer(question):
        if not _PASSIVE_BEFORE.search(question[: match.start()]):
            return match
    return None


def _own_subject(question: str) -> re.Match[str] | None:
    """A study's people, animals or specimens with "the", in a question about what happened
    (past) or an instruction, unless the question named them first ("in broilers ... the
    broilers"); "What is the treatment for the patients with X?" asks about anyone."""
    if _PRESENT.search(question) and not _PAST_ANY.search(question):
        return None
    for match in _OWN_SUBJECTS.finditer(question):
        noun = match.group(1)
        if _IN_GENERAL.match(question, match.end()):
            continue
        if not re.search(rf"\b{noun}\b", question[: match.start()], re.IGNORECASE):
            return match
    return None


def _own_study(question: str) -> re.Match[str] | None:
    """A study's own thing spoken of as known (see `_OWN_ALWAYS`, `_OWN_DEFINITE`)."""
    if _GENERIC_STUDY.search(question) or _NAMED_STUDY.search(question):
        return None  # a study in general ("the control group in a randomized trial"), or named
    if _ONE_CASE.search(question) or _PUBLIC_STUDY.search(question):
        return None
    found = (
        _OWN_ALWAYS.search(question)
        or _OWN_PRENOMINAL.search(question)
        or _OWN_ANALYSIS.search(question)
        or _OWN_PARTICIPLE.search(question)
        or _own_subject(question)
        or _own_acted(question)
    )
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
        if match.group(0).lower().startswith("the current") and (
            match.group(1).lower() in _LITERATURE
        ):
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
    match = (
        _unresolved(_DEMONSTRATIVE, question)
        or _unresolved(_THIS_STUDY, question)
        or _OUR.search(question)
    )
    if match:
        return FilterMatch("demonstrative", match.group(0))
    match = _STUDY_GROUP.search(question)
    if match and not (_GENERIC_STUDY.search(question) or _PUBLIC_STUDY.search(question)):
        return FilterMatch("study_group", match.group(0))
    match = _study_finding(question)
    if match:
        return FilterMatch("study_finding", match.group(0))
    match = _STUDY_METHOD.search(question)
    if match:
        return FilterMatch("study_method", match.group(0).lstrip(",; "))
    match = _own_study(question)
    if match:
        return FilterMatch("own_study", match.group(0))
    if cases:
        match = _case_reference(question)
        if match:
            return FilterMatch("case_reference", match.group(0))
    return None


def _case_reference(question: str) -> re.Match[str] | None:
    """A reference to a case report or its patient that the question has not introduced
    itself ("A 45-year-old man ... this patient" has)."""
    if _INTRODUCED.search(question):
        return None
    return _CASE_REFERENCE.search(question) or _unresolved(_CASE_DEMONSTRATIVE, question)


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


# The literature, not a paper's own studies: "early hormone replacement trials", "previous
# studies", "randomised trials" with no article of its own.
_LITERATURE_STUDIES = re.compile(
    r"(?<!\bthe\s)(?<!\bthese\s)(?<!\bour\s)\b(?:early|earlier|previous|prior|past|existing"
    r"|published|recent|other|many|most|some|several|large|small|randomi[sz]ed|observational"
    r"|preclinical|clinical|animal|epidemiological|first)\s+(?:[\w-]+\s+){0,3}?(?:trials|studies"
    r"|experiments|cohorts|meta-analyses|reports|research|evidence|literature)\b",
    re.IGNORECASE,
)


def _named_or_general_study(question: str) -> bool:
    """Whether a question speaks of a study that is not its paper's: one in general ("a
    trial"), a named or famous one, a past era, the literature, or someone it introduces
    itself (the rules' guards)."""
    return any(
        pattern.search(question)
        for pattern in (
            _GENERIC_STUDY,
            _NAMED_STUDY,
            _PUBLIC_STUDY,
            _INTRODUCED,
            _LITERATURE_STUDIES,
        )
    )


# What is typical of the world, not what a study found: "What are the typical complications
# of ...?", "How is it usually measured?".
_TYPICAL = re.compile(
    r"\b(?:typical(?:ly)?|usual(?:ly)?|common(?:ly)?|generally|in\s+general|often"
    r"|most\s+frequent)\b",
    re.IGNORECASE,
)


def _asks_what_is_typical(question: str) -> bool:
    """Whether a question asks what is typical, usual or common (`_TYPICAL`)."""
    return _TYPICAL.search(question) is not None


LEARNED_FLAGS = {
    "named_or_general_study": _named_or_general_study,
    "asks_what_is_typical": _asks_what_is_typical,
}
"""The binary features the learned stage reads after the embedding, in order."""


def learned_flags(questions: Sequence[str]) -> np.ndarray:
    """The learned stage's flags of each question (one row each, `LEARNED_FLAGS`' order)."""
    return np.array(
        [[float(flag(q)) for flag in LEARNED_FLAGS.values()] for q in questions],
        dtype=np.float64,
    ).reshape(len(questions), len(LEARNED_FLAGS))


def _rules(question: str, protocol: BuildProtocol, cases: bool) -> FilterMatch | None:
    if protocol == "ours":
        form = question_form(question)
        if form is not None:
            return form
    return context_dependence(question, protocol, cases=cases)


def check_questions(
    questions: Sequence[str],
    protocol: BuildProtocol = "ours",
    *,
    cases: bool = False,
    learned: bool = True,
) -> list[FilterMatch | None]:
    """Every check of a protocol on each question, one answer per question (None: kept): its
    form (ours), its context, then (ours, unless `learned` is False) the learned stage on what
    the rules let through, embedded in batches.

    Args:
        questions: Generated exam questions.
        protocol: `ours` or `paper` (the paper's three families; no learned stage).
        cases: With `ours`, also drop references to a case report or its patient; without it,
            the learned stage leaves them too.
        learned: With `ours`, apply the learned stage (its model loads on first use).

    Raises:
        ResourceUnavailableError: The learned stage's embedding model cannot be loaded, or is
            not the one its weights were fit on.
    """
    found = [_rules(q, protocol, cases) for q in questions]
    if protocol != "ours" or not learned:
        return found
    pending = [
        i for i, m in enumerate(found) if m is None and _case_reference(questions[i]) is None
    ]
    if pending:
        stage = learned_stage(tuple(LEARNED_FLAGS))
        asked = [questions[i] for i in pending]
        chances = stage.probabilities(asked, learned_flags(asked))
        for i, chance in zip(pending, chances, strict=True):
            if chance >= stage.threshold:
                found[i] = FilterMatch("learned", f"p={chance:.2f}")
    return found


def check_question(
    question: str, protocol: BuildProtocol = "ours", *, cases: bool = False, learned: bool = True
) -> FilterMatch | None:
    """Every check of a protocol on one question (see `check_questions`, which embeds many at
    once); None when it is kept."""
    return check_questions([question], protocol, cases=cases, learned=learned)[0]


@dataclass
class FilterResult:
    """What the checks kept and dropped (`ours`), or kept and flagged for a hand review
    (`paper`: every question is kept, as the authors' hand review had the last word)."""

    total: int = 0
    kept: int = 0
    dropped: list[dict[str, Any]] = field(default_factory=list)
    protocol: BuildProtocol = "ours"
    out: str = ""
    dropped_out: str = ""
    learned: bool = False

    @property
    def by_rule(self) -> Counter[str]:
        """Dropped questions per rule."""
        return Counter(d["rule"] for d in self.dropped)

    def summary(self) -> list[str | ResultTable]:
        """Counts per rule, then every dropped question with its rule."""
        share = f"{len(self.dropped) / self.total:.2%}" if self.total else "–"
        counts = self.by_rule
        verb = "flagged" if self.protocol == "paper" else "dropped"
        table = ResultTable(
            f"DAHL question checks ({self.protocol})",
            "dahl_filter",
            [Column("rule"), Column(verb, digits=0), Column("what it catches")],
        )
        for rule in RULES[self.protocol]:
            shown = {"case_reference": False, "learned": self.learned}.get(rule, True)
            if counts.get(rule) or shown:
                table.add([rule, counts.get(rule, 0), RULE_HELP[rule]])
        lines: list[str | ResultTable] = [
            f"Questions: {self.total}; kept {self.kept} -> {self.out}; {verb} "
            f"{len(self.dropped)} ({share}) -> {self.dropped_out}",
            table,
        ]
        if self.protocol == "paper":
            lines.append(
                "Every question is kept, as the authors' hand review had the last word on what "
                "their three rule families flag: review the flagged ones."
            )
        lines += [f"{d['rule']}: {d['matched']!r}: {_short(d['question'])}" for d in self.dropped]
        return lines


def _short(text: str, width: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def dropped_path(out: str | Path, protocol: BuildProtocol = "ours") -> Path:
    """Where the dropped rows of `out` go (`KEPT.dropped.csv` beside it), or under `paper`
    the flagged ones (`KEPT.review.csv`)."""
    path = Path(out)
    kind = "review" if protocol == "paper" else "dropped"
    return path.with_name(f"{path.stem}.{kind}{path.suffix or '.csv'}")


def filter_questions(request: FilterRequest) -> FilterResult:
    """Check every question of `request.questions` (`check_questions`, in one batch); write
    the kept rows to `request.out` and the dropped ones (with `rule`, `matched`) beside it;
    under `paper`, every row to `request.out` and the flagged ones beside it for review.

    Args:
        request: The check (`medhalbench dahl filter`'s options).

    Raises:
        DataError: The file cannot be read or a row has no question.
        ResourceUnavailableError: The learned stage cannot be loaded (`learned`).
    """
    source, out, protocol = request.questions, request.out, request.protocol
    # Under `paper` both are left unset (not taken): no case rule, no learned stage.
    cases, learned = bool(request.cases), bool(request.learned)
    rows = list(read_rows(source))
    result = FilterResult(
        protocol=protocol, out=out, dropped_out=str(dropped_path(out, protocol)), learned=learned
    )
    kept: list[dict[str, Any]] = []
    columns: list[str] = []
    questions: list[str] = []
    for line, row in rows:
        question = row.get("question")
        if not isinstance(question, str) or not question.strip():
            raise DataError("no question", path=source, line=line, field="question")
        columns += [c for c in row if c not in columns]
        questions.append(question)
    matches = check_questions(questions, protocol, cases=cases, learned=learned)
    for (_, row), match in zip(rows, matches, strict=True):
        if match is None or protocol == "paper":
            kept.append(row)
        if match is not None:
            result.dropped.append({**row, "rule": match.rule, "matched": match.matched})
    result.total, result.kept = len(rows), len(kept)
    write_csv(out, columns, kept)
    write_csv(result.dropped_out, [*columns, "rule", "matched"], result.dropped)
    return result


def run_filter(request: FilterRequest, models: RoleModels) -> FilterResult:
    """`medhalbench dahl filter QUESTIONS --out KEPT.csv`."""
    return filter_questions(request)
