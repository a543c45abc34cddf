"""DAHL's question checks: our precise rules, the paper's three families, the question form,
on hand-made questions, on questions written before the rules were tuned, and on the
questions the authors released (their hand filter's decisions)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from medhalbench.dahl.build._filters import (
    RULES,
    check_question,
    context_dependence,
    question_form,
)

DATA = Path(__file__).parent / "data"

OURS_DROPPED = {
    "paper_reference": [
        "Which method did the authors use to measure insulin resistance?",
        "According to the paper, what is the role of IL-6?",
        "How do the researchers define frailty?",
        "Which genes are mentioned as risk factors?",
        "What can be inferred about the role of TNF in sepsis?",
        "Which side effects were addressed for the new drug?",
        "Based on the data presented, what is the incidence of delirium?",
        # Words a paper uses only of itself: "herein", its supplement, its sections, what it
        # shows, the reasons it offers.
        "Herein, which enzymes drive the resistance phenotype?",
        "According to the supplementary material, how many loci reached significance?",
        "Based on the survival curves shown, which regimen delayed progression longer?",
        "What does the Methods section say about blinding of assessors?",
        "What explanation is put forward for the fall in uptake?",
    ],
    "demonstrative": [
        "What did this study find about statin use in the elderly?",
        "What are the main limitations of these findings?",
        "What does the present analysis reveal about smoking?",
        "What was the follow-up duration in this retrospective cohort study?",
        "Which databases were searched for this systematic review?",
        # "our" anything but the common good, "the current" results, "this" with any words
        # before a study noun, and a study's patients or animals with "these".
        "Which covariates entered our final model?",
        "How do the current findings compare with earlier cohorts?",
        "What was the median age in this rural HIV clinic cohort?",
        "How many of these patients needed dialysis within a year?",
    ],
    "study_group": [
        "How was the control group selected?",
        "What dose was given to the intervention group?",
        "How did the participants rate the usability of the app?",
        "What percentage of the nurses surveyed reported burnout?",
        # Arms named by what they got, or counted.
        "What adverse events occurred in the high-dose group?",
        "How did recovery differ between the early and delayed surgery groups?",
        "What did the women in the yoga arm report about sleep?",
        "Compare retention across the three sites.",
    ],
    "study_finding": [
        "What adverse events were observed after the second dose?",
        "Which gene was found to be upregulated in the knockout mice?",
        "How many patients were randomized to each arm?",
        "What was the effect size observed for the primary outcome?",
        "Which serotype was most frequently detected in the swabs?",
        "What odds ratio was reported for current smokers?",
        "A total of 212 infants were screened. How many needed phototherapy?",
        # What happened in the study, told in the past.
        "Which genes were silenced in the macrophages, and with what effect?",
        "Explain why the incidence was higher in the second winter.",
        "Which lifestyle factors were independently associated with remission?",
        "How many participants dropped out before the second visit?",
    ],
    "study_method": [
        "How were the stool samples stored before sequencing?",
        "How was missing questionnaire data imputed, and why?",
        "Explain how the tumour images were segmented.",
    ],
    "own_study": [
        "What proportion of the cohort developed chronic kidney disease?",
        "Why was the trial stopped early?",
        "What did the sensitivity analysis show?",
        "What were the exclusion criteria of the trial?",
        "How did the results differ between the two hospitals studied?",
        "What histological subtype was most frequent among the tumours examined?",
        "What did the team conclude about the pilot programme?",
        # Analyses only a study runs on its own data, and its split of the data.
        "Which predictors stayed in the final multivariable model?",
        "Was the power calculation adequate for the secondary outcome?",
        "How large was the external validation set?",
        # Its people, animals, specimens and settings, in a past question or an instruction.
        "Summarise the behaviour of the transgenic rats in the maze.",
        "What symptoms did the caregivers describe?",
        "Which virulence genes were carried by the Escherichia coli isolates?",
        "What share of the 120 midwives interviewed felt unprepared?",
        "Which of the screened compounds blocked viral entry?",
        # Its own things as the subject of a past verb, its team, what its findings mean.
        "Explain why the programme failed to reach older men.",
        "Describe the recruitment approach used by the field team.",
        "Discuss whether the findings could change practice.",
        "What did the Kaplan-Meier curves suggest about late relapse?",
    ],
}

STANDALONE = [
    "Explain how clinicians study the progression of chronic kidney disease.",
    "What is the mechanism of action of metformin?",
    "Why is study design important in evaluating vaccine efficacy?",
    "What was the historical significance of the discovery of insulin?",
    "Why is the study of rare diseases important for drug development?",
    "What is the role of the control group in a randomized controlled trial?",
    "Define the three zones of a burn as described by Jackson's burn model.",
    "What are the limitations of the current studies on endocan?",
    # Studies in general, named public ones, and patients in general.
    "What role do co-morbidities play in nephrotoxicity in patients treated with cisplatin?",
    "What were the secondary endpoints in the DAPA-CKD trial?",
    "How does the Team FIRST framework relate to TeamSTEPPS?",
    "What is the primary outcome of a non-inferiority trial designed to show?",
    "Why were the results of early hormone replacement trials misinterpreted?",
    # A demonstrative whose antecedent the question names itself.
    "A trial compared two statins. What are the strengths of this trial design?",
    "A 45-year-old man has crushing chest pain. What is the next step for this patient?",
    # Anyone's authors, understanding and studies; patients, nurses and mice in general
    # (present tense, "in a ...", "in knockout studies"); famous studies and past eras.
    "How do the authors of systematic reviews assess risk of bias?",
    "How has imaging improved our understanding of multiple sclerosis?",
    "What do the current studies suggest about vitamin D and falls?",
    "What is the usual treatment for the patients with stage I seminoma?",
    "What roles do the nurses in a stroke unit play?",
    "Why are the mice used in knockout studies usually backcrossed?",
    "How were the volunteers in the Minnesota Starvation Experiment fed?",
    "What did Semmelweis observe in the two Vienna maternity clinics?",
    "What happened to the children given the contaminated vaccine in 1955?",
    "Which factors were associated with scurvy among sailors in the 18th century?",
    "How is the Cox model used to compare survival between groups?",
    "Which nerves supply the skin of the upper arm?",
]

QUESTION_FORMS = {
    "What causes caries": True,  # a question without its mark
    "Analyze the role of IL-6 in cytokine storm.": True,
    "Provide examples of drugs that prolong the QT interval.": True,
    "Critically evaluate the use of the trauma film paradigm.": True,
    "Based on the DSM-5 criteria, list the requirements for a diagnosis of depression.": True,
    "Given the role of CCDC134 in T cells, predict the effect of its deficiency.": True,
    "Q3: Explain how the combined algorithm improves accuracy.": True,
    "Hypertension is common in the elderly. Explain why.": True,
    "A2: The spectral fringe algorithm removes the envelope component.": False,
    "Background": False,
    "Statins lower LDL cholesterol by inhibiting HMG-CoA reductase.": False,
}


@pytest.mark.parametrize(
    ("rule", "question"), [(r, q) for r, qs in OURS_DROPPED.items() for q in qs]
)
def test_our_rules_drop_their_examples(rule: str, question: str) -> None:
    match = check_question(question)
    assert match is not None and match.rule == rule, match


@pytest.mark.parametrize("question", STANDALONE)
def test_self_contained_questions_are_kept(question: str) -> None:
    assert check_question(question, cases=True) is None


@pytest.mark.parametrize(("text", "asks"), QUESTION_FORMS.items())
def test_imperative_prompts_are_questions_and_statements_are_not(text: str, asks: bool) -> None:
    assert (question_form(text) is None) is asks


def test_case_references_are_dropped_only_when_asked() -> None:
    for question in (
        "Based on the case presented, what are the imaging features of renal carcinoma?",
        "What was the outcome of this patient after six months of therapy?",
        "How was the diagnosis of the 45-year-old woman confirmed?",
        "Describe the surgical approach used in the case report.",
    ):
        assert check_question(question) is None, question
        match = check_question(question, cases=True)
        assert match is not None and match.rule == "case_reference", question


PAPER_FAMILIES = {
    "demonstrative_study_noun": [
        "What did this study find about statin use in the elderly?",
        "Which method did the authors use to measure insulin resistance?",
        "According to the paper, what is the role of IL-6?",
    ],
    "context_verb": [
        "Which genes are mentioned as regulators of apoptosis?",
        "What changes in bone density are observed in long-term steroid users?",
        "What are the reported side effects of semaglutide?",
    ],
    "was_were_participle": [
        "Which antibody was used to detect the protein?",
        "Which cell lines were chosen for the assay?",
    ],
}


@pytest.mark.parametrize(
    ("rule", "question"), [(r, q) for r, qs in PAPER_FAMILIES.items() for q in qs]
)
def test_the_paper_families(rule: str, question: str) -> None:
    match = context_dependence(question, "paper")
    assert match is not None and match.rule == rule, match
    assert rule in RULES["paper"]


def test_paper_families_do_not_judge_the_form() -> None:
    # The authors' hand filter, not a rule, decided what counts as a question.
    assert check_question("Statins lower LDL cholesterol.", "paper") is None


def _labelled(which: str) -> list[tuple[str, bool]]:
    with (DATA / "paper_dependence.csv").open() as f:
        return [
            (r["question"], r["needs_paper"] == "yes")
            for r in csv.DictReader(f)
            if r["set"] == which
        ]


def test_questions_written_before_tuning() -> None:
    """The `heldout` questions were written before the rules of 2026-11 and never used to
    tune them until their misses (definite nouns with no marker: "the trial", "the tumours
    examined") were read to write `own_study`; its last miss ("our model") was read with
    `heldout3`'s."""
    rows = _labelled("heldout")
    dependent = [q for q, needs in rows if needs]
    standalone = [q for q, needs in rows if not needs]
    caught = sum(check_question(q) is not None for q in dependent)
    wrongly = [q for q in standalone if check_question(q) is not None]
    assert (len(dependent), len(standalone)) == (50, 30)
    assert caught == 50  # 82% before `own_study`, 98% before "our" + any noun
    assert wrongly == []


@pytest.mark.parametrize(
    ("which", "sizes", "caught"),
    [
        # Written for issue 43 by a hand that had not seen the rules. First run: 43 of 68
        # caught (63%), none of 45 standalone dropped; its misses (the paper's figures and
        # tables, a study's cohort or data set with a modifier, "the scores") were then read
        # to widen `paper_reference` and `own_study`.
        ("heldout2", (68, 45), 65),  # 96% (82% before heldout3's misses were read)
        # Written after those rules by another unseen hand: first run 43 of 68 (63%), none of
        # 47 standalone dropped. Its misses (and heldout2's and dev's) were then read to write
        # rules per class: the paper's own words ("herein", its supplement, "the curves
        # presented"), a study's people, animals, specimens and settings ("the caregivers",
        # "the 300 nursing students surveyed"), its analyses ("the subgroup analysis"), how
        # it handled its data ("How was the sequencing data processed?"). A new set is the
        # measure of these (issue 43 asks for 85% on it).
        ("heldout3", (68, 47), 64),  # 94%
    ],
)
def test_questions_written_by_other_hands(which: str, sizes: tuple[int, int], caught: int) -> None:
    rows = _labelled(which)
    dependent = [q for q, needs in rows if needs]
    standalone = [q for q, needs in rows if not needs]
    assert (len(dependent), len(standalone)) == sizes
    assert sum(check_question(q) is not None for q in dependent) == caught
    assert [q for q in standalone if check_question(q) is not None] == []


def test_released_questions_keep_their_authors_decisions(shared_data: Path) -> None:
    released = shared_data / "dahl" / "questions.csv"
    if not released.is_file():
        pytest.skip(f"{released} is absent")
    with released.open(encoding="utf-8") as f:
        questions = [r["question"] for r in csv.DictReader(f)]
    assert len(questions) == 8573
    ours = [q for q in questions if check_question(q) is not None]
    assert len(ours) == 128 and len(ours) / len(questions) <= 0.015
    # Every drop names what the authors let through that needs the paper.
    assert (
        "How did PARA affect the total blood transfusion cost compared to the control group?"
        in ours
    )
    with_cases = sum(check_question(q, cases=True) is not None for q in questions)
    assert with_cases == 221
    paper = [check_question(q, "paper") for q in questions]
    assert sum(m is not None for m in paper) == 198
