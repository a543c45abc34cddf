"""MedHal's commands: `eval medhal`, `build medhal` and `train medhal`."""

from __future__ import annotations

from typing import Any

import click

from medhalbench.commands import (
    COUNT,
    POSITIVE,
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
from medhalbench.embeddings import DEFAULT_EMBEDDER
from medhalbench.medhal._build import build_medhal
from medhalbench.medhal._plan import medhal_build_plan
from medhalbench.medhal._task import medhal
from medhalbench.medhal._train import TrainSettings, train_medhal
from medhalbench.models import DEFAULT_MODEL
from medhalbench.nli import llm_judge, load_nli


@click.command(name="medhal")
@click.option(
    "--dataset",
    required=True,
    help="MedHal build folder, DatasetDict folder, JSONL/CSV/Parquet file, or hub id.",
)
@click.option("--split", default=default_of(medhal, "split"), show_default=True)
@click.option("--limit", type=COUNT, default=None, help="Use the first N samples.")
@click.option("--sources", default=None, help="Comma-separated sources to keep.")
@prompt_options("{context_block}, {statement}")
@click.option(
    "--temperature", type=TEMPERATURE, default=default_of(medhal, "temperature"), show_default=True
)
@click.option(
    "--max-tokens", type=COUNT, default=default_of(medhal, "max_tokens"), show_default=True
)
@click.option(
    "--embedder",
    default=DEFAULT_EMBEDDER,
    show_default=True,
    help="Sentence-transformers model for the explanation similarity (MedHal's code uses all-MiniLM-L6-v2); 'none' turns it off.",
)
@figure_options
@model_options()
def eval_medhal(
    dataset: str,
    split: str,
    limit: int | None,
    sources: str | None,
    prompt: str | None,
    template: str | None,
    temperature: float,
    max_tokens: int,
    embedder: str,
    structured: bool,
    probabilities: bool,
    bootstrap: int,
    wide: bool,
    published: bool,
    models: tuple[str, ...],
    **options: Any,
) -> None:
    """MedHal: is the statement factual (given its context), and why not?"""
    names = split_models(models)
    task = medhal(
        dataset=absolute(dataset),
        split=split,
        limit=limit,
        sources=sources,
        prompt=absolute(prompt),
        template=absolute(template),
        temperature=temperature,
        max_tokens=max_tokens,
        structured=structured,
        probabilities=probabilities,
        embedder=embedder,
        bootstrap=bootstrap,
    )
    logs = run_eval(task, models=names, options=options)
    show_results(console, logs, wide=wide, published=published)
    print_log_locations(logs, options["log_dir"])
    fail_on_unfinished(logs)


def parse_sources(values: tuple[str, ...]) -> list[tuple[str, str]]:
    """Parse repeated `--source NAME=PATH`."""
    pairs = []
    for value in values:
        if "=" not in value:
            raise click.BadParameter(f"expected NAME=PATH, got {value!r}", param_hint="--source")
        name, path = value.split("=", 1)
        pairs.append((name.strip().lower(), path.strip()))
    return pairs


@click.command(name="medhal")
@click.option(
    "--source",
    "sources",
    multiple=True,
    required=True,
    help="NAME=PATH, repeatable; names: medqa, medmcqa (QA layouts), mednli, acn (Augmented Clinical Notes), sumpubmed (folder).",
)
@click.option(
    "--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Output folder."
)
@click.option(
    "--converter", default=DEFAULT_MODEL, show_default=True, help="Model that writes statements."
)
@click.option("--limit", type=COUNT, default=None, help="Use the first N items of each source.")
@click.option(
    "--max-tokens",
    type=COUNT,
    default=default_of(build_medhal, "max_tokens"),
    show_default=True,
    help="Token budget (estimated at 4 characters a token) of context + statement; larger pairs are dropped and counted.",
)
@click.option(
    "--facts-per-note",
    type=COUNT,
    default=default_of(build_medhal, "facts_per_note"),
    show_default=True,
    help="Key-values used per clinical note.",
)
@click.option(
    "--nli",
    default=None,
    help="Also require each QA statement to be entailed by its question and option: 'llm', 'llm:MODEL' or a transformers NLI model (default: the word match alone).",
)
@click.option(
    "--nli-threshold",
    type=click.FloatRange(0, 1),
    default=default_of(build_medhal, "nli_threshold"),
    show_default=True,
    help="Entailment probability a QA statement needs (with --nli).",
)
@click.option("--seed", type=int, default=default_of(build_medhal, "seed"), show_default=True)
@click.option(
    "--concurrency", type=COUNT, default=default_of(build_medhal, "concurrency"), show_default=True
)
@click.option("--cache/--no-cache", default=True, show_default=True)
@builder_model_options(roles=("converter", "nli"))
def build_medhal_command(
    sources: tuple[str, ...],
    out_dir: str,
    converter: str,
    limit: int | None,
    max_tokens: int,
    facts_per_note: int,
    seed: int,
    concurrency: int,
    cache: bool,
    nli: str | None,
    nli_threshold: float,
    **options: Any,
) -> None:
    """Build MedHal: paired factual / non-factual statements from medical datasets."""
    if options.get("dry_run"):
        judge = llm_judge(nli) if nli else None
        plan = medhal_build_plan(
            parse_sources(sources), converter, limit=limit, facts_per_note=facts_per_note,
            nli_judge=judge,
        )  # fmt: skip
        print_plans(console, [plan], options)
        return
    console.print(f"[bold]Converter model:[/bold] {converter}")
    summary = run_build(
        build_medhal(
            parse_sources(sources),
            out_dir,
            role_model("converter", converter, options),
            limit=limit,
            max_tokens=max_tokens,
            facts_per_note=facts_per_note,
            seed=seed,
            concurrency=concurrency,
            cache=cache,
            nli=load_nli(nli, cache=cache, resolve=lambda name: role_model("nli", name, options))
            if nli
            else None,
            nli_threshold=nli_threshold,
        ),
        out_dir,
    )
    for name, counts in summary.sources.items():
        dropped = ", ".join(f"{k}: {v}" for k, v in sorted(counts.dropped.items())) or "none"
        console.print(
            f"{name}: {counts.rows} rows, {counts.items} items -> {counts.samples} samples (dropped: {dropped})"
        )
    console.print("Splits: " + ", ".join(f"{k}: {v}" for k, v in summary.splits.items()))
    console.print(
        f"Built now: {summary.processed_now}; already done: {summary.skipped_done}; output: {out_dir}/dataset and {out_dir}/*.jsonl"
    )


@click.group(name="train")
def train_group() -> None:
    """Fine-tune small evaluators."""


@train_group.command(name="medhal")
@click.option(
    "--base",
    default=DEFAULT_MODEL,
    show_default=True,
    help="Base model: embedded/smollm2 (dequantised from its GGUF), embedded/PATH.gguf, a local folder or a hub name.",
)
@click.option(
    "--data",
    required=True,
    help="A MedHal build folder (its train split is used) or DatasetDict folder.",
)
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False),
    help="Output folder (adapter/, merged/, base/, training.json).",
)
@click.option("--steps", type=COUNT, default=default_of(TrainSettings, "steps"), show_default=True)
@click.option(
    "--batch-size", type=COUNT, default=default_of(TrainSettings, "batch_size"), show_default=True
)
@click.option(
    "--learning-rate",
    type=POSITIVE,
    default=default_of(TrainSettings, "learning_rate"),
    show_default=True,
)
@click.option(
    "--lora-r", type=COUNT, default=default_of(TrainSettings, "lora_r"), show_default=True
)
@click.option(
    "--lora-alpha", type=COUNT, default=default_of(TrainSettings, "lora_alpha"), show_default=True
)
@click.option(
    "--max-length",
    type=COUNT,
    default=default_of(TrainSettings, "max_length"),
    show_default=True,
    help="Tokens per example (long contexts are cut).",
)
@click.option("--limit", type=COUNT, default=None, help="Use the first N training samples.")
@click.option("--seed", type=int, default=default_of(TrainSettings, "seed"), show_default=True)
def train_medhal_command(
    base: str, data: str, out_dir: str, steps: int, batch_size: int, learning_rate: float,
    lora_r: int, lora_alpha: int, max_length: int, limit: int | None, seed: int,
) -> None:  # fmt: skip
    """LoRA fine-tune of a MedHal evaluator (QLoRA on CUDA), loss on the answer only."""
    console.print(f"[bold]Base model:[/bold] {base}")
    result = train_medhal(
        base, data, out_dir,
        TrainSettings(steps=steps, batch_size=batch_size, learning_rate=learning_rate, lora_r=lora_r, lora_alpha=lora_alpha, max_length=max_length, limit=limit, seed=seed),
    )  # fmt: skip
    first, last = result.losses[: max(1, steps // 10)], result.losses[-max(1, steps // 10) :]
    console.print(
        f"{result.examples} examples, {result.steps} steps in {result.seconds:.0f} s "
        f"({'QLoRA 4-bit' if result.quantized else 'LoRA'}); loss {sum(first) / len(first):.3f} -> {sum(last) / len(last):.3f}"
    )
    console.print(f"Adapter: {result.adapter_dir}\nMerged model: {result.merged_dir}")
    files = result.gguf_files()
    if files:
        console.print(f"GGUF (base, fine-tuned): {files[0]}, {files[1]}")
        console.print(
            f"Compare: medhalbench eval medhal --dataset {data} --model embedded/{files[0]} --model embedded/{files[1]}"
        )
    else:
        console.print(
            f"Compare: medhalbench eval medhal --dataset {data} --model hf/{base} --model hf/{result.merged_dir}"
        )
