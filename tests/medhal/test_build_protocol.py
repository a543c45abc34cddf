"""MedHal's build rules under `--protocol paper` pinned to the authors' code (transcribed
here from LAMA-WeST-Lab/MedHal `src/data/med_hal/*.py`), on hand-made inputs and on the real
MedMCQA, MedQA and SumPubMed files; and a paper-protocol build end to end."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
from pathlib import Path

import pytest
from inspect_ai.model import ChatMessage

from helpers import scripted_model
from medhalbench.medhal import MedHalBuild, build_medhal
from medhalbench.medhal.builder import _rules as rules
from medhalbench.medhal.builder._sources import ReadReport, read_sumpubmed
from medhalbench.text import split_sentences


# --- the authors' rules, transcribed ----------------------------------------------------------
def their_medmcqa_filter(row: dict) -> bool:
    """medmcqa.py `filter_invalid_samples` (True: kept)."""
    if "the above" in row["opd"].lower():
        return False
    if "except" in row["question"]:
        return False
    for option in [row["opa"], row["opb"], row["opc"], row["opd"]]:
        if "true" in option.lower() or "false" in option.lower():
            return False
    return True


THEIR_QUESTION_PATTERN = r"^(.*?)([^.!?]+\?)$"  # medqa.py QUESTION_PATTERN


def their_medqa_split(text: str) -> tuple[str, str] | None:
    match = re.search(THEIR_QUESTION_PATTERN, text, re.DOTALL)
    return (match.group(1), match.group(2)) if match else None


def their_length_filter(context: str, statement: str) -> bool:
    """medhal-lf: context + statement under 30,000 characters."""
    return len(context) + len(statement) < 30000


# --- hand-made inputs -------------------------------------------------------------------------
OPTION_LISTS = [
    ("Drug of choice for absence seizures?", ["Ethosuximide", "Phenytoin", "Valproate", "All of the above"]),
    ("All are causes of anemia except", ["Iron deficiency", "B12 deficiency", "Folate", "Vitamin C excess"]),
    ("All are causes of anemia EXCEPT", ["Iron deficiency", "B12 deficiency", "Folate", "Vitamin C excess"]),
    ("Which statement is correct?", ["True vocal cords are mobile", "B", "C", "D"]),
    ("Regarding the femoral nerve", ["L2-L4", "Both of the above", "L5", "S1"]),
    ("Which falsely elevates potassium?", ["Hemolysis", "Lipemia", "Icterus", "None"]),
    ("Antidote of heparin", ["Protamine", "Vitamin K", "FFP", "Desferrioxamine"]),
]  # fmt: skip


@pytest.mark.parametrize(("question", "options"), OPTION_LISTS)
def test_medmcqa_filter_is_theirs_under_paper(question: str, options: list[str]) -> None:
    row = {"question": question, **dict(zip(["opa", "opb", "opc", "opd"], options, strict=True))}
    as_dict = dict(zip("ABCD", options, strict=True))
    assert (rules.medmcqa_rejection(question, as_dict, "paper") is None) == their_medmcqa_filter(
        row
    )


def test_medmcqa_filter_ours_adds_upper_case_except_and_above_options() -> None:
    options = dict(zip("ABCD", OPTION_LISTS[2][1], strict=True))
    assert (
        rules.medmcqa_rejection(OPTION_LISTS[2][0], options, "paper") is None
    )  # "EXCEPT" passes theirs
    assert rules.medmcqa_rejection(OPTION_LISTS[2][0], options, "ours") == "except_question"
    options = dict(zip("ABCD", OPTION_LISTS[4][1], strict=True))
    assert rules.medmcqa_rejection(OPTION_LISTS[4][0], options, "paper") is None
    assert rules.medmcqa_rejection(OPTION_LISTS[4][0], options, "ours") == "above_option"


def test_qa_contexts() -> None:
    vignette = "A 6-year-old boy has bleeding gums. He eats no fruit. Which vitamin is lacking?"
    assert rules.qa_context(vignette, "medqa", "paper") == (
        "A 6-year-old boy has bleeding gums. He eats no fruit.",
        "Which vitamin is lacking?",
    )
    # A closing quote after the question mark: theirs drops the question, ours reads it.
    quoted = vignette + '"'
    assert rules.qa_context(quoted, "medqa", "paper") is None
    assert rules.qa_context(quoted, "medqa", "ours") == rules.qa_context(vignette, "medqa", "paper")
    assert rules.qa_context("Which drug is used:", "medqa", "ours") is None
    # MedMCQA: all but the last sentence is the context; the whole question is converted.
    question = "A patient has gout. Drug of choice for acute attack?"
    assert rules.qa_context(question, "medmcqa", "paper") == ("A patient has gout.", question)
    assert rules.qa_context("Drug of choice for gout?", "medmcqa", "paper") == (
        None,
        "Drug of choice for gout?",
    )


def test_their_explanation_cleaning_including_its_side_effect() -> None:
    # Their pattern leaves the space after "i.e.,".
    assert rules.paper_explanation("Ans. is 'a' i.e., Ethosuximide.") == " Ethosuximide."
    # Their pattern matches "ans" inside words (it is applied case-insensitively).
    assert rules.paper_explanation("Seen in humans and transplants") == "Seen in humnd trplants"
    assert rules.paper_explanation(None) is None


def test_sentence_rules() -> None:
    assert rules.one_sentence("Metformin is first-line.") and not rules.one_sentence(
        "It is. It was."
    )
    assert not rules.one_sentence("None")
    sentences = ["Short one.", "x" * 120 + ".", "Last one that is long " + "y" * 100 + "."]
    assert rules.rewrite_candidates(sentences, "paper") == [0, 1]  # any but the last
    assert rules.rewrite_candidates(sentences[:1], "paper") == []  # fewer than two: none
    assert rules.rewrite_candidates(sentences, "ours") == [1, 2]  # 100+ characters, last included
    assert rules.remove_keywords("the result holds. keywords: a, b") == "the result holds. "
    assert rules.within_paper_length("c" * 29_990, "s" * 9) and not rules.within_paper_length(
        "c" * 29_991, "s" * 9
    )


# --- the real files ---------------------------------------------------------------------------
def test_medmcqa_filter_on_real_questions(shared_data: Path) -> None:
    path = shared_data / "medmcqa" / "medmcqa_dev_dev.json"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    items = json.loads(path.read_text())
    paper = ours = 0
    for item in items.values():
        o = item["options"]
        row = {
            "question": item["question"],
            "opa": o["A"],
            "opb": o["B"],
            "opc": o["C"],
            "opd": o["D"],
        }
        rejected = rules.medmcqa_rejection(item["question"], o, "paper") is not None
        assert rejected == (not their_medmcqa_filter(row)), item["question"]
        paper += rejected
        ours += rules.medmcqa_rejection(item["question"], o, "ours") is not None
    assert (len(items), paper, ours) == (2000, 299, 309)  # 15.0% and 15.5%


def test_medqa_contexts_on_real_questions(shared_data: Path) -> None:
    path = shared_data / "medqa" / "medqa_us_test_dev.json"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    items = json.loads(path.read_text())
    dropped = {"paper": 0, "ours": 0}
    for item in items.values():
        theirs = their_medqa_split(item["question"])
        ours = rules.qa_context(item["question"], "medqa", "paper")
        assert (ours is None) == (theirs is None)
        if theirs is not None:
            assert ours == ((theirs[0].strip() or None), theirs[1].strip())
        for protocol in dropped:
            dropped[protocol] += rules.qa_context(item["question"], "medqa", protocol) is None
    assert dropped == {"paper": 62, "ours": 13}


def test_sumpubmed_pairings_keywords_and_length_on_real_documents(shared_data: Path) -> None:
    folder = shared_data / "sumpubmed"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    items = read_sumpubmed(folder, ReadReport())
    pairs = [p for item in items for p in item.pairings()]
    assert len(items) == 300 and len(pairs) == 900  # every document has a shorter abstract
    assert sum("keywords" in item.summary for item in items) == 70
    assert all("keywords" not in rules.remove_keywords(summary) for _, _, summary in pairs)
    over = [p for p in pairs if not rules.within_paper_length(p[1], rules.remove_keywords(p[2]))]
    assert len(over) == sum(
        not their_length_filter(p[1], rules.remove_keywords(p[2])) for p in pairs
    )
    # Theirs can rewrite any non-last sentence; ours those of 100+ characters, 22% fewer.
    short = [
        s
        for _, _, summary in pairs
        for s in split_sentences(rules.remove_keywords(summary))[:-1]
        if len(s) < 100
    ]
    assert short and len(over) > 0


# --- a paper-protocol build -------------------------------------------------------------------
def converter_reply(prompt: str) -> str:
    if "Option:" in prompt or "Answer:" in prompt:  # ours, or theirs ("Question: ...\nAnswer: ...")
        option = re.split("Option:|Answer:", prompt)[-1].split("\n")[0].strip()
        if option == "Phenytoin":
            return "Phenytoin is the drug of choice. It is cheap."  # two sentences
        return f"{option} is the answer."
    sentence = prompt.rsplit("Sentence:", 1)[1].split("\n")[0].strip()
    return "THE EFFECT WAS ABSENT IN " + sentence.split()[-1]


def test_paper_protocol_build(tmp_path: Path) -> None:
    medmcqa = tmp_path / "medmcqa.jsonl"
    medmcqa.write_text(
        "".join(
            json.dumps(r) + "\n"
            for r in [
                {"id": "m1", "question": "A child has absence seizures. Drug of choice?", "opa": "Ethosuximide", "opb": "Phenytoin", "opc": "Phenytoin", "opd": "Phenytoin", "cop": 0, "exp": "Ans. is 'a' i.e., Ethosuximide."},
                {"id": "m2", "question": "All are true EXCEPT", "opa": "A1", "opb": "B1", "opc": "C1", "opd": "D1", "cop": 0},
                {"id": "m3", "question": "Which is correct?", "opa": "A1", "opb": "B1", "opc": "C1", "opd": "All of the above", "cop": 0},
                {"id": "m4", "question": "Drug for gout?", "opa": "Colchicine", "opb": "Aspirin", "opc": "Aspirin", "opd": "Aspirin", "cop": 0, "exp": "Ans: a"},
            ]
        )
    )  # fmt: skip
    folder = tmp_path / "sumpubmed"
    for sub in ("text", "abstract", "shorter_abstract"):
        (folder / sub).mkdir(parents=True)
    (folder / "text" / "text_1.txt").write_text("full text of the paper. " * 10)
    (folder / "abstract" / "abstract_1.txt").write_text(
        "the marker rose in treated mice. it fell in controls. it is a target. keywords: mice"
    )
    (folder / "shorter_abstract" / "abst_1.txt").write_text("the marker rose in treated mice.")
    out = tmp_path / "out"
    chats: list[list[ChatMessage]] = []
    summary = asyncio.run(
        build_medhal(
            MedHalBuild(
                sources=[("medmcqa", str(medmcqa)), ("sumpubmed", str(folder))], out=str(out),
                cache=False, protocol="paper",
            ),
            scripted_model(converter_reply, chats=chats), show_progress=False,
        )
    )  # fmt: skip
    # Their converter chat: a system prompt and a one-shot exchange before the question; their
    # rewrite prompt shows the document beside the sentence.
    qa = [c for c in chats if c[-1].text.startswith("Question: ")]
    assert qa and all([m.role for m in c] == ["system", "user", "assistant", "user"] for c in qa)
    assert (
        qa[0][-1].text
        == "Question: A child has absence seizures. Drug of choice?\nAnswer: Ethosuximide"
    )
    rewrites = [c[-1].text for c in chats if "Sentence:" in c[-1].text]
    assert rewrites and all("Text: " in r for r in rewrites)
    assert any("full text of the paper." in r for r in rewrites)
    rows = [
        json.loads(line)
        for split in ("train", "validation", "test")
        for line in (out / f"{split}.jsonl").read_text().splitlines()
    ]
    mcqa = [r for r in rows if r["source"] == "medmcqa"]
    # "EXCEPT" passes their filter; "All of the above" in option D does not; the two-sentence
    # non-factual statement is dropped on its own, leaving its factual sample unpaired.
    assert summary.sources["medmcqa"].dropped == {"option_d_the_above": 1, "multi_sentence": 1}
    m1 = next(r for r in mcqa if r["inner_id"] == "m1")
    assert m1["context"] == "A child has absence seizures." and m1["label"]
    assert m1["explanation"] == "Ethosuximide." and not m1["synthetic"]  # the record strips
    # Their clean-up runs over both explanations: "Ans: a" leaves nothing, and "answer." is cut
    # out of the true statement that explains the non-factual one.
    m4 = {r["label"]: r for r in mcqa if r["inner_id"] == "m4"}
    assert m4[True]["explanation"] is None and m4[False]["explanation"] == "Colchicine is the"
    spm = [r for r in rows if r["source"] == "sumpubmed"]
    factual = [r for r in spm if r["label"]]
    # Three pairings; the one-sentence shorter abstract keeps its factual sample unpaired.
    assert len(factual) == 3 and len(spm) == 4
    assert all(
        "keywords" not in r["statement"] and r["explanation"] == rules.FACTUAL_EXPLANATION
        for r in factual
    )
    altered = next(r for r in spm if not r["label"])
    assert "the effect was absent in" in altered["statement"]  # lower-cased, as theirs
    assert altered["statement"].endswith("it is a target.")  # never the last sentence
    assert altered["explanation"].startswith("According to the context, ")
    assert not altered["synthetic"]


# --- the evaluator's training defaults ---------------------------------------------------------
def test_training_defaults_follow_the_protocol() -> None:
    from medhalbench.medhal._train import TrainSettings, decay, lora_config, recipe

    paper = recipe(TrainSettings.of(protocol="paper"), examples=100)
    # configs/train_example.yaml: one epoch of batch 8 x 4 accumulated = ceil(100 / 32) steps.
    assert (paper.steps, paper.batch_size, paper.accumulation) == (4, 8, 4)
    assert (paper.lora_r, paper.lora_alpha, paper.lora_dropout) == (64, 16, 0.0)
    assert (paper.weight_decay, paper.max_length, paper.schedule) == (0.01, 8192, "linear")
    config = lora_config(paper)
    assert set(config.target_modules) == {
        "q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj",
    }  # fmt: skip
    assert (decay(paper, 0), decay(paper, 2), decay(paper, 4)) == (1.0, 0.5, 0.0)
    ours = recipe(TrainSettings(), examples=100)
    assert (ours.steps, ours.lora_r, ours.lora_alpha, len(ours.targets)) == (200, 16, 32, 4)
    # A knob given on the command line wins over the protocol's value.
    given = recipe(TrainSettings.of(protocol="paper", epochs=2, lora_r=8, steps=None), examples=100)
    assert (given.steps, given.lora_r, given.lora_alpha) == (8, 8, 16)
    assert recipe(TrainSettings.of(protocol="paper", steps=3), examples=100).steps == 3


def test_the_plan_counts_the_items_the_build_keeps(shared_data: Path) -> None:
    """A dry run's plan counts the questions that pass the build's filters (MedMCQA's
    option and question filter, MedQA's final question), not the file's rows."""
    from medhalbench.medhal._plan import medhal_build_plan

    medmcqa = shared_data / "medmcqa" / "medmcqa_dev_dev.json"
    medqa = shared_data / "medqa" / "medqa_us_test_dev.json"
    if not (medmcqa.is_file() and medqa.is_file()):
        pytest.skip("the MedMCQA or MedQA file is absent")
    sources = [("medmcqa", str(medmcqa)), ("medqa", str(medqa))]
    paper = medhal_build_plan(
        MedHalBuild(sources=sources, out="out", protocol="paper"), "mockllm/model"
    )
    # 2,000 MedMCQA questions less the 299 their filter rejects; 800 MedQA less 62.
    assert paper.items == (2000 - 299) + (800 - 62)
    [converter] = paper.roles
    assert converter.calls == 2 * paper.items
    ours = medhal_build_plan(
        MedHalBuild(sources=sources, out="out", protocol="ours"), "mockllm/model"
    )
    assert ours.items < 2000 - 309 + 800 - 13  # ours filters MedQA by MedMCQA's rules too


def test_train_dry_run_prints_the_resolved_recipe_and_writes_nothing(
    tmp_path: Path, warm_cli: list[str]
) -> None:
    from medhalbench.medhal._train import ALL_PROJECTIONS

    data = tmp_path / "data"
    data.mkdir()
    rows = [
        {"id": f"s{i}", "statement": f"Statement {i}.", "label": i % 2 == 0, "source": "medqa"}
        for i in range(40)
    ]
    (data / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out"
    command = [*warm_cli, "medhal", "train", "--data", str(data), "--out", str(out), "--dry-run"]
    paper = subprocess.run(
        [*command, "--protocol", "paper"], capture_output=True, text=True, timeout=300
    )
    assert paper.returncode == 0, paper.stderr
    assert all(name in paper.stdout for name in ALL_PROJECTIONS)
    for knob in (
        "LoRA on 7 projections",
        "r 64, alpha 16",
        "2 steps of batch 8 x 4",
        "linear decay",
    ):
        assert knob in paper.stdout, knob  # one epoch over 40 examples: ceil(40 / 32) steps
    assert "at most 8192 tokens" in paper.stdout and "40 training examples" in paper.stdout
    assert "base weights in float32" in paper.stdout  # no CUDA here: bf16 is theirs on CUDA
    narrowed = subprocess.run(
        [*command, "--protocol", "paper", "--no-all-projections"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert narrowed.returncode == 0 and "LoRA on 4 projections" in narrowed.stdout
    assert not out.exists()
