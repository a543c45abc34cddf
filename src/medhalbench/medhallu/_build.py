"""The MedHallu builder: a subtle hallucinated answer, with a difficulty, per PubMedQA question.

For each question, up to N attempts: generate (temperature drawn in 0.3-0.7, top-p 0.95),
reject answers whose length is off, ask each discriminator which of (truth, candidate) is more
accurate in a seeded random order (difficulty from how many were fooled), reject candidates
that mean the same as the truth (bidirectional entailment >= tau), and have the refiner
critique a failed candidate for the next attempt. When none passes, the attempt most similar
to the truth by embedding cosine is kept as easy, marked as a fallback.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.model import GenerateConfig, Model, ModelOutput, ResponseSchema
from inspect_ai.util import JSONSchema

from medhalbench._progress import progress_bar
from medhalbench._prompts import check_placeholders, read_prompt
from medhalbench.data import PubMedQARecord, ResumableJsonl
from medhalbench.embeddings import Embedder
from medhalbench.judging import parse_choice
from medhalbench.medhallu._types import HALLUCINATION_TYPES, normalise_category, types_text
from medhalbench.nli import NLIModel

PROMPTS = "medhalbench.medhallu"
RECORDS_FILE = "records.jsonl"
DATASET_JSONL = "medhallu.jsonl"
DATASET_PARQUET = "medhallu.parquet"
SUMMARY_FILE = "summary.json"
UNSPECIFIED = "Unspecified"


@dataclass
class BuildRoles:
    """The models a build uses."""

    generator: Model
    discriminators: list[Model]
    refiner: Model
    nli: NLIModel
    embedder: Embedder


@dataclass
class BuildSettings:
    """Knobs of a build (defaults are MedHallu's)."""

    attempts: int = 5
    tau: float = 0.75
    length_tolerance: float = 0.10
    seed: int = 42
    cache: bool = True
    temperature_range: tuple[float, float] = (0.3, 0.7)
    generate_prompt: str | None = None
    discriminate_prompt: str | None = None
    refine_prompt: str | None = None


@dataclass
class BuildPrompts:
    """The builder's prompt templates (packaged defaults or the user's files)."""

    generate: str
    discriminate: str
    refine: str

    @classmethod
    def load(cls, settings: BuildSettings) -> BuildPrompts:
        generate = read_prompt(PROMPTS, "generate_user.txt", settings.generate_prompt)
        check_placeholders(
            generate,
            {"types", "words", "feedback", "question", "knowledge", "ground_truth"},
            source=settings.generate_prompt or "generate prompt",
        )
        discriminate = read_prompt(PROMPTS, "discriminate_user.txt", settings.discriminate_prompt)
        check_placeholders(
            discriminate,
            {"question", "answer_1", "answer_2"},
            source=settings.discriminate_prompt or "discriminate prompt",
        )
        refine = read_prompt(PROMPTS, "refine_user.txt", settings.refine_prompt)
        check_placeholders(
            refine,
            {"question", "ground_truth", "candidate", "reasons"},
            source=settings.refine_prompt or "refine prompt",
        )
        return cls(generate, discriminate, refine)


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


def difficulty_from_votes(fooled: int, discriminators: int) -> str:
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
) -> list[dict[str, Any]]:
    positions = [1 if rng.random() < 0.5 else 2 for _ in roles.discriminators]

    async def vote(model: Model, position: int) -> dict[str, Any]:
        first, second = (
            (candidate, record.long_answer) if position == 1 else (record.long_answer, candidate)
        )
        output = await model.generate(
            prompts.discriminate.format(question=record.question, answer_1=first, answer_2=second),
            config=GenerateConfig(temperature=0.0, max_tokens=16, cache=cache),
        )
        picked = parse_choice(output.completion)
        return {
            "model": str(model),
            "candidate_position": position,
            "reply": output.completion,
            "picked": picked,
            "fooled": picked == position,
        }

    return list(
        await asyncio.gather(
            *(vote(m, p) for m, p in zip(roles.discriminators, positions, strict=True))
        )
    )


def _reasons(attempt: dict[str, Any]) -> str:
    if attempt["status"] == "equivalent":
        return (
            f"It says the same thing as the correct answer (bidirectional entailment "
            f"{attempt['nli']['bidirectional']:.2f})."
        )
    if attempt["status"] == "nli_unreadable":
        return "Its meaning could not be shown to differ from the correct answer."
    lines = ["No discriminator was fooled:"]
    for v in attempt["votes"]:
        lines.append(
            f"- {v['model']} picked answer {v['picked']} (the correct one); it said: {v['reply'].strip()[:300]}"
        )
    return "\n".join(lines)


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
            max_tokens=max(64, word_count(truth) * 4),
            cache=settings.cache,
            response_schema=generation_schema(),
        ),
    )
    return temperature, output


async def build_question(
    record: PubMedQARecord, roles: BuildRoles, settings: BuildSettings, prompts: BuildPrompts
) -> dict[str, Any]:
    """Build one MedHallu row (with full provenance) for a PubMedQA entry."""
    rng = random.Random(f"{settings.seed}:{record.pubid}")
    truth = record.long_answer
    target_words = word_count(truth)
    attempts: list[dict[str, Any]] = []
    calls = 0
    feedback = ""
    passed: dict[str, Any] | None = None
    for number in range(1, settings.attempts + 1):
        temperature, output = await generate_candidate(
            record, roles, settings, prompts, rng, feedback
        )
        calls += 1
        attempt: dict[str, Any] = {
            "attempt": number,
            "temperature": temperature,
            "raw": output.completion,
        }
        attempts.append(attempt)
        parsed = parse_generated(output.completion)
        if parsed is None:
            attempt["status"] = "unparseable"
            feedback = "Your previous reply could not be read: reply with the JSON object only."
            continue
        candidate, raw_category = parsed
        attempt.update(
            answer=candidate,
            raw_category=raw_category,
            category=normalise_category(raw_category),
            words=word_count(candidate),
        )
        low, high = (
            target_words * (1 - settings.length_tolerance),
            target_words * (1 + settings.length_tolerance),
        )
        if not low <= attempt["words"] <= high:
            attempt["status"] = "length"
            feedback = f"Your previous answer had {attempt['words']} words; write about {target_words} words."
            continue
        votes = await discriminate(roles, prompts, record, candidate, rng, settings.cache)
        calls += len(votes)
        fooled = sum(v["fooled"] for v in votes)
        attempt.update(
            votes=votes, fooled=fooled, difficulty=difficulty_from_votes(fooled, len(votes))
        )
        if attempt["difficulty"] == "failed":
            attempt["status"] = "not_fooling"
        else:
            forward, backward = await roles.nli.entailment_batch(
                [(candidate, truth), (truth, candidate)]
            )
            calls += 2 if roles.nli.name.startswith("llm:") else 0
            both = None if forward is None or backward is None else min(forward, backward)
            attempt["nli"] = {"forward": forward, "backward": backward, "bidirectional": both}
            if both is None:
                attempt["status"] = "nli_unreadable"
            elif both >= settings.tau:
                attempt["status"] = "equivalent"
            else:
                attempt["status"] = "passed"
                passed = attempt
                break
        critique = await roles.refiner.generate(
            prompts.refine.format(
                question=record.question,
                ground_truth=truth,
                candidate=candidate,
                reasons=_reasons(attempt),
            ),
            config=GenerateConfig(temperature=0.0, max_tokens=200, cache=settings.cache),
        )
        calls += 1
        attempt["refinement"] = critique.completion
        feedback = f"A reviewer's advice on your previous attempt ({candidate!r}):\n{critique.completion.strip()}"

    row: dict[str, Any] = {
        "pubid": record.pubid,
        "Question": record.question,
        "Knowledge": record.contexts,
        "Ground Truth": truth,
    }
    provenance: dict[str, Any] = {
        "attempts": attempts,
        "model_calls": calls,
        "seed": settings.seed,
        "tau": settings.tau,
        "length_tolerance": settings.length_tolerance,
        "models": {
            "generator": str(roles.generator),
            "discriminators": [str(m) for m in roles.discriminators],
            "refiner": str(roles.refiner),
            "nli": roles.nli.name,
            "embedder": roles.embedder.name,
        },
    }
    chosen = passed
    if chosen is None:
        candidates = [a for a in attempts if a.get("answer")]
        if not candidates:
            return {**row, "status": "no_candidate", "provenance": provenance}
        similarities = roles.embedder.encode([truth, *(a["answer"] for a in candidates)])
        scores = [float(similarities[0] @ similarities[i + 1]) for i in range(len(candidates))]
        best = max(range(len(candidates)), key=lambda i: scores[i])
        chosen = candidates[best]
        provenance["fallback_similarities"] = {
            a["attempt"]: s for a, s in zip(candidates, scores, strict=True)
        }
    fallback = passed is None
    return {
        **row,
        "Difficulty Level": "easy" if fallback else chosen["difficulty"],
        "Hallucinated Answer": chosen["answer"],
        "Category of Hallucination": chosen.get("category")
        or chosen.get("raw_category")
        or UNSPECIFIED,
        "status": "fallback" if fallback else "passed",
        "fallback": fallback,
        "chosen_attempt": chosen["attempt"],
        "provenance": provenance,
    }


@dataclass
class MedHalluBuildSummary:
    """Counts over the built rows."""

    questions: int = 0
    processed_now: int = 0
    skipped_done: int = 0
    rows: int = 0
    no_candidate: int = 0
    fallback: int = 0
    difficulties: Counter[str] = field(default_factory=Counter)
    categories: Counter[str] = field(default_factory=Counter)
    attempts: Counter[int] = field(default_factory=Counter)
    model_calls: int = 0

    @property
    def fallback_rate(self) -> float:
        """Share of rows kept by the fallback."""
        return self.fallback / self.rows if self.rows else 0.0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready summary."""
        return {
            "questions": self.questions,
            "rows": self.rows,
            "no_candidate": self.no_candidate,
            "fallback": self.fallback,
            "fallback_rate": self.fallback_rate,
            "difficulty": dict(self.difficulties),
            "category": dict(self.categories),
            "attempts_per_question": {str(k): v for k, v in sorted(self.attempts.items())},
            "mean_attempts": sum(k * v for k, v in self.attempts.items())
            / max(1, sum(self.attempts.values())),
            "model_calls": self.model_calls,
            "model_calls_per_question": self.model_calls / max(1, self.questions),
        }


def summarise(records: Sequence[dict[str, Any]]) -> MedHalluBuildSummary:
    """Counts per difficulty and category, attempts per question, fallback rate."""
    summary = MedHalluBuildSummary(questions=len(records))
    for r in records:
        summary.attempts[len(r["provenance"]["attempts"])] += 1
        summary.model_calls += r["provenance"]["model_calls"]
        if r["status"] == "no_candidate":
            summary.no_candidate += 1
            continue
        summary.rows += 1
        summary.fallback += bool(r.get("fallback"))
        summary.difficulties[r["Difficulty Level"]] += 1
        summary.categories[r["Category of Hallucination"]] += 1
    return summary


def write_dataset(records: Sequence[dict[str, Any]], out_dir: Path) -> MedHalluBuildSummary:
    """Write the loadable rows as JSONL and Parquet (provenance as a JSON string column in
    Parquet) and the summary; return the summary."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [r for r in records if r["status"] != "no_candidate"]
    with (out_dir / DATASET_JSONL).open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    flat = [{**r, "provenance": json.dumps(r["provenance"], ensure_ascii=False)} for r in rows]
    pq.write_table(pa.Table.from_pylist(flat), out_dir / DATASET_PARQUET)
    summary = summarise(records)
    (out_dir / SUMMARY_FILE).write_text(json.dumps(summary.as_dict(), indent=2))
    return summary


def select_shard(
    records: Sequence[PubMedQARecord], shard: tuple[int, int] | None
) -> list[PubMedQARecord]:
    """The records of shard i of n (by position), or all."""
    if shard is None:
        return list(records)
    index, count = shard
    return [r for position, r in enumerate(records) if position % count == index]


async def build_medhallu(
    records: Sequence[PubMedQARecord],
    out_dir: str | Path,
    roles: BuildRoles,
    settings: BuildSettings | None = None,
    *,
    concurrency: int = 4,
    show_progress: bool = True,
) -> MedHalluBuildSummary:
    """Build MedHallu rows for PubMedQA entries, resumably.

    Each finished question is appended to `records.jsonl` at once; a rerun skips what is
    there. At the end `medhallu.jsonl`, `medhallu.parquet` and `summary.json` are rewritten
    from all finished questions of this run's selection.
    """
    settings = settings or BuildSettings()
    prompts = BuildPrompts.load(settings)
    out = Path(out_dir)
    done = ResumableJsonl(out / RECORDS_FILE, key="pubid")
    todo = [r for r in records if r.pubid not in done]
    semaphore = asyncio.Semaphore(concurrency)
    processed = 0
    with progress_bar(disable=not show_progress) as progress:
        bar = progress.add_task(
            "MedHallu questions", total=len(records), completed=len(records) - len(todo)
        )

        async def run(record: PubMedQARecord) -> None:
            nonlocal processed
            async with semaphore:
                row = await build_question(record, roles, settings, prompts)
            done.append(row)
            processed += 1
            progress.advance(bar)

        await asyncio.gather(*(run(r) for r in todo))
    wanted = {r.pubid for r in records}
    summary = write_dataset([r for r in done.records() if r["pubid"] in wanted], out)
    summary.processed_now = processed
    summary.skipped_done = len(records) - len(todo)
    return summary


def merge_shards(shard_dirs: Sequence[str | Path], out_dir: str | Path) -> MedHalluBuildSummary:
    """Merge shard outputs into one dataset.

    Raises:
        DataError: A question appears in two shards with different content.
    """
    from medhalbench._errors import DataError

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    merged: dict[str, dict[str, Any]] = {}
    for shard in shard_dirs:
        path = Path(shard) / RECORDS_FILE
        if not path.exists():
            raise DataError("shard folder holds no records.jsonl", path=shard)
        for record in ResumableJsonl(path, key="pubid").records():
            key = str(record["pubid"])
            if key in merged and merged[key] != record:
                raise DataError(f"question {key} differs between shards", path=path)
            merged[key] = record
    target = ResumableJsonl(out / RECORDS_FILE, key="pubid")
    for key, record in merged.items():
        if key not in target:
            target.append(record)
    return write_dataset(target.records(), out)
