"""DAHL's question checks: our precise rules, the learned stage after them, the paper's three
families, the question form, on hand-made questions, on questions written before the rules
were tuned, and on the questions the authors released (their hand filter's decisions)."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from medhalbench._errors import ResourceUnavailableError
from medhalbench.dahl.builder import _learned
from medhalbench.dahl.builder._filters import (
    LEARNED_FLAGS,
    RULE_HELP,
    RULES,
    check_question,
    check_questions,
    context_dependence,
    question_form,
)
from medhalbench.dahl.builder._learned import LearnedStage, LearnedWeights, read_weights
from medhalbench.embeddings import Embedder

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


def test_the_literature_is_no_study_of_the_paper_for_the_rules() -> None:
    """The rules keep a question about trials in general; the learned stage drops this one
    (p 0.75, at its threshold): one of the standalone questions it costs, which the DAHL
    README counts on unseen sets."""
    question = "Why were the results of early hormone replacement trials misinterpreted?"
    assert check_question(question, learned=False) is None


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


def _dropped(questions: list[str], *, learned: bool) -> list[bool]:
    return [m is not None for m in check_questions(questions, learned=learned)]


def test_questions_written_before_tuning() -> None:
    """The `heldout` questions were written before the rules of 2026-11 and never used to
    tune them until their misses (definite nouns with no marker: "the trial", "the tumours
    examined") were read to write `own_study`; its last miss ("our model") was read with
    `heldout3`'s. The learned stage was fit on them too: its unseen figures are the
    leave-one-set-out ones (`test_the_shipped_weights_record_their_unseen_figures`)."""
    rows = _labelled("heldout")
    dependent = [q for q, needs in rows if needs]
    standalone = [q for q, needs in rows if not needs]
    assert (len(dependent), len(standalone)) == (50, 30)
    assert sum(_dropped(dependent, learned=False)) == 50  # 82% before `own_study`
    assert not any(_dropped(standalone, learned=False))
    assert sum(_dropped(dependent, learned=True)) == 50
    assert not any(_dropped(standalone, learned=True))


@pytest.mark.parametrize(
    ("which", "sizes", "caught", "with_learned"),
    [
        # Written for issue 43 by a hand that had not seen the rules. First run: 43 of 68
        # caught (63%), none of 45 standalone dropped; its misses (the paper's figures and
        # tables, a study's cohort or data set with a modifier, "the scores") were then read
        # to widen `paper_reference` and `own_study`.
        ("heldout2", (68, 45), 65, 68),  # 96% (82% before heldout3's misses were read)
        # Written after those rules by another unseen hand: first run 43 of 68 (63%), none of
        # 47 standalone dropped. Its misses (and heldout2's and dev's) were then read to write
        # rules per class: the paper's own words ("herein", its supplement, "the curves
        # presented"), a study's people, animals, specimens and settings ("the caregivers",
        # "the 300 nursing students surveyed"), its analyses ("the subgroup analysis"), how
        # it handled its data ("How was the sequencing data processed?"). A new set is the
        # measure of these (issue 43 asks for 85% on it).
        # With the learned stage (fit on it): all but "the phase I study of the novel PI3K
        # inhibitor" (a study named by its design reads as studies in general).
        ("heldout3", (68, 47), 64, 67),  # 94%
    ],
)
def test_questions_written_by_other_hands(
    which: str, sizes: tuple[int, int], caught: int, with_learned: int
) -> None:
    """The rules alone, and with the learned stage (fit on these sets too: its unseen figures
    are `test_the_shipped_weights_record_their_unseen_figures`)."""
    rows = _labelled(which)
    dependent = [q for q, needs in rows if needs]
    standalone = [q for q, needs in rows if not needs]
    assert (len(dependent), len(standalone)) == sizes
    assert sum(_dropped(dependent, learned=False)) == caught
    assert not any(_dropped(standalone, learned=False))
    assert sum(_dropped(dependent, learned=True)) == with_learned
    assert not any(_dropped(standalone, learned=True))


@pytest.mark.slow
def test_released_questions_keep_their_authors_decisions(shared_data: Path) -> None:
    """What each check drops of the released questions (the authors kept them all; a share
    needs the paper all the same): the rules on all 8,573; the learned stage, which embeds
    each question (about a minute for all on two cores), on every eighth (the README's
    figure for all, 290, is `medhalbench dahl filter`'s on the whole file)."""
    released = shared_data / "dahl" / "questions.csv"
    if not released.is_file():
        pytest.skip(f"{released} is absent")
    with released.open(encoding="utf-8") as f:
        questions = [r["question"] for r in csv.DictReader(f)]
    assert len(questions) == 8573
    rules = check_questions(questions, learned=False)
    ours = [q for q, m in zip(questions, rules, strict=True) if m is not None]
    assert len(ours) == 128 and len(ours) / len(questions) <= 0.015
    # Every drop names what the authors let through that needs the paper.
    assert (
        "How did PARA affect the total blood transfusion cost compared to the control group?"
        in ours
    )
    # The paper's families flag 198 for a hand review (`dahl filter --protocol paper` keeps
    # every question, as the authors' review had the last word).
    paper = check_questions(questions, "paper")
    assert sum(m is not None for m in paper) == 198
    # With --cases the learned stage sees the same questions (it leaves case reports to that
    # rule), so one pass gives both.
    sample = questions[2::8]
    full = check_questions(sample, cases=True)
    by_rule = Counter(m.rule for m in full if m is not None)
    assert len(sample) == 1072 and by_rule["case_reference"] == 9
    assert by_rule["learned"] == 38  # 3.5% of the sample (290 of all, 3.4%)
    learned = [q for q, m in zip(sample, full, strict=True) if m and m.rule == "learned"]
    # Read among them: a study's own measurements, told as known.
    assert (
        "What were the mean buccal and palatal bone thickness measurements at T0 and T1, "
        "and were the changes statistically significant?" in learned
    )


# --- the learned stage ------------------------------------------------------------------------

# Written for these tests (in no training file): a study's own things with no marker the rules
# know, and standalone questions on the same ground.
FRESH_DEPENDENT = [
    "Describe the referral pathway from the first screening visit to specialist review.",
    "How did plasma lactate change in the ponies over the first six hours of anaesthesia?",
    "How long did the wound dressings stay in place on average before they had to be changed?",
    "What was the agreement between the handheld ultrasound device and the cart-based scanner?",
    "How did the median time to first antibiotic change after the sepsis pathway was launched?",
    "What did the time-motion observations show about nurses' time spent on documentation?",
    "What were the costs of running the mobile clinic per consultation?",
    "How did the knockdown efficiency differ between the two siRNA sequences designed?",
]
FRESH_STANDALONE = [
    "What did the PARADIGM-HF trial show about sacubitril-valsartan?",
    "What is the typical patient flow through an emergency department triage system?",
    "Why are inclusion and exclusion criteria needed in clinical trials?",
    "How do community health worker programmes improve maternal health in rural areas?",
    "What were the health effects of the Great Smog of London in 1952?",
    "How is the turnaround time of laboratory tests usually measured?",
    "How does ultraviolet light disinfect hospital surfaces?",
    "A 58-year-old man has sudden tearing chest pain. What imaging should be done first?",
]


def test_the_learned_stage_catches_what_the_rules_miss() -> None:
    assert check_questions(FRESH_DEPENDENT, learned=False) == [None] * len(FRESH_DEPENDENT)
    threshold = read_weights().threshold
    for question, match in zip(FRESH_DEPENDENT, check_questions(FRESH_DEPENDENT), strict=True):
        assert match is not None and match.rule == "learned", question
        assert match.matched.startswith("p=") and float(match.matched[2:]) >= threshold
    assert "learned" in RULES["ours"] and "learned" not in RULES["paper"]
    assert "learned" in RULE_HELP


def test_the_learned_stage_keeps_standalone_questions() -> None:
    assert check_questions(FRESH_STANDALONE, cases=True) == [None] * len(FRESH_STANDALONE)


def test_many_at_once_is_one_at_a_time() -> None:
    questions = (
        FRESH_DEPENDENT
        + FRESH_STANDALONE
        + STANDALONE
        + [q for qs in OURS_DROPPED.values() for q in qs]
        + list(QUESTION_FORMS)
        + ["What was the outcome of this patient after six months of therapy?"]
    )
    for cases in (False, True):
        one_by_one = [check_question(q, cases=cases) for q in questions]
        assert check_questions(questions, cases=cases) == one_by_one
    assert check_questions(questions, "paper") == [check_question(q, "paper") for q in questions]
    assert check_questions([]) == []


def test_the_shipped_weights_are_their_embedders() -> None:
    weights = read_weights()
    assert weights.embedder == "all-MiniLM-L6-v2"
    assert weights.flags == tuple(LEARNED_FLAGS)
    assert weights.coef.shape == (Embedder().dimensions + len(LEARNED_FLAGS),)
    assert Embedder(weights.embedder).fingerprint == weights.fingerprint


def test_weights_of_another_embedder_are_refused(tmp_path: Path) -> None:
    weights = read_weights()

    class Other:
        fingerprint = "0123456789abcdef"

    with pytest.raises(ResourceUnavailableError) as error:
        LearnedStage(weights, embedder=Other())
    message = str(error.value)
    assert weights.fingerprint in message and "0123456789abcdef" in message
    assert "dahl_filter_train.py" in message and "--no-learned" in message
    assert "\n" not in message
    # Weights fit with other flags, or no weights at all, are refused as plainly.
    with pytest.raises(ResourceUnavailableError, match="flags"):
        _learned.learned_stage(("another_flag",))
    with pytest.raises(ResourceUnavailableError, match="cannot be read"):
        read_weights(tmp_path / "absent.jsonl")


def test_weights_written_are_read_back(tmp_path: Path) -> None:
    weights = LearnedWeights(
        embedder="x", fingerprint="f", flags=("a",), threshold=0.5,
        coef=np.array([1.0, -2.0, 0.5]), intercept=-0.25, about={"C": 1},
    )  # fmt: skip
    path = tmp_path / "w.jsonl"
    weights.write(path)
    back = read_weights(path)
    assert (back.embedder, back.fingerprint, back.flags, back.threshold) == ("x", "f", ("a",), 0.5)
    assert back.about == {"C": 1} and back.intercept == -0.25
    chances = back.probabilities(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[0.0], [1.0]]))
    assert np.allclose(chances, 1 / (1 + np.exp(-np.array([0.75, -1.75]))))


def test_the_shipped_weights_record_their_unseen_figures() -> None:
    """`bench/dahl_filter_train.py` records each labelled set's figures with the stage fit
    without it: at most 5% of its standalone questions dropped, and for the two sets whose
    first-run rules are in git history, at least 85% caught by those rules with the stage (the
    goal on a new set)."""
    about = read_weights().about
    sets = about["left_out_sets"]
    assert set(sets) == {"dev", "heldout", "heldout2", "heldout3"}
    for figures in sets.values():
        assert figures["both_dropped"] <= 0.05 * figures["standalone"]
    for which in ("heldout2", "heldout3"):
        figures = sets[which]
        assert figures["first_run_rules_caught"] == 43
        assert figures["first_run_both_caught"] >= 0.85 * figures["paper_dependent"]
