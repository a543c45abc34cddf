"""The MedHallu builder: a subtle hallucinated answer, with a difficulty, per PubMedQA question.

For each question, up to N attempts: generate (temperature drawn in 0.3-0.7, top-p 0.95),
reject answers whose length is off, ask each discriminator which of (truth, candidate) is more
accurate in a seeded random order (difficulty from how many were fooled), reject candidates
that mean the same as the truth (bidirectional entailment >= tau), and have the refiner
critique a failed candidate for the next attempt. When none passes, the attempt most similar
to the truth by embedding cosine is kept as easy, marked as a fallback."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from medhalbench._errors import DataError
from medhalbench._progress import progress_bar
from medhalbench.data import (
    PubMedQARecord,
    Record,
    ResumableJsonl,
    ResumedCounts,
    atomic_path,
    atomic_text,
    load_pubmedqa,
    run_resumable,
    write_text_atomically,
)
from medhalbench.embeddings import Embedder
from medhalbench.medhallu._settings import (
    Difficulty,
    MedHalluBuild,
    Merge,
    shard_range_problem,
)
from medhalbench.medhallu.builder._paper import (
    PAPER_NLI_THRESHOLD,
    PaperPrompts,
    difficulty,
    nli_label,
    paper_attempts,
    require_three,
)
from medhalbench.medhallu.builder._steps import (
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
from medhalbench.nli import load_nli
from medhalbench.registry import RoleModels
from medhalbench.settings import BuildProtocol, resolved

RECORDS_FILE = "records.jsonl"
DATASET_JSONL = "medhallu.jsonl"
DATASET_PARQUET = "medhallu.parquet"
SUMMARY_FILE = "summary.json"
SHARD_FILE = "shard.json"
"""Which shard of how many a folder holds (`--shard i/n`), for `merge` to check the set."""
NAMED_MISSING = 5
"""How many missing shards a refusal names before it counts the rest."""
UNSPECIFIED = "Unspecified"

RowStatus = Literal["passed", "fallback", "no_candidate"]


class BuildProvenance(Record):
    """How a row was made: every attempt, the calls, the settings and the models."""

    attempts: list[dict[str, Any]]
    model_calls: int
    seed: int | None = None
    tau: float
    length_tolerance: float | None = None
    models: dict[str, Any]
    fallback_similarities: dict[int, float] | None = None
    protocol: BuildProtocol = "ours"
    nli: dict[str, Any] | None = None


class MedHalluBuildRow(Record):
    """A built row: MedHallu's published fields (absent when no candidate was usable), with
    how it was made."""

    pubid: str
    question: str = Field(alias="Question")
    knowledge: list[str] = Field(alias="Knowledge")
    ground_truth: str = Field(alias="Ground Truth")
    difficulty: Difficulty | None = Field(default=None, alias="Difficulty Level")
    hallucinated_answer: str | None = Field(default=None, alias="Hallucinated Answer")
    category: str | None = Field(default=None, alias="Category of Hallucination")
    status: RowStatus
    fallback: bool = False
    chosen_attempt: int | None = None
    provenance: BuildProvenance


async def build_question(
    record: PubMedQARecord, roles: BuildRoles, settings: BuildSettings, prompts: BuildPrompts
) -> MedHalluBuildRow:
    """Build one MedHallu row (with full provenance) for a PubMedQA entry: attempts until one
    passes every step, each failed one critiqued for the next; else the fallback."""
    rng = random.Random(f"{resolved(settings.seed)}:{record.pubid}")
    truth = record.long_answer
    target_words = word_count(truth)
    attempts: list[Attempt] = []
    feedback = ""
    passed: Attempt | None = None
    for number in range(1, resolved(settings.attempts) + 1):
        attempt = await generate_step(record, roles, settings, prompts, rng, number, feedback)
        attempts.append(attempt)
        if attempt.status == "unparseable" or not length_step(
            attempt, target_words, resolved(settings.length_tolerance)
        ):
            feedback = feedback_for(attempt, target_words)
            continue
        if await vote_step(attempt, record, roles, prompts, rng, settings.cache):
            if await equivalence_step(attempt, truth, roles.nli, resolved(settings.tau)):
                passed = attempt
                break
        feedback = await refine_step(attempt, record, roles.refiner, prompts, settings.cache)

    provenance = BuildProvenance(
        attempts=[a.as_record() for a in attempts],
        model_calls=sum(a.calls for a in attempts),
        seed=settings.seed,
        tau=settings.tau,
        length_tolerance=settings.length_tolerance,
        models=_models(roles),
    )
    chosen = passed
    if chosen is None:
        fallback = fallback_step(attempts, truth, roles.embedder)
        if fallback is not None:
            chosen, provenance.fallback_similarities = fallback
    difficulty = None if chosen is None else "easy" if passed is None else chosen.difficulty
    assert difficulty != "failed"  # a passed attempt fooled a discriminator
    return MedHalluBuildRow(
        pubid=record.pubid,
        question=record.question,
        knowledge=record.contexts,
        ground_truth=truth,
        difficulty=difficulty,
        hallucinated_answer=None if chosen is None else chosen.answer,
        category=None if chosen is None else chosen.category or chosen.raw_category or UNSPECIFIED,
        status="no_candidate" if chosen is None else "fallback" if passed is None else "passed",
        fallback=chosen is not None and passed is None,
        chosen_attempt=None if chosen is None else chosen.attempt,
        provenance=provenance,
    )


async def build_question_paper(
    record: PubMedQARecord, roles: BuildRoles, settings: BuildSettings, prompts: PaperPrompts
) -> MedHalluBuildRow:
    """Build one row as the authors' code does (see `_paper_build`): the first candidate
    that fools a discriminator, else the recorded answer closest to the truth as easy; then
    their NLI label of the kept answer (recorded, nothing dropped)."""
    truth = record.long_answer
    attempts, chosen, pool, calls = await paper_attempts(
        record, roles, prompts, settings.cache, resolved(settings.attempts)
    )
    similarities: dict[int, float] | None = None
    answer: str | None = None
    level: Difficulty | None = None
    if chosen is not None:
        answer, level = chosen.answer, difficulty(chosen.votes)
    elif pool:
        vectors = roles.embedder.encode([truth, *pool])
        scores = [float(vectors[0] @ vectors[i + 1]) for i in range(len(pool))]
        best = max(range(len(pool)), key=lambda i: scores[i])
        similarities = dict(enumerate(scores, start=1))
        answer, level = pool[best], "easy"
    nli: dict[str, Any] | None = None
    if answer is not None:
        forward, backward = await roles.nli.entailment_batch([(answer, truth), (truth, answer)])
        calls += 2 if roles.nli.name.startswith("llm:") else 0
        nli = {"forward": forward, "backward": backward, "label": nli_label(forward, backward)}
    provenance = BuildProvenance(
        attempts=attempts, model_calls=calls, seed=settings.seed, tau=PAPER_NLI_THRESHOLD,
        length_tolerance=None, models=_models(roles), fallback_similarities=similarities,
        protocol="paper", nli=nli,
    )  # fmt: skip
    return MedHalluBuildRow(
        pubid=record.pubid, question=record.question, knowledge=record.contexts,
        ground_truth=truth, difficulty=level, hallucinated_answer=answer,
        # Their code names no category (the published data's comes from elsewhere).
        category=None if answer is None else UNSPECIFIED,
        status="no_candidate" if answer is None else "passed" if chosen else "fallback",
        fallback=answer is not None and chosen is None,
        chosen_attempt=len(attempts) if chosen else None, provenance=provenance,
    )  # fmt: skip


def _models(roles: BuildRoles) -> dict[str, Any]:
    return {
        "generator": str(roles.generator),
        "discriminators": [str(m) for m in roles.discriminators],
        "refiner": str(roles.refiner),
        "nli": roles.nli.name,
        "embedder": roles.embedder.name,
    }


@dataclass
class MedHalluBuildSummary(ResumedCounts):
    """Counts over the built rows (and the questions built now and already done:
    `ResumedCounts`)."""

    questions: int = 0
    rows: int = 0
    no_candidate: int = 0
    fallback: int = 0
    difficulties: Counter[str] = field(default_factory=Counter)
    categories: Counter[str] = field(default_factory=Counter)
    attempts: Counter[int] = field(default_factory=Counter)
    model_calls: int = 0
    out: str | None = None

    @property
    def fallback_rate(self) -> float:
        """Share of rows kept by the fallback."""
        return self.fallback / self.rows if self.rows else 0.0

    @property
    def mean_attempts(self) -> float:
        """Attempts per question, on average."""
        return sum(k * v for k, v in self.attempts.items()) / max(1, sum(self.attempts.values()))

    @property
    def calls_per_question(self) -> float:
        """Model calls per question, on average."""
        return self.model_calls / max(1, self.questions)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready summary (the build's `summary.json`)."""
        return {
            "questions": self.questions,
            "rows": self.rows,
            "no_candidate": self.no_candidate,
            "fallback": self.fallback,
            "fallback_rate": self.fallback_rate,
            "difficulty": dict(self.difficulties),
            "category": dict(self.categories),
            "attempts_per_question": {str(k): v for k, v in sorted(self.attempts.items())},
            "mean_attempts": self.mean_attempts,
            "model_calls": self.model_calls,
            "model_calls_per_question": self.calls_per_question,
        }

    def summary(self) -> list[str]:
        """What the build produced, as lines."""
        counts = ", ".join(f"{k}: {v}" for k, v in sorted(self.difficulties.items())) or "none"
        kinds = ", ".join(f"{k}: {v}" for k, v in sorted(self.categories.items())) or "none"
        lines = [] if self.out is None else [self.resumed()]
        lines += [
            f"Questions: {self.questions} -> rows: {self.rows} (no usable candidate: "
            f"{self.no_candidate}); fallback rate {self.fallback_rate:.2f}; mean attempts "
            f"{self.mean_attempts:.2f}; model calls per question {self.calls_per_question:.1f}",
            f"Difficulty: {counts}",
            f"Category: {kinds}",
        ]
        if self.out is not None:
            out = Path(self.out)
            lines.append(
                f"Dataset: {out / DATASET_JSONL} and {out / DATASET_PARQUET}; summary: {out / SUMMARY_FILE}"
            )
        return lines


def summarise(records: Sequence[MedHalluBuildRow]) -> MedHalluBuildSummary:
    """Counts per difficulty and category, attempts per question, fallback rate."""
    summary = MedHalluBuildSummary(questions=len(records))
    for r in records:
        summary.attempts[len(r.provenance.attempts)] += 1
        summary.model_calls += r.provenance.model_calls
        if r.status == "no_candidate":
            summary.no_candidate += 1
            continue
        summary.rows += 1
        summary.fallback += r.fallback
        summary.difficulties[str(r.difficulty)] += 1
        summary.categories[str(r.category)] += 1
    return summary


def write_dataset(records: Sequence[MedHalluBuildRow], out_dir: Path) -> MedHalluBuildSummary:
    """Write the loadable rows as JSONL and Parquet (provenance as a JSON string column in
    Parquet) and the summary; return the summary."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [r.to_published() for r in records if r.status != "no_candidate"]
    with atomic_text(out_dir / DATASET_JSONL) as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    flat = [{**r, "provenance": json.dumps(r["provenance"], ensure_ascii=False)} for r in rows]
    with atomic_path(out_dir / DATASET_PARQUET, binary=True) as parquet:
        pq.write_table(pa.Table.from_pylist(flat), parquet)
    summary = summarise(records)
    summary.out = str(out_dir)
    write_text_atomically(out_dir / SUMMARY_FILE, json.dumps(summary.as_dict(), indent=2))
    return summary


def build_records(request: MedHalluBuild) -> list[PubMedQARecord]:
    """The PubMedQA entries a build (or its shard) covers."""
    return select_shard(load_pubmedqa(request.pubmedqa, limit=request.limit), request.shard)


def select_shard(
    records: Sequence[PubMedQARecord], shard: tuple[int, int] | None
) -> list[PubMedQARecord]:
    """The records of shard i of n (by position), or all."""
    if shard is None:
        return list(records)
    index, count = shard
    return [r for position, r in enumerate(records) if position % count == index]


async def build_medhallu(
    request: MedHalluBuild,
    roles: BuildRoles,
    *,
    records: Sequence[PubMedQARecord] | None = None,
    show_progress: bool = True,
) -> MedHalluBuildSummary:
    """Build MedHallu rows for PubMedQA entries, resumably.

    Each finished question is appended to `records.jsonl` at once; a rerun skips what is
    there. At the end `medhallu.jsonl`, `medhallu.parquet` and `summary.json` are rewritten
    from all finished questions of this run's selection.

    Args:
        request: The build (`medhalbench build medhallu`'s options).
        roles: Its models.
        records: PubMedQA entries to build from instead of the request's own
            (`build_records`: its source, limit and shard).
        show_progress: Show a progress bar.
    """
    protocol = request.protocol
    records = build_records(request) if records is None else records
    if protocol == "paper":
        require_three([str(m) for m in roles.discriminators])
    prompts = BuildPrompts.load(request)
    paper_prompts = PaperPrompts.load()
    out = Path(request.out)
    done = ResumableJsonl(out / RECORDS_FILE, key="pubid")

    async def build(record: PubMedQARecord) -> dict[str, Any]:
        if protocol == "paper":
            row = await build_question_paper(record, roles, request, paper_prompts)
        else:
            row = await build_question(record, roles, request, prompts)
        return row.to_published()

    with progress_bar(disable=not show_progress) as progress:
        run = await run_resumable(
            records, build, key=lambda r: r.pubid, done=done, progress=progress,
            description="MedHallu questions", concurrency=request.concurrency,
        )  # fmt: skip
    wanted = {r.pubid for r in records}
    summary = write_dataset(
        [MedHalluBuildRow.model_validate(r) for r in done.records() if r["pubid"] in wanted], out
    )
    summary.count(run)
    return summary


def merge_shards(shard_dirs: Sequence[str | Path], out_dir: str | Path) -> MedHalluBuildSummary:
    """Merge shard outputs into one dataset.

    Raises:
        DataError: A question appears in two shards with different content, or the folders
            are not one whole set of shards (`check_shard_set`).
    """
    check_shard_set(shard_dirs)
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
    return write_dataset([MedHalluBuildRow.model_validate(r) for r in target.records()], out)


def check_shard_set(shard_dirs: Sequence[str | Path]) -> None:
    """Refuse folders that are not one whole set of shards: a shard missing or given twice,
    shards of different counts, or a `shard.json` out of range (folders built before it are
    taken as they are).

    Raises:
        DataError: Naming the missing, repeated or mismatched shards, or the `shard.json`
            and its field out of range.
    """
    seen: dict[tuple[int, int], str] = {}
    for folder in shard_dirs:
        marker = Path(folder) / SHARD_FILE
        if not marker.is_file():
            continue
        shard = _read_shard_marker(marker)
        if shard in seen:
            raise DataError(
                f"shard {shard[0]}/{shard[1]} given twice (also {seen[shard]})", path=folder
            )
        seen[shard] = str(folder)
    counts = {count for _, count in seen}
    if len(counts) > 1:
        raise DataError(
            f"shards of different splits ({', '.join(f'i/{c}' for c in sorted(counts))}): merge the folders of one --shard I/N set"
        )
    if counts:
        [count] = counts
        _check_none_missing({index for index, _ in seen}, count)


def _read_shard_marker(marker: Path) -> tuple[int, int]:
    """A folder's `shard.json`: its index and count, each a whole number in range.

    Raises:
        DataError: Unreadable, or a field missing, not a whole number or out of range.
    """
    try:
        found = json.loads(marker.read_text(encoding="utf-8"))
        fields = {name: found[name] for name in ("index", "count")}
    except (ValueError, KeyError, TypeError, OSError):
        raise DataError("unreadable shard.json (rebuild this shard)", path=marker) from None
    for name, value in fields.items():
        # bool is an int to Python; a float or text here was not written by the build.
        if not isinstance(value, int) or isinstance(value, bool):
            raise DataError(
                f"field '{name}' is not a whole number: {str(value)[:40]!r}", path=marker
            )
    problem = shard_range_problem(fields["index"], fields["count"])
    if problem is not None:
        name, reason = problem
        raise DataError(f"field '{name}': {reason} (rebuild this shard)", path=marker)
    return fields["index"], fields["count"]


def _check_none_missing(indices: set[int], count: int) -> None:
    """Refuse a set of shard indices (each below `count`) that is not all of them, naming
    the first few missing (never listing all of a large count).

    Raises:
        DataError: Naming the missing shards.
    """
    missing_count = count - len(indices)
    if missing_count == 0:
        return
    missing = (f"{i}/{count}" for i in range(count) if i not in indices)
    named = ", ".join(itertools.islice(missing, NAMED_MISSING))
    more = f" and {missing_count - NAMED_MISSING:,} more" if missing_count > NAMED_MISSING else ""
    raise DataError(
        f"shard{'s' if missing_count > 1 else ''} {named}{more} missing from the "
        f"{len(indices)} given: give every shard folder (build the missing ones first)"
    )


def build_roles(request: MedHalluBuild, models: RoleModels) -> BuildRoles:
    """The build's models: the roles' models, the NLI judge and the embedder."""
    return BuildRoles(
        generator=models.model("generator"),
        discriminators=models.models("discriminator"),
        refiner=models.model("refiner"),
        nli=load_nli(
            request.nli,
            cache=request.cache,
            resolve=lambda name: models.resolve("nli", name),
        ),
        embedder=Embedder(request.embedder),
    )


async def run_medhallu_build(request: MedHalluBuild, models: RoleModels) -> MedHalluBuildSummary:
    """`medhalbench build medhallu`: the build with the command's models."""
    if request.protocol == "paper":  # before any work: a clear refusal
        require_three(models.names.get("discriminator", []))
    if request.shard is not None:
        out = Path(request.out)
        out.mkdir(parents=True, exist_ok=True)
        index, count = request.shard
        (out / SHARD_FILE).write_text(json.dumps({"index": index, "count": count}))
    return await build_medhallu(request, build_roles(request, models))


def run_merge(request: Merge, models: RoleModels) -> MedHalluBuildSummary:
    """`medhalbench merge`."""
    return merge_shards(request.shards, request.out)
