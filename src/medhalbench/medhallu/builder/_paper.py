"""MedHallu's builder as the authors' code runs it (MedHallu `Dataset Generation/generation.py`
and `Detection/bidirectional_checking.py`), rule by rule, over inspect models: attempts voted
on by three discriminators, TextGrad-style rewrites by the `refiner`, difficulty from the
votes, the most similar recorded answer as fallback, bidirectional entailment as a label (the
MedHallu README's table of their rules beside ours)."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import Any, Literal

from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig, Model

from medhalbench._errors import MedhalbenchError
from medhalbench._prompts import read_prompt, read_template
from medhalbench.data import PubMedQARecord
from medhalbench.medhallu._settings import PAPER_ATTEMPTS
from medhalbench.medhallu.builder import PROMPTS
from medhalbench.medhallu.builder._steps import BuildRoles

PAPER_GENERATOR = GenerateConfig(temperature=0.8, top_p=0.95, max_tokens=512)
PAPER_DISCRIMINATORS = 3
# Their three discriminators in order: gpt-4o-mini through the OpenAI API (a system message,
# 64 tokens), gemma-2-2b-it and Qwen2.5-3B-Instruct through transformers (one user message,
# 4 new tokens, top-p 0.95); all at temperature 0.3.
PAPER_DISCRIMINATOR_CONFIGS = (
    GenerateConfig(temperature=0.3, max_tokens=64),
    GenerateConfig(temperature=0.3, top_p=0.95, max_tokens=4),
    GenerateConfig(temperature=0.3, top_p=0.95, max_tokens=4),
)
PAPER_DISCRIMINATOR_MODELS = ("gpt-4o-mini", "google/gemma-2-2b-it", "Qwen/Qwen2.5-3B-Instruct")
PAPER_TEXTGRAD_STEPS = 3
TEXTGRAD_CALLS = 3
"""Calls of one TextGrad step: the loss, the gradient (`backward`) and the update (`step`)."""
# TextGrad's engine (`ChatOpenAI.generate`): temperature 0, top-p 0.99, 2,000 tokens, a system
# message and a user message.
PAPER_REFINER = GenerateConfig(temperature=0.0, top_p=0.99, max_tokens=2000)
PAPER_NLI_THRESHOLD = 0.5
_SECTION = re.compile(r"#([^#]+)#:\s*([^#]+)")  # their get_sections pattern

NliLabel = Literal["same", "different"]


def require_three(discriminators: list[str]) -> None:
    """Refuse a paper build without exactly three discriminators, named in their order.

    Raises:
        MedhalbenchError: Not three.
    """
    if len(discriminators) != PAPER_DISCRIMINATORS:
        raise MedhalbenchError(
            f"--protocol paper votes with three discriminators, as the authors did "
            f"({', '.join(PAPER_DISCRIMINATOR_MODELS)}, in that order: the first gets a system "
            f"message and 64 tokens, the others 4 tokens); {len(discriminators)} named "
            f"({', '.join(discriminators) or 'none'}): give --discriminator three times"
        )


@dataclass
class PaperPrompts:
    """The paper protocol's prompts (our wording of what theirs asks, their layout)."""

    generate_system: str
    discriminate_system: str
    discriminate_user: str
    evaluate: str
    critique: str
    rewrite: str
    critique_system: str
    rewrite_system: str

    @classmethod
    def load(cls) -> PaperPrompts:
        return cls(
            read_prompt(PROMPTS, "paper_generate_system.txt"),
            read_prompt(PROMPTS, "paper_discriminate_system.txt"),
            read_template(
                PROMPTS,
                "paper_discriminate_user.txt",
                None,
                {"question", "option_1", "option_2", "justification"},
            ),
            read_template(PROMPTS, "paper_evaluate.txt", None, {"question"}),
            read_template(
                PROMPTS, "paper_critique.txt", None, {"instruction", "text", "evaluation"}
            ),
            read_template(PROMPTS, "paper_rewrite.txt", None, {"feedback", "text"}),
            read_prompt(PROMPTS, "paper_critique_system.txt"),
            read_prompt(PROMPTS, "paper_rewrite_system.txt"),
        )


def sections(text: str) -> dict[str, str]:
    """Their `get_sections`: `#Label#: content` pairs; a later label replaces an earlier one."""
    return {label.strip(): content.strip() for label, content in _SECTION.findall(text)}


def generation_prompt(record: PubMedQARecord) -> str:
    """Their generator's user text, which their parser reads the question and truth from."""
    return (
        f"#Question#: {record.question}\n\n#Knowledge#: {record.context_text}\n\n"
        f"#Ground truth answer#: {record.long_answer}\n\n#Hallucinated Answer#:"
    )


def fooled(reply: str) -> bool:
    """Their reading of a discriminator's reply: fooled when it contains "2"."""
    return "2" in reply.lower()


def difficulty(votes: list[bool]) -> Literal["easy", "medium", "hard"]:
    """Their `determine_difficulty`: all fooled hard, more than one medium, else easy."""
    count = sum(votes)
    if count == len(votes):
        return "hard"
    return "medium" if count > 1 else "easy"


def nli_label(forward: float | None, backward: float | None) -> NliLabel | None:
    """Their `classify_similarity` of min(both directions) at 0.5 (None: unreadable)."""
    if forward is None or backward is None:
        return None
    return "same" if min(forward, backward) >= PAPER_NLI_THRESHOLD else "different"


@dataclass
class Candidate:
    """One voted candidate: the generator's reply, what was read from it, the votes."""

    kind: Literal["fresh", "rewritten"]
    raw: str
    answer: str | None
    justification: str | None
    replies: list[str]
    votes: list[bool]

    def record(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "raw": self.raw, "answer": self.answer,
            "justification": self.justification, "replies": self.replies, "votes": self.votes,
            "fooled": sum(self.votes),
        }  # fmt: skip


async def vote(
    long_answer: str, roles: BuildRoles, prompts: PaperPrompts, cache: bool, kind: str, raw: str
) -> Candidate:
    """Their `check_hallu_multiple` on the text the sections are read from."""
    found = sections(long_answer)
    answer = found.get("Hallucinated Answer", "")
    justification = found.get("Justification of Hallucinated answer", "")
    if not (answer and justification):
        count = len(roles.discriminators)
        return Candidate(kind, raw, None, None, [], [False] * count)  # type: ignore[arg-type]
    user = prompts.discriminate_user.format(
        question=found.get("Question", ""),
        option_1=found.get("Ground truth answer", ""),
        option_2=answer,
        justification=justification,
    )

    async def ask(index: int, model: Model) -> str:
        config = PAPER_DISCRIMINATOR_CONFIGS[index].merge(GenerateConfig(cache=cache))
        if index == 0:
            messages: list[Any] = [
                ChatMessageSystem(content=prompts.discriminate_system),
                ChatMessageUser(content=user),
            ]
        else:
            messages = [ChatMessageUser(content=f"{prompts.discriminate_system}\n\nUser: {user}")]
        return (await model.generate(messages, config=config)).completion.strip()

    replies = list(await asyncio.gather(*(ask(i, m) for i, m in enumerate(roles.discriminators))))
    return Candidate(kind, raw, answer, justification, replies, [fooled(r) for r in replies])  # type: ignore[arg-type]


async def textgrad(
    text: str, question: str, refiner: Model, prompts: PaperPrompts, cache: bool
) -> tuple[str, list[dict[str, str]]]:
    """Their TextGrad loop (three TGD steps on the failed text, the refiner as engine, on
    TextGrad's engine settings), each step its three calls, each a system and a user message:
    the loss (their evaluation instruction as the system message, the text as the user's),
    the gradient (feedback on the text from that evaluation), the update (the text rewritten
    by the feedback)."""
    steps = []
    config = PAPER_REFINER.merge(GenerateConfig(cache=cache))
    instruction = prompts.evaluate.format(question=question)
    for _ in range(PAPER_TEXTGRAD_STEPS):
        evaluation = await refiner.generate(
            [ChatMessageSystem(content=instruction), ChatMessageUser(content=text)],
            config=config,
        )
        critique = await refiner.generate(
            [
                ChatMessageSystem(content=prompts.critique_system),
                ChatMessageUser(
                    content=prompts.critique.format(
                        instruction=instruction, text=text, evaluation=evaluation.completion
                    )
                ),
            ],
            config=config,
        )
        rewrite = await refiner.generate(
            [
                ChatMessageSystem(content=prompts.rewrite_system),
                ChatMessageUser(
                    content=prompts.rewrite.format(feedback=critique.completion, text=text)
                ),
            ],
            config=config,
        )
        text = rewrite.completion.strip() or text
        steps.append(
            {"evaluation": evaluation.completion, "critique": critique.completion, "rewrite": text}
        )
    return text, steps


async def paper_attempts(
    record: PubMedQARecord,
    roles: BuildRoles,
    prompts: PaperPrompts,
    cache: bool,
    tries: int = PAPER_ATTEMPTS,
) -> tuple[list[dict[str, Any]], Candidate | None, list[str], int]:
    """Their attempt loop (`tries` attempts: their five unless `--attempts` says otherwise),
    the generator sent no seed, as theirs (a rerun samples anew; the cache repeats what it
    holds). Returns every attempt's record, the first candidate that fooled a discriminator
    (or None), the answers their code records per attempt (the fallback's pool: the rewritten
    candidate's answer, else the fresh reply as written) and the calls."""
    prompt = generation_prompt(record)
    generate_config = PAPER_GENERATOR.merge(GenerateConfig(cache=cache))
    attempts: list[dict[str, Any]] = []
    pool: list[str] = []
    calls = 0
    for number in range(1, tries + 1):
        fresh = await roles.generator.generate(
            f"{prompts.generate_system}\n\n{prompt}", config=generate_config
        )
        calls += 1
        if not fresh.completion.strip():
            attempts.append({"attempt": number, "status": "no_text"})
            continue  # theirs: not recorded
        first = await vote(
            f"{prompt} {fresh.completion}", roles, prompts, cache, "fresh", fresh.completion
        )
        calls += len(first.replies)
        attempt: dict[str, Any] = {"attempt": number, "candidates": [first.record()]}
        attempts.append(attempt)
        if any(first.votes):
            attempt["status"] = "fooled"
            return attempts, first, pool, calls
        improved, steps = await textgrad(
            f"{prompt} {fresh.completion}", record.question, roles.refiner, prompts, cache
        )
        calls += TEXTGRAD_CALLS * len(steps)
        again = await roles.generator.generate(
            f"{prompts.generate_system}\n\n{prompt}\n\nPrevious attempt improved by TextGrad: "
            f"{improved}",
            config=generate_config,
        )
        calls += 1
        second = await vote(
            f"{prompt} {again.completion}", roles, prompts, cache, "rewritten", again.completion
        )
        calls += len(second.replies)
        attempt["textgrad"] = steps
        attempt["candidates"].append(second.record())
        if any(second.votes):
            attempt["status"] = "fooled"
            return attempts, second, pool, calls
        attempt["status"] = "not_fooling"
        pool.append(second.answer or fresh.completion)
    return attempts, None, pool, calls
