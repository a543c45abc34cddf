"""The MedHal builder: several medical tasks turned into one statement format, resumably."""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from inspect_ai.model import Model

from medhalbench._progress import progress_bar
from medhalbench.data import ResumableJsonl, run_resumable
from medhalbench.medhal._convert import (
    Conversion,
    Converter,
    convert_nli,
    convert_note,
    convert_qa,
    convert_summary,
    estimate_tokens,
)
from medhalbench.medhal._records import medhal_features, medhal_fields
from medhalbench.medhal._sources import (
    NLIItem,
    NoteItem,
    QAItem,
    ReadReport,
    SummaryItem,
    read_source,
)
from medhalbench.nli import NLIModel

ITEMS_FILE = "items.jsonl"
SPLITS = {"train": 0.8, "validation": 0.1, "test": 0.1}
RECORD_FIELDS = medhal_fields()


@dataclass
class SourceCounts:
    """Per-source counts of a build."""

    rows: int = 0
    items: int = 0
    samples: int = 0
    dropped: Counter[str] = field(default_factory=Counter)


@dataclass
class MedHalBuildSummary:
    """Counts per source and per split."""

    sources: dict[str, SourceCounts] = field(default_factory=dict)
    splits: dict[str, int] = field(default_factory=dict)
    processed_now: int = 0
    skipped_done: int = 0


async def _convert(
    item: Any,
    source: str,
    converter: Converter,
    rng: random.Random,
    others: dict[str, list[str]],
    per_note: int,
) -> Conversion:
    if isinstance(item, QAItem):
        return await convert_qa(item, source, converter, rng)
    if isinstance(item, NLIItem):
        return convert_nli(item, source)
    if isinstance(item, NoteItem):
        return await convert_note(item, source, converter, rng, others, per_note)
    if isinstance(item, SummaryItem):
        return await convert_summary(item, source, converter, rng)
    raise TypeError(f"unknown item {type(item).__name__}")


def _apply_budget(conversion: Conversion, budget: int) -> Conversion:
    """Drop whole pairs (factual and non-factual together) whose sample is over budget."""
    kept, dropped = [], Counter(conversion.dropped)
    for f, n in zip(conversion.samples[::2], conversion.samples[1::2], strict=True):
        if max(estimate_tokens(s["context"], s["statement"]) for s in (f, n)) > budget:
            dropped["over_budget"] += 2
        else:
            kept += [f, n]
    return Conversion(kept, dict(dropped), conversion.raw)


def assign_splits(item_keys: Sequence[str], seed: int) -> dict[str, str]:
    """Seeded 80/10/10 split by item, so a factual sample and its non-factual pair (and all
    samples of one source item) land in the same split."""
    keys = sorted(item_keys)
    random.Random(seed).shuffle(keys)
    n = len(keys)
    train_end = round(n * SPLITS["train"])
    validation_end = train_end + round(n * SPLITS["validation"])
    return {
        k: "train" if i < train_end else "validation" if i < validation_end else "test"
        for i, k in enumerate(keys)
    }


def write_outputs(records: Sequence[dict[str, Any]], out: Path, seed: int) -> dict[str, int]:
    """Write `{split}.jsonl` files and the `dataset/` DatasetDict; return split sizes."""
    import datasets

    datasets.disable_progress_bars()
    split_of = assign_splits([r["item_key"] for r in records if r["samples"]], seed)
    by_split: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        for sample in r["samples"]:
            by_split[split_of[r["item_key"]]].append(
                {name: sample.get(name) for name in RECORD_FIELDS}
            )
    features = medhal_features()
    for split in SPLITS:
        with (out / f"{split}.jsonl").open("w", encoding="utf-8") as f:
            for sample in by_split[split]:
                f.write(json.dumps(sample, ensure_ascii=False) + "\n")
    datasets.DatasetDict(
        {
            # From columns, so that an empty split still has its fields.
            split: datasets.Dataset.from_dict(
                {name: [s[name] for s in by_split[split]] for name in RECORD_FIELDS},
                features=features,
            )
            for split in SPLITS
        }
    ).save_to_disk(
        str(out / "dataset"),
        # One shard each: datasets cannot reload an empty split saved with zero shards.
        num_shards=dict.fromkeys(SPLITS, 1),
    )
    return {split: len(by_split[split]) for split in SPLITS}


def item_key(source: str, item: Any) -> str:
    """A source item's key in `items.jsonl`."""
    return f"{source}:{item.inner_id}"


async def build_medhal(
    sources: Sequence[tuple[str, str]],
    out_dir: str | Path,
    converter_model: Model,
    *,
    limit: int | None = None,
    max_tokens: int = 8192,
    facts_per_note: int = 2,
    seed: int = 42,
    concurrency: int = 4,
    cache: bool = True,
    show_progress: bool = True,
    nli: NLIModel | None = None,
    nli_threshold: float = 0.5,
) -> MedHalBuildSummary:
    """Build the MedHal dataset from sources.

    Args:
        sources: (name, path) pairs; names: medqa, medmcqa, mednli, acn, sumpubmed.
        out_dir: Output folder: `items.jsonl` (finished items, for resuming),
            `train/validation/test.jsonl`, `dataset/` (a DatasetDict) and `summary.json`.
        converter_model: The `converter` model role.
        limit: Use the first N items of each source.
        max_tokens: Estimated token budget of context + statement; larger pairs are dropped.
        facts_per_note: Key-values used per clinical note.
        seed: Seed of option, sentence and key choices and of the split.
        concurrency: Items in flight at once.
        cache: Cache converter calls.
        show_progress: Show progress bars.
        nli: NLI judge that must also find each QA statement entailed by its question and
            option (besides naming the option); None: the word match alone.
        nli_threshold: Entailment probability a QA statement needs.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    done = ResumableJsonl(out / ITEMS_FILE, key="item_key")
    converter = Converter(converter_model, cache=cache, nli=nli, nli_threshold=nli_threshold)
    summary = MedHalBuildSummary()
    wanted: set[str] = set()
    with progress_bar(disable=not show_progress) as progress:
        for name, path in sources:
            report = ReadReport()
            items = read_source(name, path, report)[:limit]
            counts = summary.sources.setdefault(name, SourceCounts())
            counts.rows += report.rows
            counts.dropped.update(report.skipped)
            others: dict[str, list[str]] = defaultdict(list)
            for item in items:
                if isinstance(item, NoteItem):
                    for key, value in item.facts.items():
                        others[key].append(value)
            wanted.update(item_key(name, item) for item in items)

            async def convert(
                item: Any, source: str = name, values: dict[str, list[str]] = others
            ) -> dict[str, Any]:
                key = item_key(source, item)
                rng = random.Random(f"{seed}:{key}")
                conversion = await _convert(item, source, converter, rng, values, facts_per_note)
                conversion = _apply_budget(conversion, max_tokens)
                return {
                    "item_key": key,
                    "source": source,
                    "samples": conversion.samples,
                    "dropped": conversion.dropped,
                    "raw": conversion.raw,
                }

            run = await run_resumable(
                items, convert, key=partial(item_key, name),
                done=done, progress=progress, description=f"MedHal {name}", concurrency=concurrency,
            )  # fmt: skip
            summary.processed_now += run.processed
            summary.skipped_done += run.skipped
    records = [r for r in done.records() if r["item_key"] in wanted]
    for r in records:
        counts = summary.sources[r["source"]]
        counts.items += 1
        counts.samples += len(r["samples"])
        counts.dropped.update(r["dropped"])
    summary.splits = write_outputs(records, out, seed)
    (out / "summary.json").write_text(
        json.dumps(
            {
                "sources": {
                    k: {
                        "rows": v.rows,
                        "items": v.items,
                        "samples": v.samples,
                        "dropped": dict(v.dropped),
                    }
                    for k, v in summary.sources.items()
                },
                "splits": summary.splits,
                "max_tokens": max_tokens,
                "seed": seed,
                "converter": str(converter_model),
            },
            indent=2,
        )
    )
    return summary
