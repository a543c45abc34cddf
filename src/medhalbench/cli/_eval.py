"""`medhalbench eval ...`: run a system's evaluation task through inspect."""

from __future__ import annotations

from typing import Any

import click

from medhalbench.cli._common import (
    console,
    fail_on_unfinished,
    model_options,
    print_log_locations,
    run_eval,
    split_models,
)
from medhalbench.cli._tables import detection_table
from medhalbench.data import MEDHALLU_HUB
from medhalbench.medhallu import medhallu
from medhalbench.medhallu._results import detection_result


@click.group(name="eval")
def eval_group() -> None:
    """Evaluate models on a system's benchmark (logs are inspect logs)."""


@eval_group.command(name="medhallu")
@click.option(
    "--dataset",
    default=MEDHALLU_HUB,
    show_default=True,
    help="MedHallu hub id or local file (JSONL, CSV, Parquet, save_to_disk folder).",
)
@click.option(
    "--config",
    "hub_config",
    default="pqa_labeled",
    show_default=True,
    type=click.Choice(["pqa_labeled", "pqa_artificial"]),
    help="Hub config.",
)
@click.option("--split", default="train", show_default=True, help="Split to read.")
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
@click.option("--limit", type=int, default=None, help="Use the first N rows (two samples each).")
@click.option(
    "--pairing",
    type=click.Choice(["both", "random"]),
    default="both",
    show_default=True,
    help="Judge both answers of every row, or one at random (MedHallu's script).",
)
@click.option(
    "--seed",
    type=int,
    default=42,
    show_default=True,
    help="Seed of the sample order and random pairing.",
)
@click.option(
    "--prompt",
    type=click.Path(dir_okay=False),
    default=None,
    help="File replacing the system prompt.",
)
@click.option(
    "--template",
    type=click.Path(dir_okay=False),
    default=None,
    help="File replacing the user template ({question}, {answer}, {knowledge}).",
)
@click.option("--temperature", type=float, default=0.3, show_default=True)
@click.option("--max-tokens", type=int, default=128, show_default=True)
@model_options
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
    models: tuple[str, ...],
    **options: Any,
) -> None:
    """MedHallu hallucination detection: each row's true and hallucinated answers."""
    names = split_models(models)
    task = medhallu(
        dataset=dataset,
        config=hub_config,
        split=split,
        knowledge=knowledge,
        not_sure=not_sure,
        difficulty=difficulty,
        limit=limit,
        pairing=pairing,  # type: ignore[arg-type]
        seed=seed,
        prompt=prompt,
        template=template,
        temperature=temperature,
        max_tokens=max_tokens,
    )
    logs = run_eval(task, models=names, options=options)
    results = [detection_result(log) for log in logs if log.status == "success"]
    if results:
        console.print(detection_table(results))
    print_log_locations(logs, options["log_dir"])
    fail_on_unfinished(logs)
