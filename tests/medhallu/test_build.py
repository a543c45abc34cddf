"""Every branch of the MedHallu builder's decision logic, with scripted models."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from helpers import scripted_model
from medhalbench.data import PubMedQARecord
from medhalbench.medhallu import (
    Attempt,
    BuildPrompts,
    BuildRoles,
    BuildSettings,
    MedHalluBuild,
    build_medhallu,
    difficulty_from_votes,
    equivalence_step,
    fallback_step,
    generate_step,
    length_step,
    load_medhallu,
    merge_shards,
    parse_generated,
    refine_step,
    select_shard,
    vote_step,
)

TRUTH = "Yes. Early mobilisation after hip surgery shortened the hospital stay without extra complications."
WORDS = len(TRUTH.split())  # 13


def record(pubid: str = "1") -> PubMedQARecord:
    return PubMedQARecord(
        pubid=pubid,
        QUESTION=f"Does early mobilisation shorten hospital stay? ({pubid})",
        CONTEXTS=["Patients were mobilised on day one or day three."],
        final_decision="yes",
        LONG_ANSWER=TRUTH,
    )


def candidate(tag: str, words: int = WORDS) -> str:
    filler = "No. Early mobilisation after hip surgery prolonged the hospital stay and raised complications".split()
    text = [tag, *filler][:words]
    text += ["indeed"] * (words - len(text))
    return " ".join(text)


class Generator:
    """Replies with the scripted candidates in order, and records the prompts it got."""

    def __init__(self, answers: Sequence[str]) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.answers[min(len(self.prompts) - 1, len(self.answers) - 1)]


def generator_model(answers: Sequence[str]) -> tuple[Generator, object]:
    """Scripted generator: JSON replies with these answers; `RAW:text` replies text as is."""
    replies = [
        a[4:]
        if a.startswith("RAW:")
        else json.dumps({"hallucinated_answer": a, "category": "Incomplete Information"})
        for a in answers
    ]
    script = Generator(replies)
    return script, scripted_model(script)


def discriminator(fooled_by: set[str]):
    """Picks the candidate (is fooled) when the candidate's tag is in `fooled_by`."""

    def reply(prompt: str) -> str:
        first = prompt.split("Answer 1:")[1].split("Answer 2:")[0]
        second = prompt.split("Answer 2:")[1]
        tag = re.search(r"\b(C\d)\b", prompt)
        candidate_position = (
            1 if tag and tag.group(1) in first else 2 if tag and tag.group(1) in second else None
        )
        if tag and tag.group(1) in fooled_by:
            return str(candidate_position)
        return "2" if candidate_position == 1 else "1"

    return scripted_model(reply)


class ScriptedNLI:
    name = "scripted-nli"

    def __init__(self, equivalent: set[str] = frozenset()) -> None:
        self.equivalent = equivalent

    async def entailment_batch(self, pairs):
        return [0.9 if any(tag in p + h for tag in self.equivalent) else 0.1 for p, h in pairs]


class ScriptedEmbedder:
    """Embeds a text as its similarity to the truth, taken from its tag."""

    name = "scripted-embedder"

    def __init__(self, similarity: dict[str, float]) -> None:
        self.similarity = similarity

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        rows = []
        for text in texts:
            tag = next((t for t in self.similarity if t in text), None)
            s = 1.0 if tag is None else self.similarity[tag]
            rows.append([s, float(np.sqrt(max(0.0, 1 - s * s)))])
        return np.array(rows)


def roles(
    gen, discriminators, nli=None, embedder=None, refiner_calls: list[str] | None = None
) -> BuildRoles:
    return BuildRoles(
        generator=gen,
        discriminators=discriminators,
        refiner=scripted_model(lambda p: "Make the error subtler.", refiner_calls),
        nli=nli or ScriptedNLI(),
        embedder=embedder or ScriptedEmbedder({}),
    )


def build(tmp_path: Path, build_roles: BuildRoles, records=None, **settings) -> list[dict]:
    settings.setdefault("cache", False)
    # The records are given: the request's source is never read.
    request = MedHalluBuild(pubmedqa="given", out=str(tmp_path), **settings)
    asyncio.run(
        build_medhallu(request, build_roles, records=records or [record()], show_progress=False)
    )
    return [json.loads(line) for line in (tmp_path / "records.jsonl").read_text().splitlines()]


@pytest.mark.parametrize(("fooled", "difficulty"), [(3, "hard"), (2, "medium"), (1, "easy")])
def test_pass_at_once_for_each_difficulty(tmp_path: Path, fooled: int, difficulty: str) -> None:
    _, gen = generator_model([candidate("C1")])
    discs = [discriminator({"C1"} if i < fooled else set()) for i in range(3)]
    [row] = build(tmp_path, roles(gen, discs))
    assert (row["status"], row["Difficulty Level"], row["fallback"]) == (
        "passed",
        difficulty,
        False,
    )
    [attempt] = row["provenance"]["attempts"]
    assert attempt["fooled"] == fooled and attempt["status"] == "passed"
    assert attempt["nli"]["bidirectional"] == pytest.approx(0.1)
    assert row["Hallucinated Answer"] == candidate("C1")
    assert row["Category of Hallucination"] == "Incomplete Information"
    assert (
        row["provenance"]["model_calls"] == 1 + 3
    )  # one generation, three votes, transformers-like NLI


def test_not_fooled_then_refined_and_passing(tmp_path: Path) -> None:
    script, gen = generator_model([candidate("C1"), candidate("C2")])
    refiner_calls: list[str] = []
    [row] = build(
        tmp_path,
        roles(gen, [discriminator({"C2"}), discriminator({"C2"})], refiner_calls=refiner_calls),
    )
    first, second = row["provenance"]["attempts"]
    assert first["status"] == "not_fooling" and first["fooled"] == 0
    assert first["refinement"] == "Make the error subtler."
    assert len(refiner_calls) == 1 and "No discriminator was fooled" in refiner_calls[0]
    assert "picked answer" in refiner_calls[0]
    assert "Make the error subtler." in script.prompts[1]  # the critique reaches the generator
    assert second["status"] == "passed" and row["Difficulty Level"] == "hard"


def test_equivalent_to_truth_is_rejected(tmp_path: Path) -> None:
    _, gen = generator_model([candidate("C1"), candidate("C2")])
    refiner_calls: list[str] = []
    [row] = build(
        tmp_path,
        roles(
            gen, [discriminator({"C1", "C2"})], nli=ScriptedNLI({"C1"}), refiner_calls=refiner_calls
        ),
        tau=0.75,
    )
    first, second = row["provenance"]["attempts"]
    assert first["status"] == "equivalent" and first["nli"]["bidirectional"] == pytest.approx(0.9)
    assert "same thing as the correct answer" in refiner_calls[0]
    assert second["status"] == "passed" and row["Hallucinated Answer"].startswith("C2")


def test_length_rejection_regenerates(tmp_path: Path) -> None:
    script, gen = generator_model([candidate("C1", words=5), candidate("C2")])
    [row] = build(tmp_path, roles(gen, [discriminator({"C2"})]))
    first, second = row["provenance"]["attempts"]
    assert first["status"] == "length" and first["words"] == 5 and "votes" not in first
    assert f"write about {WORDS} words" in script.prompts[1]
    assert second["status"] == "passed"


def test_unparseable_generation_is_recorded_and_retried(tmp_path: Path) -> None:
    _, gen = generator_model(["RAW:I refuse.", candidate("C2")])
    [row] = build(tmp_path, roles(gen, [discriminator({"C2"})]))
    assert [a["status"] for a in row["provenance"]["attempts"]] == ["unparseable", "passed"]


def test_all_attempts_fail_then_fallback_picks_most_similar(tmp_path: Path) -> None:
    _, gen = generator_model([candidate("C1"), candidate("C2"), candidate("C3", words=3)])
    embedder = ScriptedEmbedder({"C1": 0.2, "C2": 0.8, "C3": 0.99})
    [row] = build(tmp_path, roles(gen, [discriminator(set())], embedder=embedder), attempts=3)
    assert [a["status"] for a in row["provenance"]["attempts"]] == [
        "not_fooling",
        "not_fooling",
        "length",
    ]
    assert row["fallback"] is True and row["status"] == "fallback"
    assert row["Difficulty Level"] == "easy"
    # The most similar of all parsed attempts, the length-rejected one included.
    assert row["Hallucinated Answer"] == candidate("C3", words=3)
    assert row["provenance"]["fallback_similarities"]["3"] == pytest.approx(0.99)


def test_no_parseable_attempt_is_counted_not_exported(tmp_path: Path) -> None:
    _, gen = generator_model(["RAW:nothing"])
    [row] = build(tmp_path, roles(gen, [discriminator(set())]), attempts=2)
    assert row["status"] == "no_candidate"
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["no_candidate"] == 1 and summary["rows"] == 0


def test_positions_are_randomised_seeded_and_recorded(tmp_path: Path) -> None:
    _, gen = generator_model([candidate("C1")])
    records = [record(str(i)) for i in range(12)]
    rows = build(
        tmp_path / "a",
        roles(gen, [discriminator({"C1"}) for _ in range(3)]),
        records=records,
        seed=7,
    )
    positions = [
        v["candidate_position"] for r in rows for v in r["provenance"]["attempts"][0]["votes"]
    ]
    assert set(positions) == {1, 2}
    assert all(
        r["Difficulty Level"] == "hard" for r in rows
    )  # the discriminators find the candidate wherever it is
    again = build(
        tmp_path / "b",
        roles(gen, [discriminator({"C1"}) for _ in range(3)]),
        records=records,
        seed=7,
    )
    by_id = {r["pubid"]: r for r in again}
    assert all(
        by_id[r["pubid"]]["provenance"]["attempts"][0]["votes"]
        == r["provenance"]["attempts"][0]["votes"]
        for r in rows
    )
    other = build(
        tmp_path / "c",
        roles(gen, [discriminator({"C1"}) for _ in range(3)]),
        records=records,
        seed=8,
    )
    assert [
        v["candidate_position"] for r in other for v in r["provenance"]["attempts"][0]["votes"]
    ] != positions


def test_output_loads_into_the_detection_task_and_shards_merge(tmp_path: Path) -> None:
    _, gen = generator_model([candidate("C1")])
    records = [record(str(i)) for i in range(5)]
    for i in range(2):
        build(
            tmp_path / f"shard{i}",
            roles(gen, [discriminator({"C1"})]),
            records=select_shard(records, (i, 2)),
        )
    merge_shards([tmp_path / "shard0", tmp_path / "shard1"], tmp_path / "merged")
    loaded = load_medhallu(tmp_path / "merged" / "medhallu.jsonl")
    assert sorted(r.pubid for r in loaded) == [str(i) for i in range(5)]
    assert load_medhallu(tmp_path / "merged" / "medhallu.parquet")[
        0
    ].hallucinated_answer == candidate("C1")
    summary = json.loads((tmp_path / "merged" / "summary.json").read_text())
    assert (
        summary["rows"] == 5
        and summary["difficulty"] == {"hard": 5}
        and summary["fallback_rate"] == 0.0
    )


@pytest.mark.parametrize(
    ("fooled", "of", "expected"),
    [
        (0, 3, "failed"),
        (1, 3, "easy"),
        (2, 3, "medium"),
        (3, 3, "hard"),
        (1, 1, "hard"),
        (0, 1, "failed"),
    ],
)
def test_difficulty_rule(fooled: int, of: int, expected: str) -> None:
    assert difficulty_from_votes(fooled, of) == expected


def test_parse_generated_forms() -> None:
    assert parse_generated(
        '{"hallucinated_answer": "X y z.", "category": "Incomplete Information"}'
    ) == ("X y z.", "Incomplete Information")
    assert parse_generated("Hallucinated Answer: X y z.\nCategory: Incomplete Information") == (
        "X y z.",
        "Incomplete Information",
    )
    assert parse_generated("I cannot help") is None
    assert parse_generated('{"hallucinated_answer": ""}') is None


# The builder's steps, one at a time, on typed attempts.

PROMPTS = BuildPrompts.load(BuildSettings())


def read_attempt(text: str = candidate("C1")) -> Attempt:
    return Attempt(
        1, 0.5, text, answer=text, category="Incomplete Information", words=len(text.split())
    )


def test_generate_step_reads_the_candidate_or_marks_it_unparseable() -> None:
    _, gen = generator_model([candidate("C1")])
    attempt = asyncio.run(
        generate_step(
            record(), roles(gen, []), BuildSettings(cache=False), PROMPTS, random.Random(0), 1, ""
        )
    )
    assert attempt.status is None and attempt.answer == candidate("C1") and attempt.words == WORDS
    _, gen = generator_model(["RAW:I cannot help with that."])
    attempt = asyncio.run(
        generate_step(
            record(), roles(gen, []), BuildSettings(cache=False), PROMPTS, random.Random(0), 2, ""
        )
    )
    assert attempt.status == "unparseable" and attempt.answer is None and attempt.calls == 1
    assert attempt.as_record().keys() == {"attempt", "temperature", "raw", "status"}


@pytest.mark.parametrize(
    ("words", "kept"), [(WORDS, True), (WORDS + 1, True), (WORDS + 3, False), (5, False)]
)
def test_length_step_keeps_answers_within_the_tolerance(words: int, kept: bool) -> None:
    attempt = read_attempt(candidate("C1", words))
    assert length_step(attempt, WORDS, 0.10) is kept
    assert attempt.status == (None if kept else "length")


def test_vote_step_counts_the_fooled_discriminators() -> None:
    attempt = read_attempt()
    judges = [discriminator({"C1"}), discriminator(set())]
    fooled = asyncio.run(
        vote_step(attempt, record(), roles(None, judges), PROMPTS, random.Random(0), cache=False)
    )
    assert fooled and attempt.fooled == 1 and attempt.difficulty == "easy" and attempt.calls == 3
    attempt = read_attempt()
    fooled = asyncio.run(
        vote_step(
            attempt, record(), roles(None, judges[1:]), PROMPTS, random.Random(0), cache=False
        )
    )
    assert not fooled and attempt.status == "not_fooling"
    assert json.loads(json.dumps(attempt.as_record()))["votes"][0]["fooled"] is False


@pytest.mark.parametrize(("equivalent", "status"), [(set(), "passed"), ({"C1"}, "equivalent")])
def test_equivalence_step_rejects_a_candidate_that_means_the_truth(
    equivalent: set[str], status: str
) -> None:
    attempt = read_attempt()
    passed = asyncio.run(equivalence_step(attempt, TRUTH, ScriptedNLI(equivalent), tau=0.75))
    assert passed is (status == "passed") and attempt.status == status
    assert attempt.as_record()["nli"]["bidirectional"] == pytest.approx(0.9 if equivalent else 0.1)


def test_equivalence_step_counts_an_unreadable_judge() -> None:
    class Unreadable:
        name = "llm:scripted"

        async def entailment_batch(self, pairs):
            return [None, 0.2]

    attempt = read_attempt()
    assert not asyncio.run(equivalence_step(attempt, TRUTH, Unreadable(), tau=0.75))
    assert attempt.status == "nli_unreadable" and attempt.calls == 3


def test_refine_step_turns_the_critique_into_feedback() -> None:
    calls: list[str] = []
    attempt = read_attempt()
    attempt.status = "equivalent"
    build_roles = roles(None, [], refiner_calls=calls)
    feedback = asyncio.run(
        refine_step(attempt, record(), build_roles.refiner, PROMPTS, cache=False)
    )
    assert attempt.refinement == "Make the error subtler." and "Make the error subtler." in feedback
    assert "same thing as the correct answer" in calls[0]


def test_fallback_step_keeps_the_candidate_closest_to_the_truth() -> None:
    attempts = [read_attempt(candidate("C1")), read_attempt(candidate("C2")), Attempt(3, 0.4, "?")]
    attempts[1].attempt = 2
    chosen, similarities = fallback_step(attempts, TRUTH, ScriptedEmbedder({"C1": 0.2, "C2": 0.8}))
    assert chosen.attempt == 2 and similarities == pytest.approx({1: 0.2, 2: 0.8})
    assert fallback_step([Attempt(1, 0.4, "?")], TRUTH, ScriptedEmbedder({})) is None


def test_merge_names_missing_repeated_and_mismatched_shards(tmp_path: Path) -> None:
    from medhalbench import DataError
    from medhalbench.medhallu.builder._build import SHARD_FILE, check_shard_set

    def shard(name: str, index: int, count: int) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        (folder / SHARD_FILE).write_text(json.dumps({"index": index, "count": count}))
        return folder

    a, c, d = shard("a", 0, 4), shard("c", 2, 4), shard("d", 3, 4)
    with pytest.raises(DataError, match=r"shard 1/4 missing from the 3 given"):
        check_shard_set([a, c, d])
    with pytest.raises(DataError, match=r"shard 0/4 given twice"):
        check_shard_set([a, c, d, shard("again", 0, 4)])
    with pytest.raises(DataError, match=r"different splits"):
        check_shard_set([a, shard("other", 1, 3)])
    check_shard_set([a, shard("b", 1, 4), c, d])  # the whole set
    check_shard_set([tmp_path / "unmarked"])  # folders built before shard.json: as they are
