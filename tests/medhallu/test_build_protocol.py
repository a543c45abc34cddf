"""MedHallu's builder under `--protocol paper`, pinned to the authors' generation.py and
bidirectional_checking.py: their vote reading, difficulty, NLI label, attempt loop (a fresh
and a TextGrad-rewritten candidate per attempt), fallback pool and message layouts."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from inspect_ai.model import ChatMessage

from helpers import scripted_model
from medhalbench._errors import MedhalbenchError
from medhalbench.cli import cli
from medhalbench.data import PubMedQARecord
from medhalbench.medhallu import BuildRoles, MedHalluBuild, build_medhallu
from medhalbench.medhallu.builder._paper import (
    PAPER_REFINER,
    difficulty,
    fooled,
    generation_prompt,
    nli_label,
    require_three,
    sections,
)

TRUTH = "Yes. Early mobilisation shortened the hospital stay."


def record(pubid: str = "1") -> PubMedQARecord:
    return PubMedQARecord(
        pubid=pubid,
        QUESTION="Does early mobilisation shorten hospital stay?",
        CONTEXTS=["Patients were mobilised on day one or day three."],
        final_decision="yes",
        LONG_ANSWER=TRUTH,
    )


# --- their rules on hand-made inputs ----------------------------------------------------------
@pytest.mark.parametrize(
    ("reply", "is_fooled"),
    [
        ("Option 2", True),
        ("Option 1", False),
        ("option 1. Option 2 is not supported.", True),  # any "2" counts, as in theirs
        ("The answer is Option 1 (p < 0.02)", True),
        ("", False),  # a failed call counts as not fooled
        ("Option", False),  # cut at their 4 tokens
    ],
)
def test_their_vote_reading(reply: str, is_fooled: bool) -> None:
    assert fooled(reply) is is_fooled


@pytest.mark.parametrize(
    ("votes", "level"),
    [
        ([True, True, True], "hard"),
        ([True, True, False], "medium"),
        ([False, True, True], "medium"),
        ([True, False, False], "easy"),
        ([False, False, False], "easy"),  # their fallback rows are easy too
    ],
)
def test_their_difficulty(votes: list[bool], level: str) -> None:
    assert difficulty(votes) == level


@pytest.mark.parametrize(
    ("forward", "backward", "label"),
    [(0.9, 0.5, "same"), (0.9, 0.49, "different"), (0.2, 0.95, "different"), (None, 0.9, None)],
)
def test_their_nli_label(forward, backward, label) -> None:
    assert nli_label(forward, backward) == label


def test_their_sections_are_read_from_prompt_and_reply() -> None:
    prompt = generation_prompt(record())
    reply = "#Hallucinated Answer#: No, it lengthened the stay.\n#Justification of Hallucinated answer#: Smith 2019."
    found = sections(f"{prompt} {reply}")
    assert found["Question"] == "Does early mobilisation shorten hospital stay?"
    assert found["Ground truth answer"] == TRUTH
    assert found["Hallucinated Answer"] == "No, it lengthened the stay."
    assert found["Justification of Hallucinated answer"] == "Smith 2019."


def test_paper_refuses_without_three_discriminators() -> None:
    with pytest.raises(MedhalbenchError, match="three discriminators.*1 named"):
        require_three(["openai/gpt-4o-mini"])
    require_three(["a/x", "b/y", "c/z"])


# --- the attempt loop with scripted models ----------------------------------------------------
def hallucination(tag: str) -> str:
    return (
        f"#Hallucinated Answer#: {tag} No, early mobilisation lengthened the stay.\n"
        f"#Justification of Hallucinated answer#: A 2019 trial by Smith et al. found so."
    )


class Script:
    """Replies in order (the last one repeats) and records the prompts."""

    def __init__(self, replies: Sequence[str]) -> None:
        self.replies, self.prompts = list(replies), []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.replies[min(len(self.prompts) - 1, len(self.replies) - 1)]


def discriminators(fooled_by: Sequence[set[str]]) -> tuple[list, list[list[str]]]:
    calls: list[list[str]] = [[] for _ in fooled_by]
    models = []
    for tags, seen in zip(fooled_by, calls, strict=True):

        def reply(prompt: str, tags: set[str] = tags) -> str:
            tag = re.search(r"\bC\d\b", prompt)
            return "Option 2" if tag and tag.group(0) in tags else "Option 1"

        models.append(scripted_model(reply, seen))
    return models, calls


class NLI:
    name = "scripted-nli"

    def __init__(self, score: float) -> None:
        self.score = score

    async def entailment_batch(self, pairs):
        return [self.score for _ in pairs]


class Embedder:
    name = "scripted-embedder"

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        # Similarity to the truth grows with the tag's number (C5 most similar).
        rows = []
        for text in texts:
            tag = re.search(r"\bC(\d)\b", text)
            s = 1.0 if tag is None else int(tag.group(1)) / 10
            rows.append([s, float(np.sqrt(1 - s * s))])
        return np.array(rows)


REFINER_CHATS: list[list[ChatMessage]] = []


def run(tmp_path: Path, generator: Script, fooled_by: Sequence[set[str]], nli: float = 0.1):
    refiner_calls: list[str] = []
    REFINER_CHATS.clear()
    models, calls = discriminators(fooled_by)
    roles = BuildRoles(
        generator=scripted_model(generator),
        discriminators=models,
        refiner=scripted_model(
            lambda p: "REWRITE: subtler wording", refiner_calls, chats=REFINER_CHATS
        ),
        nli=NLI(nli),
        embedder=Embedder(),
    )
    # The records are given: the request's source is never read.
    request = MedHalluBuild(pubmedqa="given", out=str(tmp_path), protocol="paper", cache=False)
    asyncio.run(build_medhallu(request, roles, records=[record()], show_progress=False))
    [row] = [json.loads(line) for line in (tmp_path / "records.jsonl").read_text().splitlines()]
    return row, calls, refiner_calls


def test_first_fresh_candidate_that_fools_ends_the_question(tmp_path: Path) -> None:
    generator = Script([hallucination("C1")])
    row, calls, refiner = run(tmp_path, generator, [{"C1"}, {"C1"}, set()], nli=0.7)
    assert row["Difficulty Level"] == "medium" and row["status"] == "passed"
    assert row["Hallucinated Answer"].startswith("C1 No, early mobilisation")
    assert len(generator.prompts) == 1 and refiner == []
    # Discriminators: truth as Option 1, candidate + justification as Option 2; the first
    # gets a system message, the others one user message holding the instructions.
    assert "Option 1: " + TRUTH in calls[0][0]
    assert "Option 2: C1 No, early mobilisation lengthened the stay. + A 2019 trial" in calls[0][0]
    assert "Option 1 or Option 2" not in calls[0][0].split("Question:")[0]
    assert calls[1][0].split("User: ")[0].strip().startswith("You are a medical expert")
    # Their NLI check labels the kept answer (0.7 both ways: the same), it does not drop it.
    assert row["provenance"]["nli"]["label"] == "same" and row["provenance"]["protocol"] == "paper"


def test_rewritten_candidate_is_voted_in_the_same_attempt(tmp_path: Path) -> None:
    generator = Script([hallucination("C1"), hallucination("C2")])
    row, _, refiner = run(tmp_path, generator, [{"C2"}, {"C2"}, {"C2"}])
    assert row["Difficulty Level"] == "hard" and row["chosen_attempt"] == 1
    assert row["Hallucinated Answer"].startswith("C2")
    # TextGrad: three steps of a loss, a gradient and an update each, then the generator
    # writes from the update.
    assert len(refiner) == 9
    # On TextGrad's engine settings, each call a system and a user message; the loss's
    # system message is their evaluation instruction, its user message the text.
    assert [[m.role for m in chat] for chat in REFINER_CHATS] == [["system", "user"]] * 9
    assert REFINER_CHATS[0][0].text.startswith("Evaluate this hallucinated answer")
    assert "#Hallucinated Answer#" in REFINER_CHATS[0][1].text
    assert "Evaluation:\nREWRITE: subtler wording" in REFINER_CHATS[1][1].text
    assert (PAPER_REFINER.temperature, PAPER_REFINER.top_p, PAPER_REFINER.max_tokens) == (
        0.0, 0.99, 2000,
    )  # fmt: skip
    assert "Previous attempt improved by TextGrad: REWRITE: subtler wording" in generator.prompts[1]
    assert row["provenance"]["nli"]["label"] == "different"


def test_no_candidate_fools_five_attempts_then_the_closest_recorded_answer(tmp_path: Path) -> None:
    # Fresh C1..C5 and rewritten ones; the fifth rewritten reply has no sections, so their
    # code records the fresh reply as written for that attempt.
    replies = []
    for n in range(1, 6):
        replies += [hallucination(f"C{n}"), hallucination(f"C{n}") if n < 5 else "I cannot help."]
    generator = Script(replies)
    row, calls, refiner = run(tmp_path, generator, [set(), set(), set()])
    assert len(generator.prompts) == 10 and len(refiner) == 45
    assert all(len(c) == 9 for c in calls)  # the unreadable reply is not voted on
    assert row["status"] == "fallback" and row["Difficulty Level"] == "easy"
    # C5 is the most similar; its recorded answer is the fresh reply as written.
    assert row["Hallucinated Answer"] == hallucination("C5")
    assert len(row["provenance"]["fallback_similarities"]) == 5


def test_command_line_refuses_a_paper_build_without_three_discriminators(tmp_path: Path) -> None:
    data = tmp_path / "pqa.json"
    data.write_text(
        json.dumps(
            {
                "1": {
                    "QUESTION": "Q?",
                    "CONTEXTS": ["c"],
                    "final_decision": "yes",
                    "LONG_ANSWER": "A.",
                }
            }
        )
    )
    for extra in ([], ["--dry-run"]):
        result = CliRunner().invoke(
            cli,
            ["build", "medhallu", "--pubmedqa", str(data), "--out", str(tmp_path / "out"),
             "--protocol", "paper", "--model", "mockllm/model", *extra],
        )  # fmt: skip
        assert result.exit_code == 2, result.output
        assert "three discriminators" in result.output and "Traceback" not in result.output
