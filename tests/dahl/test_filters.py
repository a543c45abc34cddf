import pytest

from medhalbench.dahl._filters import context_dependence

DROPPED = {
    "demonstrative_study_noun": [
        "What did this study find about statin use in the elderly?",
        "Which method did the authors use to measure insulin resistance?",
        "What are the main limitations of these findings?",
        "According to the paper, what is the role of IL-6?",
        "What does the present analysis reveal about smoking?",
        "How do the researchers define frailty?",
    ],
    "context_verb": [
        "Which genes are mentioned as regulators of apoptosis?",
        "What can be inferred about the role of TNF in sepsis?",
        "Which side effects were addressed for the new drug?",
        "What changes in bone density are observed in long-term steroid users?",
        "What mechanism is suggested for the neuroprotective effect?",
        "Which pathway is described as central to fibrosis?",
    ],
    "was_were_participle": [
        "Which antibody was used to detect the protein?",
        "How many patients were identified with the mutation?",
        "What dose was given to the control group?",
        "Which cell lines were chosen for the assay?",
    ],
}

KEPT = [
    "Explain how clinicians study the progression of chronic kidney disease.",
    "What is the mechanism of action of metformin?",
    "How do beta blockers reduce myocardial oxygen demand?",
    "Why is study design important in evaluating vaccine efficacy?",
    "What was the historical significance of the discovery of insulin?",
    "What are the red flags for cauda equina syndrome?",
    "Describe the pathophysiology of type 1 diabetes.",
    "Which tests help diagnose pulmonary embolism?",
]


@pytest.mark.parametrize(("rule", "question"), [(r, q) for r, qs in DROPPED.items() for q in qs])
def test_each_family_drops_its_examples(rule: str, question: str) -> None:
    match = context_dependence(question)
    assert match is not None and match.rule == rule, match


@pytest.mark.parametrize("question", KEPT)
def test_self_contained_questions_are_kept(question: str) -> None:
    assert context_dependence(question) is None
