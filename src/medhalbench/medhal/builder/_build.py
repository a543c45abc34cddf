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
from medhalbench.data import (
    ResumableJsonl,
    ResumedCounts,
    atomic_text,
    run_resumable,
    write_text_atomically,
)
from medhalbench.medhal._dataset import medhal_features, medhal_fields
from medhalbench.medhal._settings import MedHalBuild
from medhalbench.medhal.builder._convert import (
    Conversion,
    Converter,
    NoteValues,
    convert_nli,
    convert_note,
    convert_qa,
    convert_summary,
    estimate_tokens,
)
from medhalbench.medhal.builder._rules import within_paper_length
from medhalbench.medhal.builder._sources import (
    NLIItem,
    NoteItem,
    QAItem,
    ReadReport,
    SummaryItem,
    read_source,
)
from medhalbench.nli import NLIModel, load_nli
from medhalbench.registry import RoleModels
from medhalbench.settings import BuildProtocol, resolved

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
class MedHalBuildSummary(ResumedCounts):
    """Counts per source and per split (and the items built now and already done, over
    every source: `ResumedCounts`)."""

    sources: dict[str, SourceCounts] = field(default_factory=dict)
    splits: dict[str, int] = field(default_factory=dict)
    out: str = ""

    def summary(self) -> list[str]:
        """What the build produced, as lines."""
        lines = []
        for name, counts in self.sources.items():
            dropped = ", ".join(f"{k}: {v}" for k, v in sorted(counts.dropped.items())) or "none"
            lines.append(
                f"{name}: {counts.rows} rows, {counts.items} items -> {counts.samples} samples "
                f"(dropped: {dropped})"
            )
        return lines + [
            "Splits: " + ", ".join(f"{k}: {v}" for k, v in self.splits.items()),
            f"{self.resumed()}; output: {self.out}/dataset and {self.out}/*.jsonl",
        ]


async def run_medhal_build(request: MedHalBuild, models: RoleModels) -> MedHalBuildSummary:
    """`medhalbench build medhal`: the build with the command's converter."""
    nli = (
        load_nli(request.nli, cache=request.cache, resolve=lambda n: models.resolve("nli", n))
        if request.nli
        else None
    )
    return await build_medhal(request, models.model("converter"), nli=nli)


async def _convert(
    item: Any, source: str, converter: Converter, rng: random.Random, values: NoteValues
) -> Conversion:
    if isinstance(item, QAItem):
        return await convert_qa(item, source, converter, rng)
    if isinstance(item, NLIItem):
        return convert_nli(item, source)
    if isinstance(item, NoteItem):
        return await convert_note(item, source, converter, rng, values)
    if isinstance(item, SummaryItem):
        return await convert_summary(item, source, converter, rng)
    raise TypeError(f"unknown item {type(item).__name__}")


def _apply_budget(
    conversion: Conversion, budget: int | None, protocol: BuildProtocol
) -> Conversion:
    """Drop whole pairs (factual and non-factual together) whose sample is over budget;
    with `paper`, each sample of 30,000 characters or more on its own (theirs)."""
    kept, dropped = [], Counter(conversion.dropped)
    if protocol == "paper":
        for s in conversion.samples:
            if within_paper_length(s["context"], s["statement"]):
                kept.append(s)
            else:
                dropped["over_length"] += 1
        return Conversion(kept, dict(dropped), conversion.raw)
    for f, n in zip(conversion.samples[::2], conversion.samples[1::2], strict=True):
        if max(estimate_tokens(s["context"], s["statement"]) for s in (f, n)) > resolved(budget):
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
        with atomic_text(out / f"{split}.jsonl") as f:
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
    request: MedHalBuild,
    converter_model: Model,
    *,
    nli: NLIModel | None = None,
    show_progress: bool = True,
) -> MedHalBuildSummary:
    """Build the MedHal dataset from sources into `request.out`: `items.jsonl` (finished
    items, for resuming), `train/validation/test.jsonl`, `dataset/` (a DatasetDict) and
    `summary.json`.

    Args:
        request: The build's settings (`medhalbench build medhal`'s options).
        converter_model: The `converter` model role.
        nli: NLI judge that must also find each QA statement entailed by its question and
            option (besides naming the option), at `request.nli_threshold`; None: the word
            match alone.
        show_progress: Show progress bars.
    """
    protocol, seed, max_tokens = request.protocol, request.seed, request.max_tokens
    out = Path(request.out)
    out.mkdir(parents=True, exist_ok=True)
    done = ResumableJsonl(out / ITEMS_FILE, key="item_key")
    converter = Converter(
        converter_model, cache=request.cache, nli=nli, nli_threshold=request.nli_threshold,
        protocol=protocol,
    )  # fmt: skip
    summary = MedHalBuildSummary(out=str(request.out))
    wanted: set[str] = set()
    with progress_bar(disable=not show_progress) as progress:
        for name, path in request.sources:
            report = ReadReport()
            items = read_source(name, path, report)[: request.limit]
            counts = summary.sources.setdefault(name, SourceCounts())
            counts.rows += report.rows
            counts.dropped.update(report.skipped)
            note_values = NoteValues.of(items, request.facts_per_note)
            wanted.update(item_key(name, item) for item in items)

            async def convert(
                item: Any, source: str = name, values: NoteValues = note_values
            ) -> dict[str, Any]:
                key = item_key(source, item)
                rng = random.Random(f"{seed}:{key}")
                conversion = await _convert(item, source, converter, rng, values)
                conversion = _apply_budget(conversion, max_tokens, protocol)
                return {
                    "item_key": key,
                    "source": source,
                    "samples": conversion.samples,
                    "dropped": conversion.dropped,
                    "raw": conversion.raw,
                }

            run = await run_resumable(
                items, convert, key=partial(item_key, name),
                done=done, progress=progress, description=f"MedHal {name}",
                concurrency=request.concurrency,
            )  # fmt: skip
            summary.count(run)
    records = [r for r in done.records() if r["item_key"] in wanted]
    for r in records:
        counts = summary.sources[r["source"]]
        counts.items += 1
        counts.samples += len(r["samples"])
        counts.dropped.update(r["dropped"])
    summary.splits = write_outputs(records, out, seed)
    write_text_atomically(
        out / "summary.json",
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
                "protocol": protocol,
                "seed": seed,
                "converter": str(converter_model),
            },
            indent=2,
        ),
    )
    return summary
