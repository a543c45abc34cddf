"""`medhalbench build ...`: builders that write benchmark data with models."""

from __future__ import annotations

import asyncio
from pathlib import Path

import click
from inspect_ai.model import get_model

from medhalbench.cli._common import console
from medhalbench.dahl import build_dahl_questions
from medhalbench.dahl._build import DROPPED_FILE, PROGRESS_FILE, QUESTIONS_FILE
from medhalbench.data._papers import load_papers
from medhalbench.models import DEFAULT_MODEL


@click.group(name="build")
def build_group() -> None:
    """Build benchmark data with models (resumable: rerun to finish an interrupted build)."""


@build_group.command(name="dahl")
@click.option(
    "--papers",
    required=True,
    type=click.Path(exists=True),
    help="Folder of .txt papers (e.g. SumPubMed's text/) or JSONL with id, title, text.",
)
@click.option(
    "--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Output folder."
)
@click.option(
    "--generator",
    default=DEFAULT_MODEL,
    show_default=True,
    help="Model that writes the category and questions.",
)
@click.option("--model-base-url", default=None, help="Base URL of the generator's API.")
@click.option("--limit", type=int, default=None, help="Use the first N papers.")
@click.option(
    "--questions",
    "questions_per_paper",
    type=int,
    default=10,
    show_default=True,
    help="Questions asked for per paper.",
)
@click.option(
    "--max-paper-chars",
    type=int,
    default=6000,
    show_default=True,
    help="Characters of each paper given to the generator.",
)
@click.option(
    "--prompt",
    type=click.Path(dir_okay=False),
    default=None,
    help="File replacing the builder prompt ({count}, {categories}, {paper}).",
)
@click.option("--seed", type=int, default=42, show_default=True)
@click.option("--temperature", type=float, default=0.7, show_default=True)
@click.option(
    "--concurrency", type=int, default=8, show_default=True, help="Papers in flight at once."
)
@click.option("--cache/--no-cache", default=True, show_default=True)
def build_dahl_command(
    papers: str,
    out_dir: str,
    generator: str,
    model_base_url: str | None,
    limit: int | None,
    questions_per_paper: int,
    max_paper_chars: int,
    prompt: str | None,
    seed: int,
    temperature: float,
    concurrency: int,
    cache: bool,
) -> None:
    """Write DAHL exam questions from full-text papers, dropping context-dependent ones."""
    console.print(f"[bold]Generator model:[/bold] {generator}")
    loaded = load_papers(papers, limit=limit)
    summary = asyncio.run(
        build_dahl_questions(
            loaded,
            out_dir,
            get_model(generator, base_url=model_base_url),
            questions_per_paper=questions_per_paper,
            max_paper_chars=max_paper_chars,
            prompt_file=prompt,
            seed=seed,
            temperature=temperature,
            concurrency=concurrency,
            cache=cache,
        )
    )
    out = Path(out_dir)
    console.print(
        f"Papers: {summary.papers} ({summary.skipped_done} already done, {summary.processed_now} now; "
        f"{summary.unparseable} with unparseable output, see {out / PROGRESS_FILE})"
    )
    console.print(f"Questions kept: {summary.kept} -> {out / QUESTIONS_FILE}")
    rules = (
        ", ".join(f"{rule}: {n}" for rule, n in sorted(summary.dropped_by_rule.items())) or "none"
    )
    console.print(f"Questions dropped: {summary.dropped} ({rules}) -> {out / DROPPED_FILE}")
    console.print(
        "Categories: " + ", ".join(f"{c}: {n}" for c, n in summary.categories.most_common())
    )
