"""`medhalbench index CORPUS... --out DIR`: a local corpus cut into passages and indexed for
evidence-grounded checking (`eval dahl --evidence DIR`, `eval medhallu --knowledge
--evidence DIR`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from medhalbench.arguments import ArgumentError, construct
from medhalbench.commands import (
    click_params,
    console,
    examples_epilog,
    flag,
    options_of,
    take_values,
)
from medhalbench.evidence import IndexSettings

_SETTINGS = options_of(IndexSettings)


def _folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


@click.command(
    name="index",
    epilog=examples_epilog(
        [
            "medhalbench index sumpubmed/text --out index/",
            "medhalbench index papers.jsonl abstracts.csv --out index/ --progress",
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
        *click_params(_SETTINGS),
        flag("--overwrite", "Replace an index already in --out."),
        click.Option(
            ["--progress/--no-progress"],
            default=True,
            show_default=True,
            help="Show progress bars while building.",
        ),
    ],  # fmt: skip
)
def index_command(
    corpus: tuple[str, ...], out: str, overwrite: bool, progress: bool, **values: Any
) -> None:
    """Index local corpora for evidence-grounded checking: each document is cut into
    overlapping passages (each keeping its document's id and its character offsets) and
    indexed with BM25 in a folder that later runs open memory-mapped.

    CORPUS is a JSONL, JSON, CSV or Parquet file of rows with id, title and text (BEIR's
    `_id` and Pyserini's `contents` are read too), a .txt file or a folder of them,
    PubMedQA's ori_pqal.json (each abstract's contexts), SumPubMed's folder (its full
    texts), or MedHallu rows (each row's knowledge). Several corpora make one index;
    document ids must be unique across them.
    """
    from medhalbench.evidence import build_index

    try:
        settings = construct(IndexSettings, take_values(_SETTINGS, values))
    except ArgumentError as ex:
        flag = "--" + ex.argument.replace("_", "-")
        raise click.BadParameter(ex.reason, param_hint=flag) from None
    manifest = build_index(list(corpus), out, settings, overwrite=overwrite, progress=progress)
    console.print(
        f"Indexed {manifest.passages:,} passages of {manifest.documents:,} documents "
        f"({manifest.vocabulary:,} distinct tokens, {manifest.mean_passage_chars:,.0f} "
        f"characters a passage) in {manifest.build_seconds:,.1f} s: {out} "
        f"({_folder_size(Path(out)) / 1e6:,.1f} MB)"
    )
    for note in manifest.notes:
        console.print(f"[yellow]Note:[/yellow] {note}")
