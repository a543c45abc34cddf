"""MedHal converters on small hand-made files in each published layout."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from helpers import scripted_model
from medhalbench import DataError
from medhalbench.medhal import (
    MedHalBuild,
    assign_splits,
    build_medhal,
    clean_explanation,
    load_medhal,
    read_statement,
)
from medhalbench.medhal.builder._sources import ReadReport, flatten, read_source


def converter_reply(prompt: str) -> str:
    """Deterministic stand-in for the converter: echoes what it was given as a statement."""
    if "Option:" in prompt:
        option = prompt.rsplit("Option:", 1)[1].split("\n")[0].strip()
        question = prompt.rsplit("Question:", 1)[1].split("\n")[0].strip()
        return f"Statement: The answer to '{question[:30].rstrip('?')}' is {option}."
    if "Field:" in prompt:
        key = prompt.rsplit("Field:", 1)[1].split("\n")[0].strip()
        value = prompt.rsplit("Value:", 1)[1].split("\n")[0].strip()
        return f"The patient's {key} is {value}."
    if "Rewritten sentence:" in prompt:
        sentence = prompt.rsplit("Sentence:", 1)[1].split("\n")[0].strip()
        return "REWRITTEN " + sentence.replace("increased", "decreased")
    raise AssertionError(prompt[:200])


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture
def fixtures(tmp_path: Path) -> dict[str, Path]:
    mirage = tmp_path / "medqa.json"
    mirage.write_text(json.dumps({
        "q1": {"question": "Which vitamin deficiency causes scurvy?", "options": {"A": "Vitamin A", "B": "Vitamin C", "C": "Vitamin D", "D": "Vitamin K"}, "answer": "B"},
        "q2": {"question": "Which organ secretes insulin?", "options": {"A": "Liver", "B": "Spleen", "C": "Pancreas", "D": "Kidney"}, "answer": "C"},
    }))  # fmt: skip
    medmcqa = write_jsonl(tmp_path / "medmcqa.jsonl", [
        {"id": "m1", "question": "Drug of choice for absence seizures?", "opa": "Ethosuximide", "opb": "Phenytoin", "opc": "Carbamazepine", "opd": "Gabapentin", "cop": 0, "exp": "Ans. is 'a' i.e., Ethosuximide. It blocks T-type calcium channels."},
    ])  # fmt: skip
    medqa_hf = write_jsonl(tmp_path / "medqa_hf.jsonl", [
        {"question": "First-line drug for type 2 diabetes?", "options": {"A": "Insulin", "B": "Metformin", "C": "Sulfonylurea", "D": "Acarbose"}, "answer": "Metformin", "answer_idx": "B"},
    ])  # fmt: skip
    mednli = write_jsonl(tmp_path / "mednli.jsonl", [
        {"pairID": "p1", "sentence1": "Patient has a temperature of 39.5 C.", "sentence2": "The patient has a fever.", "gold_label": "entailment"},
        {"pairID": "p2", "sentence1": "Patient has a temperature of 39.5 C.", "sentence2": "The patient is afebrile.", "gold_label": "contradiction"},
        {"pairID": "p3", "sentence1": "Patient has a temperature of 39.5 C.", "sentence2": "The patient has pneumonia.", "gold_label": "neutral"},
        {"pairID": "p4", "sentence1": "BP is 90/60.", "sentence2": "Blood pressure is low.", "gold_label": "entailment"},
    ])  # fmt: skip
    acn = write_jsonl(tmp_path / "acn.jsonl", [
        {"idx": 1, "note": "A 54-year-old man with chest pain.", "summary": json.dumps({"patient information": {"age": "54", "sex": "Male"}, "symptoms": ["chest pain"]})},
        {"idx": 2, "note": "A 30-year-old woman with headache.", "summary": json.dumps({"patient information": {"age": "30", "sex": "Female"}, "symptoms": ["headache"]})},
        {"idx": 3, "note": "A 41-year-old man with cough.", "summary": json.dumps({"patient information": {"age": "41", "sex": "Male"}, "symptoms": ["cough"]})},
        {"idx": 4, "note": "Bad summary row.", "summary": "{not json"},
    ])  # fmt: skip
    sumpubmed = tmp_path / "sumpubmed"
    (sumpubmed / "text").mkdir(parents=True)
    (sumpubmed / "abstract").mkdir()
    long_sentence = "In the treated cohort the expression of the marker increased threefold compared with the untreated controls over twelve weeks."
    (sumpubmed / "text" / "text_1.txt").write_text("Full text of paper one. " * 20)
    (sumpubmed / "abstract" / "abstract_1.txt").write_text(
        f"Background is short. {long_sentence} Conclusions are short."
    )
    (sumpubmed / "text" / "text_2.txt").write_text("Full text of paper two.")
    (sumpubmed / "abstract" / "abst_2.txt").write_text("Too short. Also short.")
    (sumpubmed / "text" / "text_3.txt").write_text("Paper three has no summary.")
    return {
        "medqa": mirage,
        "medmcqa": medmcqa,
        "medqa_hf": medqa_hf,
        "mednli": mednli,
        "acn": acn,
        "sumpubmed": sumpubmed,
    }


def medqa_build(fixtures: dict[str, Path], tmp_path: Path) -> MedHalBuild:
    """A build of the MedQA fixture alone, uncached."""
    return MedHalBuild(
        sources=[("medqa", str(fixtures["medqa"]))], out=str(tmp_path / "out"), cache=False
    )


def build(fixtures: dict[str, Path], out: Path, sources: list[tuple[str, str]], **kwargs):
    return asyncio.run(
        build_medhal(
            MedHalBuild(sources=sources, out=str(out), cache=False, **kwargs),
            scripted_model(converter_reply),
            show_progress=False,
        )
    )


def samples(out: Path) -> list[dict]:
    return [
        json.loads(line)
        for split in ("train", "validation", "test")
        for line in (out / f"{split}.jsonl").read_text().splitlines()
    ]


def test_qa_layouts_make_paired_statements(fixtures: dict[str, Path], tmp_path: Path) -> None:
    summary = build(
        fixtures,
        tmp_path / "out",
        [
            ("medqa", str(fixtures["medqa"])),
            ("medmcqa", str(fixtures["medmcqa"])),
            ("medqa", str(fixtures["medqa_hf"])),
        ],
    )
    rows = {r["id"]: r for r in samples(tmp_path / "out")}
    assert (
        rows["medqa-q1-f"]["statement"].endswith("is Vitamin C.")
        and rows["medqa-q1-f"]["label"] is True
    )
    assert (
        rows["medqa-q1-n"]["label"] is False and "Vitamin C" not in rows["medqa-q1-n"]["statement"]
    )
    # As the authors orient explanations: the factual statement explains the non-factual one;
    # the dataset's explanation (else "The statement is factual.") the factual one.
    assert rows["medqa-q1-n"]["explanation"] == rows["medqa-q1-f"]["statement"]
    assert rows["medqa-q1-f"]["explanation"] == "The statement is factual."
    assert rows["medmcqa-m1-f"]["statement"].endswith("is Ethosuximide.")
    assert rows["medmcqa-m1-f"]["explanation"] == "Ethosuximide. It blocks T-type calcium channels."
    assert rows["medmcqa-m1-n"]["explanation"] == rows["medmcqa-m1-f"]["statement"]
    assert rows["medqa-1-f"]["statement"].endswith("is Metformin.")  # HF MedQA layout, answer_idx
    assert all(r["synthetic"] and r["context"] is None for r in rows.values())
    assert summary.sources["medqa"].samples == 6 and summary.sources["medmcqa"].samples == 2


def test_nli_entailment_and_contradiction_paired_neutral_dropped(
    fixtures: dict[str, Path], tmp_path: Path
) -> None:
    summary = build(fixtures, tmp_path / "out", [("mednli", str(fixtures["mednli"]))])
    rows = samples(tmp_path / "out")
    assert sorted((r["statement"], r["label"]) for r in rows) == [
        ("The patient has a fever.", True),
        ("The patient is afebrile.", False),
    ]
    assert all(
        r["context"] == "Patient has a temperature of 39.5 C." and not r["synthetic"] for r in rows
    )
    # The authors' explanations: the entailed hypothesis explains the contradicted one.
    assert sorted(r["explanation"] for r in rows) == [
        "The patient has a fever.",
        "The statement is factual.",
    ]
    assert summary.sources["mednli"].dropped == {"neutral": 1, "unpaired": 1}


def test_information_extraction_swaps_values_between_notes(
    fixtures: dict[str, Path], tmp_path: Path
) -> None:
    summary = build(fixtures, tmp_path / "out", [("acn", str(fixtures["acn"]))], facts_per_note=3)
    rows = samples(tmp_path / "out")
    assert summary.sources["acn"].dropped["invalid_json"] == 1
    for factual in (r for r in rows if r["label"]):
        pair = next(r for r in rows if r["id"] == factual["id"][:-1] + "n")
        assert pair["explanation"] == factual["statement"] and pair["context"] == factual["context"]
        true_value = factual["statement"].rsplit(" is ", 1)[1]
        assert (
            pair["statement"].rsplit(" is ", 1)[1] != true_value
        )  # a different value, also where values repeat (sex)
    sexes = [r for r in rows if "sex" in r["inner_id"]]
    assert sexes and all(
        r["label"]
        or "Male" not in r["statement"]
        or "Male" not in next(f for f in sexes if f["id"] == r["id"][:-1] + "f")["statement"]
        for r in sexes
    )


def test_summarization_rewrites_one_long_sentence_in_place(
    fixtures: dict[str, Path], tmp_path: Path
) -> None:
    summary = build(fixtures, tmp_path / "out", [("sumpubmed", str(fixtures["sumpubmed"]))])
    rows = {r["id"]: r for r in samples(tmp_path / "out")}
    factual, altered = (
        rows["sumpubmed-text_1:text-abstract-f"],
        rows["sumpubmed-text_1:text-abstract-n"],
    )
    assert factual["context"].startswith("Full text of paper one.") and not factual["synthetic"]
    assert altered["statement"].startswith("Background is short. REWRITTEN") and altered[
        "statement"
    ].endswith("Conclusions are short.")
    assert "decreased threefold" in altered["statement"]
    assert (
        altered["explanation"].startswith("According to the context, In the treated cohort")
        and "increased" in altered["explanation"]
    )
    assert summary.sources["sumpubmed"].dropped == {"no_sentence_to_rewrite": 1, "no_summary": 1}


def test_budget_drops_whole_pairs(fixtures: dict[str, Path], tmp_path: Path) -> None:
    summary = build(
        fixtures, tmp_path / "out", [("sumpubmed", str(fixtures["sumpubmed"]))], max_tokens=50
    )
    assert (
        summary.sources["sumpubmed"].samples == 0
        and summary.sources["sumpubmed"].dropped["over_budget"] == 2
    )


def test_split_keeps_pairs_together_and_outputs_load(
    fixtures: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    build(
        fixtures,
        out,
        [(s, str(fixtures[s])) for s in ("medqa", "medmcqa", "mednli", "acn", "sumpubmed")],
    )
    for split in ("train", "validation", "test"):
        rows = [json.loads(line) for line in (out / f"{split}.jsonl").read_text().splitlines()]
        ids = {r["id"] for r in rows}
        assert all(
            r["id"][:-1] + ("n" if r["label"] else "f") in ids
            for r in rows
            if r["source"] != "mednli"
        )
        assert len(load_medhal(out, split=split)) == len(rows)
    assignment = assign_splits([f"k{i}" for i in range(100)], seed=1)
    assert [sum(v == s for v in assignment.values()) for s in ("train", "validation", "test")] == [
        80,
        10,
        10,
    ]
    assert assignment == assign_splits([f"k{i}" for i in range(100)], seed=1)


def test_resume_skips_done_items(fixtures: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(fixtures, out, [("medqa", str(fixtures["medqa"]))], limit=1)
    calls: list[str] = []
    summary = asyncio.run(
        build_medhal(
            MedHalBuild(sources=[("medqa", str(fixtures["medqa"]))], out=str(out), cache=False),
            scripted_model(converter_reply, calls),
            show_progress=False,
        )
    )
    assert summary.skipped_done == 1 and summary.processed_now == 1 and len(calls) == 2


def test_bad_inputs_are_located(tmp_path: Path) -> None:
    bad_label = write_jsonl(
        tmp_path / "nli.jsonl", [{"sentence1": "a", "sentence2": "b", "gold_label": "maybe"}]
    )
    with pytest.raises(DataError, match="gold_label") as info:
        read_source("mednli", bad_label, ReadReport())
    assert info.value.line == 1
    bad_answer = write_jsonl(
        tmp_path / "qa.jsonl", [{"question": "q", "options": {"A": "x", "B": "y"}, "answer": "E"}]
    )
    with pytest.raises(DataError, match="not one of the options"):
        read_source("medqa", bad_answer, ReadReport())
    missing = write_jsonl(tmp_path / "qa2.jsonl", [{"options": {"A": "x"}, "answer": "A"}])
    with pytest.raises(DataError) as info:
        read_source("medmcqa", missing, ReadReport())
    assert info.value.field == "question"
    with pytest.raises(DataError, match="unknown source"):
        read_source("pubmed", missing, ReadReport())
    with pytest.raises(DataError, match="not a SumPubMed folder"):
        read_source("sumpubmed", tmp_path / "nothing", ReadReport())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ans. is 'c' i.e., Pancreas", "Pancreas."),
        (
            "Answer is c) Because insulin comes from beta cells.",
            "Because insulin comes from beta cells.",
        ),
        ("Ans: B. Vitamin C is needed for collagen.", "Vitamin C is needed for collagen."),
        ("Option D is correct as it blocks channels.", "as it blocks channels."),
        ("", None),
    ],
)
def test_explanations_lose_option_letters(text: str, expected: str | None) -> None:
    assert clean_explanation(text) == expected


def test_flatten_and_read_statement() -> None:
    assert flatten({"a": {"b": "1", "c": None, "d": ["x", "y"]}, "e": "N/A"}) == {
        "a.b": "1",
        "a.d": "x, y",
    }
    assert (
        read_statement('\nStatement: "Scurvy is caused by vitamin C deficiency."\nMore')
        == "Scurvy is caused by vitamin C deficiency."
    )
    assert read_statement("   \n") is None


def test_qa_statements_must_state_their_own_option(
    fixtures: dict[str, Path], tmp_path: Path
) -> None:
    """A converter that names another answer (or the same one twice) gives no pair."""

    def confused(prompt: str) -> str:
        asked = prompt.rsplit("Question:", 1)[1]  # after the prompt's own example
        if "Option: Vitamin C" in asked:  # q1's correct option: names a wrong answer
            return "Scurvy is caused by vitamin B12 deficiency."
        if "Which organ" in asked:  # q2, either option: the same statement twice
            return "Insulin is secreted by the pancreas."
        return converter_reply(prompt)

    summary = asyncio.run(
        build_medhal(medqa_build(fixtures, tmp_path), scripted_model(confused), show_progress=False)
    )  # fmt: skip
    counts = summary.sources["medqa"]
    assert counts.samples == 0
    assert counts.dropped == {"factual_lacks_correct_option": 1, "same_statement": 1}


def test_a_reply_cut_at_the_token_limit_counts_as_truncated(
    fixtures: dict[str, Path], tmp_path: Path
) -> None:
    from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, ModelUsage, get_model

    def cut(
        messages: list[ChatMessage], tools: object, choice: object, config: GenerateConfig
    ) -> ModelOutput:
        output = ModelOutput.from_content(model="mockllm", content="", stop_reason="max_tokens")
        output.usage = ModelUsage(input_tokens=1, output_tokens=160, total_tokens=161)
        return output

    summary = asyncio.run(
        build_medhal(
            medqa_build(fixtures, tmp_path), get_model("mockllm/model", custom_outputs=cut),
            show_progress=False,
        )
    )  # fmt: skip
    assert summary.sources["medqa"].dropped == {"truncated": 2}


def test_an_nli_judge_must_also_find_the_statement_entailed(
    fixtures: dict[str, Path], tmp_path: Path
) -> None:
    class Doubting:
        name = "doubting"

        async def entailment_batch(self, pairs: list[tuple[str, str]]) -> list[float | None]:
            # Entailed only when the premise's option is about a vitamin.
            return [0.9 if "Vitamin" in premise else 0.1 for premise, _ in pairs]

    summary = asyncio.run(
        build_medhal(
            medqa_build(fixtures, tmp_path), scripted_model(converter_reply), nli=Doubting(),
            show_progress=False,
        )
    )  # fmt: skip
    counts = summary.sources["medqa"]
    assert counts.samples == 2 and counts.dropped == {"factual_lacks_correct_option": 1}
