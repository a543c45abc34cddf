"""The MedHallu builder: a subtle hallucinated answer, with a difficulty, per PubMedQA question.

For each question, up to N attempts: generate (temperature drawn in 0.3-0.7, top-p 0.95),
reject answers whose length is off, ask each discriminator which of (truth, candidate) is more
accurate in a seeded random order (difficulty from how many were fooled), reject candidates
that mean the same as the truth (bidirectional entailment >= tau), and have the refiner
critique a failed candidate for the next attempt. When none passes, the attempt most similar
to the truth by embedding cosine is kept as easy, marked as a fallback.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medhalbench._progress import progress_bar
from medhalbench.data import PubMedQARecord, ResumableJsonl, run_resumable
from medhalbench.medhallu._steps import (
    Attempt,
    BuildPrompts,
    BuildRoles,
    BuildSettings,
    equivalence_step,
    fallback_step,
    feedback_for,
    generate_step,
    length_step,
    refine_step,
    vote_step,
    word_count,
)

RECORDS_FILE = "records.jsonl"
DATASET_JSONL = "medhallu.jsonl"
DATASET_PARQUET = "medhallu.parquet"
SUMMARY_FILE = "summary.json"
UNSPECIFIED = "Unspecified"


async def build_question(
    record: PubMedQARecord, roles: BuildRoles, settings: BuildSettings, prompts: BuildPrompts
) -> dict[str, Any]:
    """Build one MedHallu row (with full provenance) for a PubMedQA entry: attempts until one
    passes every step, each failed one critiqued for the next; else the fallback."""
    rng = random.Random(f"{settings.seed}:{record.pubid}")
    truth = record.long_answer
    target_words = word_count(truth)
    attempts: list[Attempt] = []
    feedback = ""
    passed: Attempt | None = None
    for number in range(1, settings.attempts + 1):
        attempt = await generate_step(record, roles, settings, prompts, rng, number, feedback)
        attempts.append(attempt)
        if attempt.status == "unparseable" or not length_step(
            attempt, target_words, settings.length_tolerance
        ):
            feedback = feedback_for(attempt, target_words)
            continue
        if await vote_step(attempt, record, roles, prompts, rng, settings.cache):
            if await equivalence_step(attempt, truth, roles.nli, settings.tau):
                passed = attempt
                break
        feedback = await refine_step(attempt, record, roles.refiner, prompts, settings.cache)

    row: dict[str, Any] = {
        "pubid": record.pubid,
        "Question": record.question,
        "Knowledge": record.contexts,
        "Ground Truth": truth,
    }
    provenance: dict[str, Any] = {
        "attempts": [a.as_record() for a in attempts],
        "model_calls": sum(a.calls for a in attempts),
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
        fallback = fallback_step(attempts, truth, roles.embedder)
        if fallback is None:
            return {**row, "status": "no_candidate", "provenance": provenance}
        chosen, provenance["fallback_similarities"] = fallback
    is_fallback = passed is None
    return {
        **row,
        "Difficulty Level": "easy" if is_fallback else chosen.difficulty,
        "Hallucinated Answer": chosen.answer,
        "Category of Hallucination": chosen.category or chosen.raw_category or UNSPECIFIED,
        "status": "fallback" if is_fallback else "passed",
        "fallback": is_fallback,
        "chosen_attempt": chosen.attempt,
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
    with progress_bar(disable=not show_progress) as progress:
        run = await run_resumable(
            records, lambda r: build_question(r, roles, settings, prompts), key=lambda r: r.pubid,
            done=done, progress=progress, description="MedHallu questions", concurrency=concurrency,
        )  # fmt: skip
    wanted = {r.pubid for r in records}
    summary = write_dataset([r for r in done.records() if r["pubid"] in wanted], out)
    summary.processed_now, summary.skipped_done = run.processed, run.skipped
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
