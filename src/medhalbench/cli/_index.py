"""`medhalbench index CORPUS... --out DIR [--dense]`: a local corpus cut into passages and
indexed (BM25, and passage vectors with `--dense`) for evidence-grounded checking (`eval dahl
--evidence DIR`, `eval medhallu --knowledge --evidence DIR`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from medhalbench.commands import (
    click_params,
    command_options,
    console,
    examples_epilog,
    flag,
    settings_from,
)
from medhalbench.evidence import DenseSettings, IndexSettings

_SETTINGS = command_options(IndexSettings)
_DENSE = command_options(DenseSettings)


def _folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


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
        *click_params(_SETTINGS),
        flag(
            "--dense",
            "Also store passage vectors (memory-mapped) for dense and hybrid retrieval; "
            "runs on the index then search it hybrid by default (BM25 and vectors fused by "
            "reciprocal rank). Added to an index of the same corpora without rebuilding it; "
            "an interrupted run resumes.",
        ),
        *click_params(_DENSE),
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
def index_command(
    corpus: tuple[str, ...],
    out: str,
    dense: bool,
    overwrite: bool,
    progress: bool,
    **values: Any,
) -> None:
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
    from medhalbench.evidence import build_index

    ctx = click.get_current_context()
    settings = settings_from(IndexSettings, _SETTINGS, values)
    vectors = settings_from(DenseSettings, _DENSE, values)
    if not dense:
        for argument in _DENSE:
            if ctx.get_parameter_source(argument.name) is ParameterSource.COMMANDLINE:
                raise click.BadParameter(
                    "sets the passage vectors: add --dense", param_hint=argument.flag
                )
    manifest = build_index(
        list(corpus), out, settings, dense=vectors if dense else None, overwrite=overwrite,
        progress=progress, say=lambda note: console.print(f"[yellow]Note:[/yellow] {note}"),
    )  # fmt: skip
    console.print(
        f"Indexed {manifest.passages:,} passages of {manifest.documents:,} documents "
        f"({manifest.vocabulary:,} distinct tokens, {manifest.mean_passage_chars:,.0f} "
        f"characters a passage) in {manifest.build_seconds:,.1f} s: {out} "
        f"({_folder_size(Path(out)) / 1e6:,.1f} MB)"
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
