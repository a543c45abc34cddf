"""DAHL's commands: `eval dahl`, `build dahl` and `dahl agreement`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from medhalbench.commands import (
    COUNT,
    FRACTION,
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
    print_table,
    role_model,
    run_build,
    run_eval,
    show_results,
    split_models,
)
from medhalbench.dahl._agreement import dahl_agreement
from medhalbench.dahl._build import (
    DROPPED_FILE,
    PROGRESS_FILE,
    QUESTIONS_FILE,
    build_dahl_questions,
)
from medhalbench.dahl._papers import load_papers
from medhalbench.dahl._plan import UNITS_PER_ANSWER, dahl_build_plan
from medhalbench.dahl._report import dahl_sweep_table
from medhalbench.dahl._task import dahl
from medhalbench.models import DEFAULT_MODEL


def parse_temperatures(value: str | None) -> list[float] | None:
    """Parse `0.1,0.2,...` into floats."""
    if not value:
        return None
    try:
        temperatures = [float(t) for t in value.split(",") if t.strip()]
    except ValueError:
        raise click.BadParameter(
            f"expected comma-separated numbers, got {value!r}", param_hint="--temperatures"
        ) from None
    out_of_range = [t for t in temperatures if not 0 <= t <= 2]
    if out_of_range:
        raise click.BadParameter(
            f"{out_of_range[0]} is not in the range 0<=x<=2", param_hint="--temperatures"
        )
    return temperatures


@click.command(name="dahl")
@click.option(
    "--dataset",
    default=default_of(dahl, "dataset"),
    show_default=True,
    help="Questions CSV/JSONL (question, category[, paper_id]); 'github' downloads the authors' questions.csv.",
)
@click.option(
    "--responses",
    type=click.Path(dir_okay=False),
    default=None,
    help="Score these answers (CSV/JSONL with question, response[, category]) instead of generating.",
)
@click.option(
    "--sample",
    type=FRACTION,
    default=None,
    help="Keep this seeded fraction of questions, stratified by category (the paper used 0.1).",
)
@click.option("--categories", default=None, help="Comma-separated categories to keep.")
@click.option("--limit", type=COUNT, default=None, help="Keep at most N questions.")
@click.option("--seed", type=int, default=default_of(dahl, "seed"), show_default=True)
@click.option(
    "--temperature",
    type=TEMPERATURE,
    default=default_of(dahl, "temperature"),
    show_default=True,
    help="Answering temperature.",
)
@click.option(
    "--temperatures", default=None, help="Sweep: comma-separated temperatures, one log each."
)
@click.option(
    "--max-tokens",
    type=COUNT,
    default=default_of(dahl, "max_tokens"),
    show_default=True,
    help="Answer length limit in tokens.",
)
@click.option(
    "--splitter",
    default=DEFAULT_MODEL,
    show_default=True,
    help="Model that splits answers into atomic units.",
)
@click.option(
    "--checker",
    default=DEFAULT_MODEL,
    show_default=True,
    help="Model that judges each unit true/false (e.g. a search-grounded API such as perplexity/sonar).",
)
@click.option(
    "--check-mode",
    type=click.Choice(["unit", "batch"]),
    default=default_of(dahl, "check_mode"),
    show_default=True,
    help="One checker call per unit (concurrent), or one per response.",
)
@click.option(
    "--answer-prompt",
    type=click.Path(dir_okay=False),
    default=None,
    help="File replacing the answering instruction.",
)
@click.option(
    "--split-prompt",
    type=click.Path(dir_okay=False),
    default=None,
    help="File replacing the splitter prompt ({text}).",
)
@click.option(
    "--check-prompt",
    type=click.Path(dir_okay=False),
    default=None,
    help="File replacing the checker prompt ({statement}).",
)
@click.option(
    "--raw-units",
    is_flag=True,
    help="Check the splitter's units as written (the paper's pipeline); default: markdown stripped, multi-sentence units split, list introductions dropped.",
)
@click.option(
    "--epochs",
    type=click.IntRange(min=1),
    default=default_of(dahl, "epochs"),
    show_default=True,
    help="Answers per question (sampled at --temperature); the score's interval then reflects both question and sampling variation.",
)
@click.option(
    "--units-per-answer",
    type=POSITIVE,
    default=UNITS_PER_ANSWER,
    show_default=True,
    help="Atomic units per answer assumed by --dry-run's plan (DAHL's responses had about 11).",
)
@figure_options
@model_options(roles=("splitter", "checker"))
def eval_dahl(
    dataset: str,
    responses: str | None,
    sample: float | None,
    categories: str | None,
    limit: int | None,
    seed: int,
    temperature: float,
    temperatures: str | None,
    max_tokens: int,
    splitter: str,
    checker: str,
    check_mode: str,
    answer_prompt: str | None,
    split_prompt: str | None,
    check_prompt: str | None,
    raw_units: bool,
    epochs: int,
    units_per_answer: float,
    structured: bool,
    probabilities: bool,
    bootstrap: int,
    wide: bool,
    published: bool,
    models: tuple[str, ...],
    **options: Any,
) -> None:
    """DAHL: long answers split into atomic facts, each judged true or false."""
    sweep = parse_temperatures(temperatures)
    names = ["none/none"] if responses else split_models(models)
    tasks = [
        dahl(
            dataset=absolute(dataset),
            responses=absolute(responses),
            sample=sample,
            categories=categories,
            limit=limit,
            seed=seed,
            temperature=t,
            max_tokens=max_tokens,
            check_mode=check_mode,  # type: ignore[arg-type]
            answer_prompt=absolute(answer_prompt),
            split_prompt=absolute(split_prompt),
            check_prompt=absolute(check_prompt),
            cache=options["cache"],
            structured=structured,
            probabilities=probabilities,
            epochs=epochs,
            bootstrap=bootstrap,
            normalise_units=not raw_units,
        )
        for t in (sweep or [temperature])
    ]
    logs = run_eval(
        tasks, models=names, options=options, roles={"splitter": splitter, "checker": checker},
        plan_settings={"units_per_answer": units_per_answer},
    )  # fmt: skip
    results = show_results(console, logs, wide=wide, published=published)
    if sweep and results and not wide:
        print_table(console, dahl_sweep_table(results))
    print_log_locations(logs, options["log_dir"])
    fail_on_unfinished(logs)


@click.command(name="dahl")
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
@click.option("--limit", type=COUNT, default=None, help="Use the first N papers.")
@click.option(
    "--questions",
    "questions_per_paper",
    type=COUNT,
    default=default_of(build_dahl_questions, "questions_per_paper"),
    show_default=True,
    help="Questions asked for per paper.",
)
@click.option(
    "--max-paper-chars",
    type=COUNT,
    default=default_of(build_dahl_questions, "max_paper_chars"),
    show_default=True,
    help="Characters of each paper given to the generator.",
)
@click.option(
    "--prompt",
    type=click.Path(dir_okay=False),
    default=None,
    help="File replacing the builder prompt ({count}, {categories}, {paper}).",
)
@click.option(
    "--seed", type=int, default=default_of(build_dahl_questions, "seed"), show_default=True
)
@click.option(
    "--temperature",
    type=TEMPERATURE,
    default=default_of(build_dahl_questions, "temperature"),
    show_default=True,
)
@click.option(
    "--concurrency",
    type=COUNT,
    default=default_of(build_dahl_questions, "concurrency"),
    show_default=True,
    help="Papers in flight at once.",
)
@click.option("--cache/--no-cache", default=True, show_default=True)
@builder_model_options(roles=("generator",))
def build_dahl_command(
    papers: str,
    out_dir: str,
    generator: str,
    limit: int | None,
    questions_per_paper: int,
    max_paper_chars: int,
    prompt: str | None,
    seed: int,
    temperature: float,
    concurrency: int,
    cache: bool,
    **options: Any,
) -> None:
    """Write DAHL exam questions from full-text papers, dropping context-dependent ones."""
    if options.get("dry_run"):
        plan = dahl_build_plan(
            load_papers(papers, limit=limit), generator, questions_per_paper=questions_per_paper,
            max_paper_chars=max_paper_chars, prompt_file=prompt,
        )  # fmt: skip
        print_plans(console, [plan], options)
        return
    console.print(f"[bold]Generator model:[/bold] {generator}")
    model = role_model("generator", generator, options)
    loaded = load_papers(papers, limit=limit)
    summary = run_build(
        build_dahl_questions(
            loaded,
            out_dir,
            model,
            questions_per_paper=questions_per_paper,
            max_paper_chars=max_paper_chars,
            prompt_file=prompt,
            seed=seed,
            temperature=temperature,
            concurrency=concurrency,
            cache=cache,
        ),
        out_dir,
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


@click.group(name="dahl")
def dahl_group() -> None:
    """DAHL utilities."""


@dahl_group.command(name="agreement")
@click.option(
    "--auto",
    "log_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="An inspect log of the dahl task.",
)
@click.option(
    "--human",
    "human_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="CSV/JSONL: id or question, human_true, human_units.",
)
def agreement_command(log_path: str, human_path: str) -> None:
    """Agreement of automated and human judgements: Pearson r of per-response precision
    (with p-value) and a paired t-test on atomic units per response."""
    a = dahl_agreement(log_path, human_path)
    console.print(f"Matched responses: {a.pairs} (unmatched human rows: {a.unmatched})")
    console.print(
        "Pearson r (precision, automated vs human): "
        + (
            f"undefined ({a.pearson_undefined})"
            if a.pearson_undefined
            else f"{a.pearson_r:.3f} (p = {a.pearson_p:.3g})"
        )
    )
    console.print(
        f"Units per response: automated {a.mean_auto_units:.2f}, human {a.mean_human_units:.2f}; "
        + (
            f"paired t undefined ({a.units_undefined})"
            if a.units_undefined
            else f"paired t = {a.units_t:.3f} (p = {a.units_p:.3g})"
        )
    )
