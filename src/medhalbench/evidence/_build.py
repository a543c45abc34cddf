"""Building an index folder from corpora: passages written as JSONL with their byte offsets,
and a BM25 index in bm25s's own layout (loaded memory-mapped by `PassageIndex`).

bm25s's `BM25.index` holds every passage's token list as Python lists and builds the score
matrix in memory; at a million passages that alone exceeds 2 GB. The same matrix is built
here in bounded memory: passages are tokenised in batches (bm25s's tokenizer), each batch's
term counts are written to disk, document frequencies are summed, and the scores (bm25s's
own BM25 formula) are placed column by column into a memory-mapped matrix, which bm25s then
saves. `tests/evidence` checks that the scores equal those of `BM25.index`.
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np

from medhalbench._errors import DataError
from medhalbench._progress import progress_bar
from medhalbench._provenance import dataset_fingerprint
from medhalbench._secrets import redact_object
from medhalbench._version import VERSION
from medhalbench.embeddings import Embedder
from medhalbench.evidence._chunks import chunk_document
from medhalbench.evidence._corpus import corpus_kind, located_documents
from medhalbench.evidence._dense import DENSE_FOLDER, VECTORS_FILE, install_vectors, write_vectors
from medhalbench.evidence._layout import (
    BM25_FOLDER,
    INDEX_FORMAT,
    INDEX_MANIFEST,
    OFFSETS_FILE,
    PASSAGES_FILE,
    make_tokenizer,
    read_manifest,
    write_manifest,
)
from medhalbench.evidence._records import IndexManifest, Passage
from medhalbench.settings import DenseSettings, IndexSettings

BATCH_PASSAGES = 20_000
"""Passages tokenised and counted at a time (bounds the memory of a build)."""
BM25_METHOD = "lucene"


def index_text(passage: Passage) -> str:
    """What BM25 indexes of a passage: its document's title and its text."""
    return f"{passage.title}\n{passage.text}" if passage.title else passage.text


def _check_out(out: Path, overwrite: bool) -> None:
    if out.exists() and not out.is_dir():
        raise DataError("exists and is not a folder", path=out)
    if out.is_dir() and any(out.iterdir()):
        if not (out / INDEX_MANIFEST).is_file():
            raise DataError(
                "the folder is not empty and holds no index; name a new folder with --out", path=out
            )
        if not overwrite:
            raise DataError("already holds an index (give --overwrite to replace it)", path=out)
    parent = out.resolve().parent
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise DataError("cannot write there (no such folder, or no permission)", path=parent)


def _batches(items: Iterable[Passage], size: int) -> Iterator[list[Passage]]:
    batch: list[Passage] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


class _TermCounts:
    """Each passage's distinct tokens and their counts, batch by batch on disk."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.batches: list[tuple[Path, Path]] = []
        self.lengths: list[np.ndarray] = []  # tokens per passage
        self.distinct: list[np.ndarray] = []  # distinct tokens per passage
        self.df = np.zeros(0, dtype=np.int64)

    def add(self, token_ids: Sequence[Sequence[int]]) -> None:
        lengths = np.fromiter((len(t) for t in token_ids), dtype=np.int64, count=len(token_ids))
        flat = np.fromiter(
            (i for t in token_ids for i in t), dtype=np.int64, count=int(lengths.sum())
        )
        local = np.repeat(np.arange(len(token_ids), dtype=np.int64), lengths)
        keys, tf = np.unique((local << 32) | flat, return_counts=True)
        tokens = (keys & 0xFFFFFFFF).astype(np.int32)
        distinct = np.bincount((keys >> 32).astype(np.int64), minlength=len(token_ids))
        n = len(self.batches)
        paths = (self.folder / f"tokens.{n}.npy", self.folder / f"tf.{n}.npy")
        np.save(paths[0], tokens)
        np.save(paths[1], tf.astype(np.int32))
        self.batches.append(paths)
        self.lengths.append(lengths.astype(np.int32))
        self.distinct.append(distinct.astype(np.int32))
        counts = np.bincount(tokens)
        if len(counts) > len(self.df):
            self.df = np.concatenate([self.df, np.zeros(len(counts) - len(self.df), np.int64)])
        self.df[: len(counts)] += counts


def _write_scores(
    counts: _TermCounts,
    vocabulary: int,
    settings: IndexSettings,
    folder: Path,
    tick: Callable[[int], None],
) -> dict[str, Any]:
    """The BM25 score matrix in compressed-column form (a column per token, rows sorted),
    in memory-mapped arrays under `folder`."""
    from bm25s.scoring import _select_idf_scorer, _select_tfc_scorer

    lengths = np.concatenate(counts.lengths) if counts.lengths else np.zeros(0, np.int32)
    n_docs = len(lengths)
    df = np.zeros(vocabulary, dtype=np.int64)
    df[: len(counts.df)] = counts.df[:vocabulary]
    idf_of = _select_idf_scorer(BM25_METHOD)
    idf = np.array([idf_of(int(d), N=n_docs) if d else 0.0 for d in df], dtype=np.float32)
    tfc = _select_tfc_scorer(BM25_METHOD)
    average = float(lengths.mean()) if n_docs else 0.0
    indptr = np.zeros(vocabulary + 1, dtype=np.int64)
    np.cumsum(df, out=indptr[1:])
    nnz = int(indptr[-1])
    data = np.lib.format.open_memmap(folder / "data.npy", "w+", np.float32, (nnz,))
    indices = np.lib.format.open_memmap(folder / "indices.npy", "w+", np.int32, (nnz,))
    cursor = indptr[:-1].copy()
    first_doc = 0
    for (tokens_path, tf_path), distinct in zip(counts.batches, counts.distinct, strict=True):
        tokens, tf = np.load(tokens_path), np.load(tf_path)
        docs = np.repeat(np.arange(first_doc, first_doc + len(distinct), dtype=np.int32), distinct)
        scores = idf[tokens] * tfc(
            tf_array=tf.astype(np.float32), l_d=lengths[docs].astype(np.float32),
            l_avg=average, k1=settings.k1, b=settings.b,
        )  # fmt: skip
        order = np.argsort(tokens, kind="stable")  # rows stay ascending within a column
        sorted_tokens = tokens[order]
        unique, first, size = np.unique(sorted_tokens, return_index=True, return_counts=True)
        place = cursor[sorted_tokens] + (np.arange(len(order)) - np.repeat(first, size))
        data[place] = scores[order]
        indices[place] = docs[order]
        cursor[unique] += size
        first_doc += len(distinct)
        tick(len(distinct))
    return {"data": data, "indices": indices, "indptr": indptr, "num_docs": n_docs}


def _passages(
    sources: Sequence[Path], settings: IndexSettings, notes: list[str]
) -> Iterator[Passage]:
    seen: dict[str, str] = {}
    for source in sources:
        empty = 0
        for found in located_documents(source):
            # Without a known secret as read: the passages, the vocabulary and the scores
            # are written from it, some by libraries that write their own files.
            document = redact_object(found.document)
            if document.id in seen:
                raise DataError(
                    f"document id {document.id!r} is used twice (first at {seen[document.id]})",
                    path=found.file,
                    line=found.line,
                )
            seen[document.id] = found.place()
            passages = chunk_document(
                document, size=settings.passage_words, overlap=settings.overlap_words
            )
            empty += not passages
            yield from passages
        if empty:
            notes.append(f"{source}: {empty} document(s) without text left out")


def _same_index(
    target: Path, paths: Sequence[Path], settings: IndexSettings
) -> IndexManifest | None:
    """The manifest of the index in `target` when it was built from the same corpora
    (their content) with the same settings, and is whole."""
    if not (target / INDEX_MANIFEST).is_file():
        return None
    try:
        manifest = read_manifest(target)
    except DataError:
        return None
    whole = all((target / name).exists() for name in (PASSAGES_FILE, OFFSETS_FILE, BM25_FOLDER))
    same = manifest.settings == settings and manifest.source_fingerprints == [
        dataset_fingerprint(p) for p in paths
    ]
    return manifest if whole and same else None


def _texts(folder: Path, start: int) -> Iterator[str]:
    """What the dense model embeds of each passage (as BM25: title and text), from one on."""
    offsets = np.load(folder / OFFSETS_FILE, mmap_mode="r")
    with (folder / PASSAGES_FILE).open("rb") as f:
        if start < len(offsets):
            f.seek(int(offsets[start]))
            for line in f:
                yield index_text(Passage(**json.loads(line)))


def add_vectors(
    folder: str | Path,
    dense: DenseSettings,
    *,
    overwrite: bool = False,
    progress: bool = True,
    say: Callable[[str], None] = lambda _: None,
) -> IndexManifest:
    """Give an index passage vectors (dense and hybrid retrieval), or finish those an
    interrupted build began; vectors of the same model and storage already there are kept.

    Args:
        folder: The index folder.
        dense: The model and the storage.
        overwrite: Replace vectors of another model or storage.
        progress: Show a progress bar.
        say: Called with what was kept or resumed.

    Returns:
        The index's manifest, naming the vectors.

    Raises:
        DataError: Vectors of another model or storage there (without `overwrite`).
        ResourceUnavailableError: A model that cannot be loaded (a hub name offline).
    """
    target = Path(folder)
    manifest = read_manifest(target)
    current = manifest.dense
    if current is not None:
        fingerprint = Embedder(dense.dense_model).fingerprint
        if (current.fingerprint, current.dtype, current.passages) == (
            fingerprint, dense.dense_dtype, manifest.passages,
        ) and (target / DENSE_FOLDER / VECTORS_FILE).is_file():  # fmt: skip
            say(f"passage vectors of {current.model} ({current.dtype}) kept: already made")
            return manifest
        if not overwrite:
            raise DataError(
                f"already holds passage vectors of {current.model} ({current.dtype}); give "
                f"--overwrite to replace them with {dense.dense_model}'s ({dense.dense_dtype})",
                path=target,
            )
    with progress_bar(disable=not progress) as bar:
        task = bar.add_task("Passage vectors", total=manifest.passages)

        def resumed(done: int) -> None:
            if done:
                bar.advance(task, done)
                say(f"passage vectors resumed after {done:,} made by an earlier run")

        made = write_vectors(
            target, lambda start: _texts(target, start), manifest.passages, dense,
            tick=lambda n: bar.advance(task, n), started=resumed,
        )  # fmt: skip
    updated = replace(manifest, dense=made)
    install_vectors(target, updated)
    return updated


def build_index(
    sources: Sequence[str | Path],
    out: str | Path,
    settings: IndexSettings | None = None,
    *,
    dense: DenseSettings | None = None,
    overwrite: bool = False,
    progress: bool = True,
    say: Callable[[str], None] = lambda _: None,
) -> IndexManifest:
    """Build an index folder from one or more corpora (see `read_documents` for the
    layouts). The BM25 index appears only when it is complete: it is built beside the
    folder and moved into place, so an interrupted build leaves no half index. Passage
    vectors (`dense`) are added to it afterwards in saved chunks: the same command run
    again after an interruption resumes them. The same command run again on a finished
    index keeps it (corpora and settings unchanged: nothing is redone).

    Args:
        sources: The corpora; document ids must be unique across them.
        out: The index folder to write.
        settings: How passages are cut and tokenised.
        dense: Passage vectors to make (None: BM25 only).
        overwrite: Replace an index of other corpora or settings (or vectors of another
            model) already in `out`.
        progress: Show progress bars.
        say: Called with what was kept or resumed rather than made.

    Returns:
        The index's manifest (also written to `out/manifest.json`).

    Raises:
        DataError: A corpus that cannot be read (naming file, line and field), an id used
            twice (naming both places), a corpus with no text, or an output folder that
            cannot be written.
    """
    settings = settings or IndexSettings()
    paths = [Path(s) for s in sources]
    if not paths:
        raise DataError("no corpus given")
    for path in paths:
        corpus_kind(path)  # a missing or unknown corpus stops before any work
    target = Path(out)
    if dense is not None:
        Embedder(dense.dense_model)  # a model that cannot be loaded stops before any work
    manifest = _same_index(target, paths, settings)
    if manifest is None:
        _check_out(target, overwrite)
        manifest = _build_lexical(paths, target, settings, progress=progress)
    else:
        say("the index of the same corpora and settings is kept: already built")
    if dense is not None:
        manifest = add_vectors(target, dense, overwrite=overwrite, progress=progress, say=say)
    return manifest


def _build_lexical(
    paths: Sequence[Path], target: Path, settings: IndexSettings, *, progress: bool
) -> IndexManifest:
    """The passages and their BM25 index, built beside `target` and moved into place."""
    import bm25s

    started = time.perf_counter()
    building = target.resolve().parent / f".{target.name}.building-{os.getpid()}"
    shutil.rmtree(building, ignore_errors=True)
    (building / BM25_FOLDER).mkdir(parents=True)
    scratch = building / "scratch"
    scratch.mkdir()
    try:
        tokenizer = make_tokenizer(settings)
        counts = _TermCounts(scratch)
        notes: list[str] = []
        offsets: list[int] = []
        chars = 0
        documents: set[str] = set()
        with progress_bar(disable=not progress) as bar, (building / PASSAGES_FILE).open("wb") as f:
            reading = bar.add_task("Passages read and tokenised", total=None)
            for batch in _batches(_passages(paths, settings, notes), BATCH_PASSAGES):
                for passage in batch:
                    offsets.append(f.tell())
                    f.write(json.dumps(asdict(passage), ensure_ascii=False).encode() + b"\n")
                    chars += len(passage.text)
                    documents.add(passage.source_id)
                counts.add(
                    list(
                        tokenizer.streaming_tokenize(
                            [index_text(p) for p in batch], update_vocab=True
                        )
                    )
                )
                bar.advance(reading, len(batch))
            if not offsets:
                raise DataError(
                    "the corpus holds no text to index", path=", ".join(map(str, paths))
                )
            vocab = tokenizer.get_vocab_dict()
            scoring = bar.add_task("BM25 scores", total=len(offsets))
            scores = _write_scores(
                counts, len(vocab), settings, scratch, lambda n: bar.advance(scoring, n)
            )
        passages = len(offsets)
        np.save(building / OFFSETS_FILE, np.asarray(offsets, dtype=np.int64))
        del offsets
        model = bm25s.BM25(k1=settings.k1, b=settings.b, method=BM25_METHOD)
        model.scores = scores
        model.vocab_dict = vocab
        model.nonoccurrence_array = None  # Lucene's BM25 has none (BM25L and BM25+ do)
        model.save(building / BM25_FOLDER)
        tokenizer.save_vocab(building / BM25_FOLDER)
        del scores, model
        shutil.rmtree(scratch)
        manifest = IndexManifest(
            format=INDEX_FORMAT,
            medhalbench=VERSION,
            sources=[str(p) for p in paths],
            source_fingerprints=[dataset_fingerprint(p) for p in paths],
            documents=len(documents),
            passages=passages,
            mean_passage_chars=round(chars / passages, 1),
            settings=settings,
            build_seconds=round(time.perf_counter() - started, 3),
            created=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            vocabulary=len(vocab),
            notes=notes,
        )
        write_manifest(building, manifest)
        if target.exists():
            shutil.rmtree(target)
        building.rename(target)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return manifest
