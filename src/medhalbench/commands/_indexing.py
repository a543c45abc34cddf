"""`medhalbench index` and `medhalbench recall` run: a local corpus indexed as evidence, and
how well an index finds the answers to a user's questions."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from medhalbench.commands._derive import settings_from
from medhalbench.commands._run import console
from medhalbench.commands._tables import print_table
from medhalbench.evidence import (
    MRR_DEPTH,
    DenseReranker,
    PassageIndex,
    build_index,
    document_ids,
    index_retriever,
    is_index,
    read_questions,
    recall_figures,
)
from medhalbench.results import Column, Estimate, ResultTable
from medhalbench.settings import (
    DenseSettings,
    IndexRequest,
    IndexSettings,
    RecallSettings,
    options_of,
)


def _folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _number(value: float) -> float | None:
    return value if math.isfinite(value) else None


def index_from_command_line(**values: Any) -> None:
    """`medhalbench index` from its options' values."""
    ctx = click.get_current_context()
    request = settings_from(IndexRequest, values)
    settings = IndexSettings.of(request.model_dump(include=set(IndexSettings.model_fields)))
    vectors = DenseSettings.of(request.model_dump(include=set(DenseSettings.model_fields)))
    if not request.dense:
        for argument in options_of(DenseSettings):
            if ctx.get_parameter_source(argument.name) is ParameterSource.COMMANDLINE:
                raise click.BadParameter(
                    "sets the passage vectors: add --dense", param_hint=argument.flag
                )
    manifest = build_index(
        request.corpus, request.out, settings, dense=vectors if request.dense else None,
        overwrite=request.overwrite, progress=request.progress, say=lambda note: console.print(f"[yellow]Note:[/yellow] {note}"),
    )  # fmt: skip
    console.print(
        f"Indexed {manifest.passages:,} passages of {manifest.documents:,} documents "
        f"({manifest.vocabulary:,} distinct tokens, {manifest.mean_passage_chars:,.0f} "
        f"characters a passage) in {manifest.build_seconds:,.1f} s: {request.out} "
        f"({_folder_size(Path(request.out)) / 1e6:,.1f} MB)"
    )
    if manifest.dense is not None:
        made = manifest.dense
        console.print(
            f"Passage vectors: {made.passages:,} x {made.dimensions} {made.dtype} by "
            f"{made.model} (fingerprint {made.fingerprint}) in {made.build_seconds:,.1f} s; "
            "runs search the index hybrid by default"
        )
    for note in manifest.notes:
        console.print(f"[yellow]Note:[/yellow] {note}")


def recall_from_command_line(**values: Any) -> None:
    """`medhalbench recall` from its options' values."""
    settings = settings_from(RecallSettings, values)
    index, questions = settings.index, settings.questions
    ks, bootstrap = sorted(set(settings.ks)), settings.bootstrap
    if not is_index(index):
        raise click.BadParameter(
            f"{index}: not an index folder (build one with medhalbench index CORPUS... --out "
            f"{index})",
            param_hint="INDEX",
        )
    opened = PassageIndex(index)
    rows = read_questions(questions, documents=document_ids(index))
    searcher = index_retriever(
        opened, settings.retriever, embedder=settings.dense_model, rrf_k=settings.rrf_k,
        depth=settings.depth,
    )  # fmt: skip
    if settings.rerank:
        searcher = DenseReranker(searcher, settings.dense_model)
    started = time.perf_counter()
    found = searcher.search([q.question for q in rows], max(*ks, MRR_DEPTH))
    seconds = time.perf_counter() - started
    figures = recall_figures(found, [q.gold for q in rows], ks, resamples=bootstrap)
    names = [*(f"recall@{k}" for k in ks), f"mrr@{MRR_DEPTH}"]
    if settings.format == "json":
        result: dict[str, Any] = {name: _number(figures[name]) for name in names}
        result["n"] = len(rows)
        result["ci"] = {
            name: [_number(figures[f"{name}_ci_low"]), _number(figures[f"{name}_ci_high"])]
            for name in names
            if f"{name}_ci_low" in figures
        }
        result["retriever"] = searcher.name
        result["ms_per_question"] = round(1000 * seconds / len(rows), 2)
        click.echo(json.dumps(result, indent=2))
        return
    table = ResultTable(
        f"Retrieval of the gold document: {len(rows):,} questions, {searcher.name}",
        "recall",
        [Column("Figure"), Column("Value", interval=True)],
    )
    for name in names:
        table.add(
            [
                name.replace("mrr", "MRR"),
                Estimate(
                    figures[name],
                    figures.get(f"{name}_ci_low", math.nan),
                    figures.get(f"{name}_ci_high", math.nan),
                ),
            ]
        )
    table.notes = [
        "95% bootstrap intervals over questions" if bootstrap else "no intervals (--bootstrap 0)",
        f"{1000 * seconds / len(rows):,.1f} ms a question (searched together)",
    ]
    print_table(console, table)
