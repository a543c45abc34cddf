"""The MedHallu builder's steps over typed attempts: generate, length check, vote,
equivalence check, refine, and the fallback when no attempt passes. Each step is testable on
its own; `build_question` runs them in order.

A discriminator's pick of two numbered answers (the difficulty vote) is read here too."""

from __future__ import annotations

import asyncio
import json
import random
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from inspect_ai.model import GenerateConfig, Model, ModelOutput, ResponseSchema
from inspect_ai.util import JSONSchema

from medhalbench._prompts import read_template
from medhalbench.data import PubMedQARecord
from medhalbench.embeddings import Embedder
from medhalbench.medhallu._dataset import (
    HALLUCINATION_TYPES,
    Difficulty,
    normalise_category,
    types_text,
)
from medhalbench.medhallu._settings import BuildSettings
from medhalbench.medhallu.builder import PROMPTS
from medhalbench.nli import NLIModel


def _offers_alternatives(rest: str, answers: str) -> bool:
    """Whether the text after a leading answer joins it to another ("or 2", "/ 1")."""
    return bool(re.match(rf"^\s*(?:or|/|and|vs\.?|,)\s*(?:{answers})\b", rest))


def parse_choice(reply: str, options: int = 2) -> int | None:
    """Read which numbered option (1..options) a reply picks; None when absent or ambiguous.

    A leading number ("2", "Answer 2", "Answer: 1.") wins; otherwise exactly one option
    number must be mentioned ("Answer 1 is more accurate").
    """
    text = reply.strip().lower().replace("**", "")
    numbers = "|".join(str(i) for i in range(1, options + 1))
    lead = re.match(
        rf"^[\s*\"'`(\[]*(?:(?:answer|option|choice)\s*[:#=\-]?\s*)?({numbers})(?!\d)(?!\.\d)", text
    )
    if lead and not _offers_alternatives(text[lead.end() :], numbers):
        return int(lead.group(1))
    found = {int(m) for m in re.findall(rf"(?<![\w.])({numbers})(?![\w])(?!\.\d)", text)}
    return found.pop() if len(found) == 1 else None


DISCRIMINATOR_MAX_TOKENS = 16
REFINER_MAX_TOKENS = 200

AttemptStatus = Literal[
    "unparseable", "length", "not_fooling", "nli_unreadable", "equivalent", "passed"
]
VoteDifficulty = Difficulty | Literal["failed"]
"""The difficulty the votes give a candidate: `failed` when none was fooled."""


def generator_max_tokens(truth: str) -> int:
    """The generator's reply limit: room for a JSON answer about as long as the truth."""
    return max(64, word_count(truth) * 4)


@dataclass
class Vote:
    """One discriminator's pick between the truth and the candidate."""

    model: str
    candidate_position: int
    reply: str
    picked: int | None
    fooled: bool


@dataclass
class Equivalence:
    """Entailment both ways between candidate and truth (None: unreadable)."""

    forward: float | None
    backward: float | None

    @property
    def bidirectional(self) -> float | None:
        """The weaker direction: how surely the two say the same thing."""
        if self.forward is None or self.backward is None:
            return None
        return min(self.forward, self.backward)


@dataclass
class Attempt:
    """One attempt at a hallucinated answer, filled in by the steps it reached."""

    attempt: int
    temperature: float
    raw: str
    status: AttemptStatus | None = None
    answer: str | None = None
    raw_category: str | None = None
    category: str | None = None
    words: int | None = None
    votes: list[Vote] = field(default_factory=list)
    equivalence: Equivalence | None = None
    refinement: str | None = None
    calls: int = 1

    @property
    def fooled(self) -> int:
        """How many discriminators picked the candidate."""
        return sum(v.fooled for v in self.votes)

    @property
    def difficulty(self) -> VoteDifficulty:
        """MedHallu's difficulty from the votes."""
        return difficulty_from_votes(self.fooled, len(self.votes))

    def as_record(self) -> dict[str, Any]:
        """The attempt as written in the build's provenance (only the steps it reached)."""
        record: dict[str, Any] = {
            "attempt": self.attempt,
            "temperature": self.temperature,
            "raw": self.raw,
        }
        if self.answer is not None:
            record.update(
                answer=self.answer, raw_category=self.raw_category, category=self.category,
                words=self.words,
            )  # fmt: skip
        if self.votes:
            record.update(
                votes=[asdict(v) for v in self.votes], fooled=self.fooled,
                difficulty=self.difficulty,
            )  # fmt: skip
        if self.equivalence is not None:
            e = self.equivalence
            record["nli"] = {
                "forward": e.forward, "backward": e.backward, "bidirectional": e.bidirectional,
            }  # fmt: skip
        record["status"] = self.status
        if self.refinement is not None:
            record["refinement"] = self.refinement
        return record


@dataclass
class BuildRoles:
    """The models a build uses."""

    generator: Model
    discriminators: list[Model]
    refiner: Model
    nli: NLIModel
    embedder: Embedder


@dataclass
class BuildPrompts:
    """The builder's prompt templates (packaged defaults or the user's files)."""

    generate: str
    discriminate: str
    refine: str

    @classmethod
    def load(cls, settings: BuildSettings) -> BuildPrompts:
        return cls(
            read_template(
                PROMPTS,
                "generate_user.txt",
                settings.generate_prompt,
                {"types", "words", "feedback", "question", "knowledge", "ground_truth"},
            ),
            read_template(
                PROMPTS,
                "discriminate_user.txt",
                settings.discriminate_prompt,
                {"question", "answer_1", "answer_2"},
            ),
            read_template(
                PROMPTS,
                "refine_user.txt",
                settings.refine_prompt,
                {"question", "ground_truth", "candidate", "reasons"},
            ),
        )


def generation_schema() -> ResponseSchema:
    """The JSON asked of the generator (enforced where the provider supports it)."""
    return ResponseSchema(
        name="hallucinated_answer",
        json_schema=JSONSchema(
            type="object",
            properties={
                "hallucinated_answer": JSONSchema(type="string"),
                "category": JSONSchema(type="string", enum=list(HALLUCINATION_TYPES)),
            },
            required=["hallucinated_answer", "category"],
        ),
    )


_TEXT_ANSWER = re.compile(
    r"hallucinated[ _]answer\W*\s*(.+?)(?:\n\s*category\W|$)", re.IGNORECASE | re.DOTALL
)
_TEXT_CATEGORY = re.compile(r"category\W*\s*(.+)", re.IGNORECASE)


def parse_generated(text: str) -> tuple[str, str | None] | None:
    """The hallucinated answer and raw category from the generator's reply, or None."""
    body = re.sub(r"^```(?:json)?\s*|\s*```$", "", text.strip())
    try:
        value = json.loads(body)
    except json.JSONDecodeError:
        value = None
    if isinstance(value, dict) and isinstance(value.get("hallucinated_answer"), str):
        answer = value["hallucinated_answer"].strip()
        category = value.get("category")
        return (answer, category if isinstance(category, str) else None) if answer else None
    match = _TEXT_ANSWER.search(text)
    if match and match.group(1).strip():
        category = _TEXT_CATEGORY.search(text[match.end(1) :])
        return match.group(1).strip().strip('"'), category.group(1).strip() if category else None
    return None


def word_count(text: str) -> int:
    """Words in a text."""
    return len(text.split())


def difficulty_from_votes(fooled: int, discriminators: int) -> VoteDifficulty:
    """MedHallu's difficulty: all fooled hard, more than one medium, one easy, none failed."""
    if discriminators and fooled == discriminators:
        return "hard"
    if fooled > 1:
        return "medium"
    if fooled == 1:
        return "easy"
    return "failed"


async def discriminate(
    roles: BuildRoles,
    prompts: BuildPrompts,
    record: PubMedQARecord,
    candidate: str,
    rng: random.Random,
    cache: bool,
) -> list[Vote]:
    """Each discriminator's pick between the truth and the candidate, shown in a seeded
    random order."""
    positions = [1 if rng.random() < 0.5 else 2 for _ in roles.discriminators]

    async def vote(model: Model, position: int) -> Vote:
        first, second = (
            (candidate, record.long_answer) if position == 1 else (record.long_answer, candidate)
        )
        output = await model.generate(
            prompts.discriminate.format(question=record.question, answer_1=first, answer_2=second),
            config=GenerateConfig(
                temperature=0.0, max_tokens=DISCRIMINATOR_MAX_TOKENS, cache=cache
            ),
        )
        picked = parse_choice(output.completion)
        return Vote(str(model), position, output.completion, picked, picked == position)

    return list(
        await asyncio.gather(
            *(vote(m, p) for m, p in zip(roles.discriminators, positions, strict=True))
        )
    )


async def generate_candidate(
    record: PubMedQARecord,
    roles: BuildRoles,
    settings: BuildSettings,
    prompts: BuildPrompts,
    rng: random.Random,
    feedback: str = "",
) -> tuple[float, ModelOutput]:
    """One generator call for a hallucinated answer: a temperature drawn from the range,
    top-p 0.95, a seed from `rng`, JSON asked for. Returns the temperature and the output."""
    truth = record.long_answer
    temperature = round(rng.uniform(*settings.temperature_range), 3)
    prompt = prompts.generate.format(
        types=types_text(),
        words=word_count(truth),
        feedback=f"\n{feedback}\n" if feedback else "",
        question=record.question,
        knowledge=record.context_text,
        ground_truth=truth,
    )
    output = await roles.generator.generate(
        prompt,
        config=GenerateConfig(
            temperature=temperature,
            top_p=0.95,
            seed=rng.randrange(2**31),
            max_tokens=generator_max_tokens(truth),
            cache=settings.cache,
            response_schema=generation_schema(),
        ),
    )
    return temperature, output


async def generate_step(
    record: PubMedQARecord,
    roles: BuildRoles,
    settings: BuildSettings,
    prompts: BuildPrompts,
    rng: random.Random,
    number: int,
    feedback: str,
) -> Attempt:
    """Generate and read a candidate (status `unparseable` when it cannot be read)."""
    temperature, output = await generate_candidate(record, roles, settings, prompts, rng, feedback)
    attempt = Attempt(number, temperature, output.completion)
    parsed = parse_generated(output.completion)
    if parsed is None:
        attempt.status = "unparseable"
        return attempt
    attempt.answer, attempt.raw_category = parsed
    attempt.category = normalise_category(attempt.raw_category)
    attempt.words = word_count(attempt.answer)
    return attempt


def length_step(attempt: Attempt, target_words: int, tolerance: float) -> bool:
    """Whether the candidate is within `tolerance` of the truth's length (else status `length`)."""
    assert attempt.words is not None
    if target_words * (1 - tolerance) <= attempt.words <= target_words * (1 + tolerance):
        return True
    attempt.status = "length"
    return False


async def vote_step(
    attempt: Attempt,
    record: PubMedQARecord,
    roles: BuildRoles,
    prompts: BuildPrompts,
    rng: random.Random,
    cache: bool,
) -> bool:
    """Ask the discriminators; whether at least one was fooled (else status `not_fooling`)."""
    assert attempt.answer is not None
    attempt.votes = await discriminate(roles, prompts, record, attempt.answer, rng, cache)
    attempt.calls += len(attempt.votes)
    if attempt.difficulty == "failed":
        attempt.status = "not_fooling"
        return False
    return True


async def equivalence_step(attempt: Attempt, truth: str, nli: NLIModel, tau: float) -> bool:
    """Whether the candidate means something else than the truth (status `passed`), or the
    same (`equivalent`), or that cannot be read (`nli_unreadable`)."""
    assert attempt.answer is not None
    forward, backward = await nli.entailment_batch(
        [(attempt.answer, truth), (truth, attempt.answer)]
    )
    attempt.calls += 2 if nli.name.startswith("llm:") else 0
    attempt.equivalence = Equivalence(forward, backward)
    both = attempt.equivalence.bidirectional
    attempt.status = "nli_unreadable" if both is None else "equivalent" if both >= tau else "passed"
    return attempt.status == "passed"


def rejection_reasons(attempt: Attempt) -> str:
    """Why a candidate that was read failed, for the refiner."""
    if attempt.status == "equivalent" and attempt.equivalence is not None:
        return (
            f"It says the same thing as the correct answer (bidirectional entailment "
            f"{attempt.equivalence.bidirectional:.2f})."
        )
    if attempt.status == "nli_unreadable":
        return "Its meaning could not be shown to differ from the correct answer."
    lines = ["No discriminator was fooled:"]
    for v in attempt.votes:
        lines.append(
            f"- {v.model} picked answer {v.picked} (the correct one); it said: {v.reply.strip()[:300]}"
        )
    return "\n".join(lines)


async def refine_step(
    attempt: Attempt, record: PubMedQARecord, refiner: Model, prompts: BuildPrompts, cache: bool
) -> str:
    """The refiner's critique of a failed candidate; returns the next attempt's feedback."""
    assert attempt.answer is not None
    critique = await refiner.generate(
        prompts.refine.format(
            question=record.question,
            ground_truth=record.long_answer,
            candidate=attempt.answer,
            reasons=rejection_reasons(attempt),
        ),
        config=GenerateConfig(temperature=0.0, max_tokens=REFINER_MAX_TOKENS, cache=cache),
    )
    attempt.calls += 1
    attempt.refinement = critique.completion
    return (
        f"A reviewer's advice on your previous attempt ({attempt.answer!r}):\n"
        f"{critique.completion.strip()}"
    )


def feedback_for(attempt: Attempt, target_words: int) -> str:
    """The next attempt's feedback after an attempt that failed before being voted on."""
    if attempt.status == "unparseable":
        return "Your previous reply could not be read: reply with the JSON object only."
    return f"Your previous answer had {attempt.words} words; write about {target_words} words."


def fallback_step(
    attempts: list[Attempt], truth: str, embedder: Embedder
) -> tuple[Attempt, dict[int, float]] | None:
    """The candidate closest to the truth by embedding cosine, and every candidate's
    similarity; None when no attempt produced a candidate that was not found equivalent to
    the truth."""
    # A candidate found to say the same as the truth is no hallucinated answer.
    candidates = [a for a in attempts if a.answer and a.status != "equivalent"]
    if not candidates:
        return None
    vectors = embedder.encode([truth, *(a.answer or "" for a in candidates)])
    scores = [float(vectors[0] @ vectors[i + 1]) for i in range(len(candidates))]
    best = max(range(len(candidates)), key=lambda i: scores[i])
    return candidates[best], {a.attempt: s for a, s in zip(candidates, scores, strict=True)}
