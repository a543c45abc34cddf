"""MedHallu's commands: `eval medhallu`, `build medhallu`, `merge` and `analyze clusters`."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from medhalbench.commands import (
    COUNT,
    SHARE,
    TEMPERATURE,
    absolute,
    builder_model_options,
    console,
    default_of,
    fail_on_unfinished,
    figure_options,
    model_options,
    print_log_locations,
    print_plans,
    prompt_options,
    role_model,
    run_build,
    run_eval,
    show_results,
    split_models,
)
from medhalbench.data import load_pubmedqa
from medhalbench.embeddings import DEFAULT_EMBEDDER, Embedder
from medhalbench.medhallu._build import (
    DATASET_JSONL,
    DATASET_PARQUET,
    SUMMARY_FILE,
    BuildRoles,
    BuildSettings,
    MedHalluBuildSummary,
    build_medhallu,
    merge_shards,
    select_shard,
)
from medhalbench.medhallu._clusters import analyze_clusters
from medhalbench.medhallu._data import MEDHALLU_HUB
from medhalbench.medhallu._plan import medhallu_build_plan
from medhalbench.medhallu._task import medhallu
from medhalbench.models import DEFAULT_MODEL
from medhalbench.nli import llm_judge, load_nli
from medhalbench.results import UNDEFINED, format_cell


@click.command(name="medhallu")
@click.option(
    "--dataset",
    default=MEDHALLU_HUB,
    show_default=True,
    help="MedHallu hub id or local file (JSONL, CSV, Parquet, save_to_disk folder).",
)
@click.option(
    "--config",
    "hub_config",
    default=default_of(medhallu, "config"),
    show_default=True,
    type=click.Choice(["pqa_labeled", "pqa_artificial"]),
    help="Hub config.",
)
@click.option(
    "--split", default=default_of(medhallu, "split"), show_default=True, help="Split to read."
)
@click.option(
    "--knowledge/--no-knowledge",
    default=False,
    show_default=True,
    help="Give the PubMedQA context to the detector.",
)
@click.option(
    "--not-sure", is_flag=True, help="Allow '2: not sure' as an answer; reports response rate."
)
@click.option(
    "--difficulty", default=None, help="Keep rows of these difficulties (e.g. hard or easy,medium)."
)
@click.option("--limit", type=COUNT, default=None, help="Use the first N rows (two samples each).")
@click.option(
    "--pairing",
    type=click.Choice(["both", "random"]),
    default=default_of(medhallu, "pairing"),
    show_default=True,
    help="Judge both answers of every row, or one at random (MedHallu's script).",
)
@click.option(
    "--seed",
    type=int,
    default=default_of(medhallu, "seed"),
    show_default=True,
    help="Seed of the sample order and random pairing.",
)
@prompt_options("{question}, {answer}, {knowledge}")
@click.option(
    "--temperature",
    type=TEMPERATURE,
    default=default_of(medhallu, "temperature"),
    show_default=True,
)
@click.option(
    "--max-tokens", type=COUNT, default=default_of(medhallu, "max_tokens"), show_default=True
)
@figure_options
@model_options()
def eval_medhallu(
    dataset: str,
    hub_config: str,
    split: str,
    knowledge: bool,
    not_sure: bool,
    difficulty: str | None,
    limit: int | None,
    pairing: str,
    seed: int,
    prompt: str | None,
    template: str | None,
    temperature: float,
    max_tokens: int,
    structured: bool,
    probabilities: bool,
    bootstrap: int,
    wide: bool,
    published: bool,
    models: tuple[str, ...],
    **options: Any,
) -> None:
    """MedHallu hallucination detection: each row's true and hallucinated answers."""
    names = split_models(models)
    task = medhallu(
        dataset=absolute(dataset),
        config=hub_config,
        split=split,
        knowledge=knowledge,
        not_sure=not_sure,
        difficulty=difficulty,
        limit=limit,
        pairing=pairing,  # type: ignore[arg-type]
        seed=seed,
        prompt=absolute(prompt),
        template=absolute(template),
        temperature=temperature,
        max_tokens=max_tokens,
        structured=structured,
        probabilities=probabilities,
        bootstrap=bootstrap,
    )
    logs = run_eval(task, models=names, options=options)
    show_results(console, logs, wide=wide, published=published)
    print_log_locations(logs, options["log_dir"])
    fail_on_unfinished(logs)


def parse_shard(value: str | None) -> tuple[int, int] | None:
    """Parse `i/n` (0-based shard i of n)."""
    if not value:
        return None
    try:
        index, count = (int(x) for x in value.split("/"))
    except ValueError:
        raise click.BadParameter(f"expected i/n, got {value!r}", param_hint="--shard") from None
    if not 0 <= index < count:
        raise click.BadParameter(f"shard index must be in 0..{count - 1}", param_hint="--shard")
    return index, count


def print_medhallu_summary(summary: MedHalluBuildSummary, out: Path) -> None:
    """Print what a MedHallu build or merge produced."""
    s = summary.as_dict()
    console.print(
        f"Questions: {s['questions']} -> rows: {s['rows']} (no usable candidate: {s['no_candidate']}); "
        f"fallback rate {s['fallback_rate']:.2f}; mean attempts {s['mean_attempts']:.2f}; "
        f"model calls per question {s['model_calls_per_question']:.1f}"
    )
    console.print(
        "Difficulty: "
        + (", ".join(f"{k}: {v}" for k, v in sorted(s["difficulty"].items())) or "none")
    )
    console.print(
        "Category: " + (", ".join(f"{k}: {v}" for k, v in sorted(s["category"].items())) or "none")
    )
    console.print(
        f"Dataset: {out / DATASET_JSONL} and {out / DATASET_PARQUET}; summary: {out / SUMMARY_FILE}"
    )


@click.command(name="medhallu")
@click.option(
    "--pubmedqa",
    required=True,
    help="PubMedQA: ori_pqal.json, a hub-layout file, or qiaojin/PubMedQA.",
)
@click.option(
    "--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Output folder."
)
@click.option(
    "--generator",
    default=DEFAULT_MODEL,
    show_default=True,
    help="Model that writes hallucinated answers.",
)
@click.option(
    "--discriminator",
    "discriminators",
    multiple=True,
    help=f"Discriminator model; repeat for an ensemble (default: {DEFAULT_MODEL}).",
)
@click.option(
    "--refiner",
    default=DEFAULT_MODEL,
    show_default=True,
    help="Model that critiques failed candidates.",
)
@click.option(
    "--nli",
    default="llm",
    show_default=True,
    help="'llm' (embedded judge), 'llm:MODEL', or a transformers NLI model name/path (e.g. microsoft/deberta-large-mnli).",
)
@click.option(
    "--embedder",
    default=DEFAULT_EMBEDDER,
    show_default=True,
    help="Sentence-transformers model for the fallback's similarity.",
)
@click.option(
    "--attempts", type=COUNT, default=default_of(BuildSettings, "attempts"), show_default=True
)
@click.option(
    "--tau",
    type=SHARE,
    default=default_of(BuildSettings, "tau"),
    show_default=True,
    help="Bidirectional entailment at or above which a candidate equals the truth.",
)
@click.option(
    "--length-tolerance",
    type=SHARE,
    default=default_of(BuildSettings, "length_tolerance"),
    show_default=True,
    help="Allowed relative difference in words from the ground truth.",
)
@click.option("--limit", type=COUNT, default=None, help="Use the first N questions.")
@click.option(
    "--shard",
    default=None,
    callback=lambda ctx, param, value: parse_shard(value),
    help="Build shard i of n (0-based), e.g. 0/4; merge shards with 'medhalbench merge'.",
)
@click.option("--seed", type=int, default=default_of(BuildSettings, "seed"), show_default=True)
@click.option(
    "--concurrency",
    type=COUNT,
    default=default_of(build_medhallu, "concurrency"),
    show_default=True,
    help="Questions in flight at once.",
)
@click.option(
    "--generate-prompt",
    type=click.Path(dir_okay=False),
    default=None,
    help="File replacing the generator prompt.",
)
@click.option(
    "--discriminate-prompt",
    type=click.Path(dir_okay=False),
    default=None,
    help="File replacing the discriminator prompt.",
)
@click.option(
    "--refine-prompt",
    type=click.Path(dir_okay=False),
    default=None,
    help="File replacing the refiner prompt.",
)
@click.option("--cache/--no-cache", default=True, show_default=True)
@builder_model_options(roles=("generator", "discriminator", "refiner", "nli"))
def build_medhallu_command(
    pubmedqa: str,
    out_dir: str,
    generator: str,
    discriminators: tuple[str, ...],
    refiner: str,
    nli: str,
    embedder: str,
    attempts: int,
    tau: float,
    length_tolerance: float,
    limit: int | None,
    shard: tuple[int, int] | None,
    seed: int,
    concurrency: int,
    generate_prompt: str | None,
    discriminate_prompt: str | None,
    refine_prompt: str | None,
    cache: bool,
    **options: Any,
) -> None:
    """Build MedHallu rows: a subtle hallucinated answer and its difficulty per question."""
    disc_names = list(discriminators) or [DEFAULT_MODEL]
    settings = BuildSettings(
        attempts=attempts,
        tau=tau,
        length_tolerance=length_tolerance,
        seed=seed,
        cache=cache,
        generate_prompt=generate_prompt,
        discriminate_prompt=discriminate_prompt,
        refine_prompt=refine_prompt,
    )
    if options.get("dry_run"):
        records = select_shard(load_pubmedqa(pubmedqa, limit=limit), shard)
        judge = llm_judge(nli)
        models = {"generator": generator, "refiner": refiner, **({"nli": judge} if judge else {})}
        print_plans(console, [medhallu_build_plan(records, settings, models, disc_names)], options)
        return
    console.print(
        f"[bold]Generator:[/bold] {generator}  [bold]Discriminators:[/bold] {', '.join(disc_names)}  [bold]Refiner:[/bold] {refiner}"
    )
    console.print(f"[bold]NLI:[/bold] {nli}  [bold]Embedder:[/bold] {embedder}")
    roles = BuildRoles(
        generator=role_model("generator", generator, options),
        discriminators=[role_model("discriminator", name, options) for name in disc_names],
        refiner=role_model("refiner", refiner, options),
        nli=load_nli(nli, cache=cache, resolve=lambda name: role_model("nli", name, options)),
        embedder=Embedder(embedder),
    )
    records = select_shard(load_pubmedqa(pubmedqa, limit=limit), shard)
    summary = run_build(
        build_medhallu(records, out_dir, roles, settings, concurrency=concurrency), out_dir
    )
    console.print(f"Built now: {summary.processed_now}; already done: {summary.skipped_done}")
    print_medhallu_summary(summary, Path(out_dir))


@click.command(name="merge")
@click.option(
    "--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Output folder."
)
@click.argument("shards", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
def merge_command(out_dir: str, shards: tuple[str, ...]) -> None:
    """Merge MedHallu build shards (folders written with --shard) into one dataset."""
    summary = merge_shards(shards, out_dir)
    print_medhallu_summary(summary, Path(out_dir))


@click.group(name="analyze")
def analyze_group() -> None:
    """Analyses behind the papers' tables."""


@analyze_group.command(name="clusters")
@click.option(
    "--pubmedqa",
    required=True,
    help="PubMedQA: ori_pqal.json, a hub-layout file, or qiaojin/PubMedQA.",
)
@click.option(
    "--candidates",
    "k",
    type=COUNT,
    default=default_of(analyze_clusters, "candidates"),
    show_default=True,
    help="Candidates generated per question.",
)
@click.option(
    "--threshold",
    type=SHARE,
    default=default_of(analyze_clusters, "threshold"),
    show_default=True,
    help="Bidirectional entailment that puts two answers in one cluster.",
)
@click.option("--generator", default=DEFAULT_MODEL, show_default=True)
@click.option(
    "--discriminator",
    "discriminators",
    multiple=True,
    help=f"Discriminator model; repeat for several (default: {DEFAULT_MODEL}).",
)
@click.option(
    "--nli",
    default="llm",
    show_default=True,
    help="'llm', 'llm:MODEL', or a transformers NLI model name/path.",
)
@click.option("--embedder", default=DEFAULT_EMBEDDER, show_default=True)
@click.option("--limit", type=COUNT, default=None, help="Use the first N questions.")
@click.option("--seed", type=int, default=default_of(BuildSettings, "seed"), show_default=True)
@click.option(
    "--out",
    "out_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write per-question clusters and the table as JSON.",
)
@click.option("--cache/--no-cache", default=True, show_default=True)
@builder_model_options(roles=("generator", "discriminator", "nli"), plans=False)
def clusters_command(
    pubmedqa: str,
    k: int,
    threshold: float,
    generator: str,
    discriminators: tuple[str, ...],
    nli: str,
    embedder: str,
    limit: int | None,
    seed: int,
    out_file: str | None,
    cache: bool,
    **options: Any,
) -> None:
    """Cluster K hallucinated candidates per question with the truth by bidirectional
    entailment; compare fooling and non-fooling clusters to the truth."""
    roles = BuildRoles(
        generator=role_model("generator", generator, options),
        discriminators=[
            role_model("discriminator", d, options) for d in (discriminators or (DEFAULT_MODEL,))
        ],
        refiner=role_model("generator", generator, options),
        nli=load_nli(nli, cache=cache, resolve=lambda name: role_model("nli", name, options)),
        embedder=Embedder(embedder),
    )
    analysis = run_build(
        analyze_clusters(
            load_pubmedqa(pubmedqa, limit=limit),
            roles,
            BuildSettings(seed=seed, cache=cache),
            candidates=k,
            threshold=threshold,
        ),
        out_file or "nothing (--out not given)",
    )
    table = Table(title="Fooling vs non-fooling clusters, distance to the ground truth")
    for column in ("Measure", "Fooling", "Non-fooling", "p (Welch t)"):
        table.add_column(column, justify="left" if column == "Measure" else "right")
    names = {
        "cosine": "Cosine similarity",
        "euclidean": "Euclidean distance",
        "rouge1": "ROUGE-1 F1",
    }
    for measure, row in analysis.table.items():
        table.add_row(
            names[measure],
            format_cell(row["fooling"]),
            format_cell(row["non_fooling"]),
            format_cell(row["p_value"], 4),
        )
    console.print(table)
    counts = analysis.table["cosine"]
    console.print(
        f"Clusters: {counts['fooling_clusters']:.0f} fooling, {counts['non_fooling_clusters']:.0f} non-fooling; "
        f"the ground truth joined a candidate cluster in {analysis.ground_truth_joined} of {len(analysis.questions)} questions."
    )
    if out_file:
        # Valid JSON: an undefined figure (no cluster of a kind, a t-test on one value) is null.
        Path(out_file).write_text(
            json.dumps(
                _nan_to_null(
                    {
                        "table": analysis.table,
                        "ground_truth_joined": analysis.ground_truth_joined,
                        "questions": analysis.questions,
                    }
                ),
                indent=2,
                allow_nan=False,
            )
        )
        console.print(f"Details: {out_file}")
    undefined = [m for m, row in analysis.table.items() if any(_nan(v) for v in row.values())]
    if undefined:
        console.print(
            f"{UNDEFINED} undefined: a kind of cluster is missing or too small for a t-test."
        )


def _nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


def _nan_to_null(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _nan_to_null(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_nan_to_null(v) for v in value]
    return None if _nan(value) else value
