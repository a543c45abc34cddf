"""`medhalbench recall INDEX QUESTIONS`: how well an index finds the document that answers
each of a user's own questions (recall@k and MRR@10, with 95% intervals)."""

from __future__ import annotations

from typing import Any, get_args

import click

from medhalbench._lazy import by_name
from medhalbench.cli._options import bootstrap_option, examples_epilog, format_option
from medhalbench.settings import HYBRID_DEPTH, RERANK_CANDIDATES, RRF_K, Retrieval


def _ks(ctx: click.Context, param: click.Parameter, value: str) -> list[int]:
    try:
        ks = [int(part) for part in value.split(",") if part.strip()]
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a list of whole numbers (1,5,10)") from None
    if not ks or min(ks) < 1:
        raise click.BadParameter(f"{value!r}: each k is a whole number of 1 or more")
    return sorted(set(ks))


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
def recall_command(**values: Any) -> None:
    """Measure how well an index finds the document that answers each question: recall@k
    (the share of questions with a passage of their gold document among the k passages
    retrieved) and MRR@10, each with a 95% bootstrap interval over the questions.

    INDEX is an index folder (medhalbench index). QUESTIONS is a JSONL, JSON, CSV or
    Parquet file of rows {"question": ..., "gold": SOURCE_ID}, the gold being the id of the
    document (as the corpus gives it: a PubMed id, a file name) that answers the question.
    """
    by_name("medhalbench.commands:recall_from_command_line")(**values)
