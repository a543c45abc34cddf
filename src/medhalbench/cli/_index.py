"""`medhalbench index CORPUS... --out DIR [--dense]`: a local corpus cut into passages and
indexed (BM25, and passage vectors with `--dense`) for evidence-grounded checking (`eval dahl
--evidence DIR`, `eval medhallu --knowledge --evidence DIR`)."""

from __future__ import annotations

from typing import Any

import click

from medhalbench._lazy import by_name
from medhalbench.cli._options import examples_epilog, flag, model_params
from medhalbench.settings import DenseSettings, IndexSettings


@click.command(
    name="index",
    epilog=examples_epilog(
        [
            "medhalbench index sumpubmed/text --out index/",
            "medhalbench index papers.jsonl abstracts.csv --out index/ --dense",
            "medhalbench index papers.jsonl --out index/ --dense --dense-model ncbi/MedCPT-Article-Encoder",
        ]
    ),
    params=[
        click.Argument(["corpus"], nargs=-1, required=True),
        click.Option(
            ["--out"],
            required=True,
            metavar="DIR",
            help="The index folder to write (it appears when the build is complete).",
        ),
        *model_params(IndexSettings),
        flag(
            "--dense",
            "Also store passage vectors (memory-mapped) for dense and hybrid retrieval; "
            "runs on the index then search it hybrid by default (BM25 and vectors fused by "
            "reciprocal rank). Added to an index of the same corpora without rebuilding it; "
            "an interrupted run resumes.",
        ),
        *model_params(DenseSettings),
        flag(
            "--overwrite",
            "Replace an index of other corpora or settings (or vectors of another model) "
            "already in --out; the same corpora and settings are kept without it.",
        ),
        click.Option(
            ["--progress/--no-progress"],
            default=True,
            show_default=True,
            help="Show progress bars while building.",
        ),
    ],  # fmt: skip
)
def index_command(**values: Any) -> None:
    """Index local corpora for evidence-grounded checking: each document is cut into
    overlapping passages (each keeping its document's id and its character offsets) and
    indexed with BM25, and with --dense embedded by a sentence-transformers model
    (all-MiniLM-L6-v2 offline by default), in a folder that later runs open memory-mapped.

    CORPUS is a JSONL, JSON, CSV or Parquet file of rows with id, title and text (BEIR's
    `_id` and Pyserini's `contents` are read too), a .txt file or a folder of them,
    PubMedQA's ori_pqal.json (each abstract's contexts), SumPubMed's folder (its full
    texts), or MedHallu rows (each row's knowledge). Several corpora make one index;
    document ids must be unique across them.
    """
    by_name("medhalbench.commands:index_from_command_line")(**values)
