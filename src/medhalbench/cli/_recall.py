"""`medhalbench recall INDEX QUESTIONS`: how well an index finds the document that answers
each of a user's own questions (recall@k and MRR@10, with 95% intervals)."""

from __future__ import annotations

from typing import Any

import click

from medhalbench._lazy import by_name
from medhalbench.cli._options import examples_epilog, format_option, model_params
from medhalbench.settings import RecallSettings


@click.command(
    name="recall",
    epilog=examples_epilog(
        [
            "medhalbench recall pubmed-index questions.jsonl",
            "medhalbench recall pubmed-index questions.jsonl --retriever bm25 --k 1,5,10,20",
            "medhalbench recall pubmed-index questions.jsonl --format json",
        ]
    ),
    params=[
        click.Argument(["index"], type=click.Path()),
        click.Argument(["questions"], type=click.Path()),
        *model_params(RecallSettings),
    ],
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
