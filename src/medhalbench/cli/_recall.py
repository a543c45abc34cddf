"""`medhalbench recall INDEX QUESTIONS`: how well an index finds the document that answers
each of a user's own questions (recall@k and MRR@10, with 95% intervals)."""

from __future__ import annotations

import json
import math
import time
from typing import Any, get_args

import click

from medhalbench.commands import (
    bootstrap_option,
    console,
    examples_epilog,
    format_option,
    print_table,
)
from medhalbench.evidence import HYBRID_DEPTH, RERANK_CANDIDATES, RRF_K, Retrieval


def _ks(ctx: click.Context, param: click.Parameter, value: str) -> list[int]:
    try:
        ks = [int(part) for part in value.split(",") if part.strip()]
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a list of whole numbers (1,5,10)") from None
    if not ks or min(ks) < 1:
        raise click.BadParameter(f"{value!r}: each k is a whole number of 1 or more")
    return sorted(set(ks))


def _number(value: float) -> float | None:
    return value if math.isfinite(value) else None


@click.command(
    name="recall",
    epilog=examples_epilog(
        [
            "medhalbench recall pubmed-index questions.jsonl",
            "medhalbench recall pubmed-index questions.jsonl --retriever bm25 --k 1,5,10,20",
            "medhalbench recall pubmed-index questions.jsonl --format json",
        ]
    ),
)
@click.argument("index", type=click.Path())
@click.argument("questions", type=click.Path())
@click.option(
    "--retriever",
    type=click.Choice(get_args(Retrieval)),
    default=None,
    help="How the index is searched: bm25, dense (passage vectors) or hybrid (both fused by "
    "reciprocal rank). Default: hybrid where the index holds passage vectors, else bm25.",
)
@click.option(
    "--k",
    "ks",
    default="1,5,10",
    show_default=True,
    callback=_ks,
    help="The k of each recall@k, comma-separated.",
)
@click.option(
    "--rerank",
    is_flag=True,
    help=f"Re-rank the {RERANK_CANDIDATES} best candidates by dense cosine similarity.",
)
@click.option(
    "--rrf-k",
    type=click.IntRange(min=0),
    default=RRF_K,
    show_default=True,
    help="Hybrid retrieval's fusion constant: a passage ranked r-th scores 1/(rrf-k + r).",
)
@click.option(
    "--depth",
    type=click.IntRange(min=1),
    default=HYBRID_DEPTH,
    show_default=True,
    help="Candidates hybrid retrieval takes from BM25 and from the vectors each.",
)
@click.option(
    "--dense-model",
    default=None,
    metavar="NAME",
    help="The model that embeds the questions (default: the index's own; another is refused "
    "unless it is the same model).",
)
@bootstrap_option(
    least=0, help="Bootstrap resamples (over questions) of the 95% intervals (0: none)."
)
@format_option(
    ["table", "json"], default="table", help="table: for the terminal; json: for scripts."
)
def recall_command(
    index: str,
    questions: str,
    retriever: Retrieval | None,
    ks: list[int],
    rerank: bool,
    rrf_k: int,
    depth: int,
    dense_model: str | None,
    bootstrap: int,
    fmt: str,
) -> None:
    """Measure how well an index finds the document that answers each question: recall@k
    (the share of questions with a passage of their gold document among the k passages
    retrieved) and MRR@10, each with a 95% bootstrap interval over the questions.

    INDEX is an index folder (medhalbench index). QUESTIONS is a JSONL, JSON, CSV or
    Parquet file of rows {"question": ..., "gold": SOURCE_ID}, the gold being the id of the
    document (as the corpus gives it: a PubMed id, a file name) that answers the question.
    """
    from medhalbench.evidence import (
        MRR_DEPTH,
        DenseReranker,
        PassageIndex,
        document_ids,
        index_retriever,
        is_index,
        read_questions,
        recall_figures,
    )
    from medhalbench.results import Column, Estimate, ResultTable

    if not is_index(index):
        raise click.BadParameter(
            f"{index}: not an index folder (build one with medhalbench index CORPUS... --out "
            f"{index})",
            param_hint="INDEX",
        )
    opened = PassageIndex(index)
    rows = read_questions(questions, documents=document_ids(index))
    searcher = index_retriever(opened, retriever, embedder=dense_model, rrf_k=rrf_k, depth=depth)
    if rerank:
        searcher = DenseReranker(searcher, dense_model)
    started = time.perf_counter()
    found = searcher.search([q.question for q in rows], max(*ks, MRR_DEPTH))
    seconds = time.perf_counter() - started
    figures = recall_figures(found, [q.gold for q in rows], ks, resamples=bootstrap)
    names = [*(f"recall@{k}" for k in ks), f"mrr@{MRR_DEPTH}"]
    if fmt == "json":
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
