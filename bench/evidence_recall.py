"""Retrieval quality measured, not assumed: recall@k of the gold abstract and MRR@10, for
BM25, dense (all-MiniLM-L6-v2 passage vectors, float16 and int8), hybrid (both fused by
reciprocal rank) and MiniLM re-ranking, on three question sets side by side:

- verbatim: the 400 PubMedQA questions of ../shared/data (each is its article's title, left
  out of the index);
- reworded: `bench/data/reworded_pubmedqa.jsonl`, 160 of them rewritten as users ask (lay
  words, a patient's first person, a clinician's shorthand, synonyms, abbreviations, brand
  names, non-native phrasing) by someone who never saw the retriever;
- held out (`--heldout`): `bench/data/reworded_pubmedqa_heldout.jsonl`, 40 more of the same
  kinds, kept aside: no setting was chosen on them; printed last.

The index holds all 400 abstracts (contexts only: the question, which is the article's title,
and the conclusion are left out) and the SumPubMed full texts. A question is found at k when
one of its k best passages comes from its own abstract: k passages are what the judge is
given (`--evidence-k`). `--sweep` prints hybrid recall over fusion constants and depths, on
the verbatim and reworded sets only.

    flock /tmp/mhb-cpu.lock .venv/bin/python bench/evidence_recall.py --index /tmp/recall-index
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from medhalbench.evidence import (
    BM25Retriever,
    DenseReranker,
    DenseRetriever,
    HybridRetriever,
    PassageIndex,
    Retriever,
    build_index,
    gold_ranks,
    read_manifest,
    recall_figures,
)
from medhalbench.evidence._dense import DENSE_FOLDER, SCALES_FILE, VECTORS_FILE, quantize
from medhalbench.settings import DenseSettings

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
HERE = Path(__file__).resolve().parent
PUBMEDQA = DATA / "pubmedqa" / "ori_pqal_dev.json"
SUMPUBMED = DATA / "sumpubmed"
REWORDED = HERE / "data" / "reworded_pubmedqa.jsonl"
HELDOUT = HERE / "data" / "reworded_pubmedqa_heldout.jsonl"
KS = (1, 5, 10)
QuestionSet = tuple[list[str], list[str], list[str]]  # questions, gold ids, styles


def read_set(path: Path) -> QuestionSet:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r["question"] for r in rows], [str(r["gold"]) for r in rows], [r["style"] for r in rows]


def int8_copy(folder: Path, out: Path) -> Path:
    """The index with its float16 vectors stored as int8 (quantised as `--dense-dtype int8`
    stores them), for measuring what int8 costs in recall without embedding twice."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(folder, out, ignore=shutil.ignore_patterns(DENSE_FOLDER))
    (out / DENSE_FOLDER).mkdir()
    vectors = np.load(folder / DENSE_FOLDER / VECTORS_FILE).astype(np.float32)
    q, scales = quantize(vectors)
    np.save(out / DENSE_FOLDER / VECTORS_FILE, q)
    np.save(out / DENSE_FOLDER / SCALES_FILE, scales)
    manifest = read_manifest(folder)
    assert manifest.dense is not None
    record = json.loads((folder / "manifest.json").read_text())
    record["dense"] = {**record["dense"], "dtype": "int8"}
    (out / "manifest.json").write_text(json.dumps(record, indent=2))
    return out


class Result:
    """A retriever's figures on a question set, and each question's gold rank."""

    def __init__(self, retriever: Retriever, questions: Sequence[str], gold: Sequence[str]) -> None:
        started = time.perf_counter()
        found = retriever.search(list(questions), max(KS))
        seconds = time.perf_counter() - started
        self.figures = recall_figures(found, gold, KS)
        self.figures["ms_per_query"] = 1000 * seconds / len(questions)
        self.ranks = gold_ranks(found, gold)


def ceiling(retriever: Retriever, questions: Sequence[str], gold: Sequence[str], n: int) -> float:
    found = retriever.search(list(questions), n)
    return sum(
        any(h.passage.source_id == g for h in f) for f, g in zip(found, gold, strict=True)
    ) / len(gold)


def row(name: str, result: Result) -> str:
    f = result.figures
    cells = [
        f"R@{k} {f[f'recall@{k}']:.3f}"
        + (f" [{f[f'recall@{k}_ci_low']:.2f}-{f[f'recall@{k}_ci_high']:.2f}]" if k == 5 else "")
        for k in KS
    ]
    return (
        f"  {name:36} "
        + "  ".join(cells)
        + (f"  MRR@10 {f['mrr@10']:.3f}  {f['ms_per_query']:6.1f} ms/q")
    )


def by_style(name: str, result: Result, styles: Sequence[str]) -> str:
    parts = []
    for style in sorted(set(styles)):
        of = [r for r, s in zip(result.ranks, styles, strict=True) if s == style]
        parts.append(f"{style} {sum(r is not None and r <= 5 for r in of) / len(of):.2f}")
    return f"  {name:36} recall@5 by style: " + ", ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", default=None, help="Index folder (built, or kept when built).")
    parser.add_argument("--candidates", type=int, default=50, help="Candidates re-ranked.")
    parser.add_argument("--heldout", action="store_true", help="Also the held-out set, last.")
    parser.add_argument("--sweep", action="store_true", help="Hybrid over rrf k and depth.")
    parser.add_argument(
        "--questions", type=Path, action="append", default=[],
        help="Another question set (JSONL: question, gold, style), named by its file; printed "
        "after the others. Repeatable.",
    )  # fmt: skip
    parser.add_argument(
        "--encoded-rerank", type=int, default=40,
        help="Questions timed with re-ranking that encodes candidates at query time (0: none).",
    )  # fmt: skip
    args = parser.parse_args()
    entries = json.loads(PUBMEDQA.read_text())
    sets: dict[str, QuestionSet] = {
        "verbatim": (
            [e["QUESTION"] for e in entries.values()],
            list(entries),
            ["title"] * len(entries),
        ),
        "reworded": read_set(REWORDED),
    }
    if args.heldout:
        sets["held out"] = read_set(HELDOUT)
    for path in args.questions:
        sets[path.stem] = read_set(path)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.index or Path(tmp) / "index")
        started = time.perf_counter()
        manifest = build_index(
            [PUBMEDQA, SUMPUBMED], folder, dense=DenseSettings(), progress=False, say=print
        )
        assert manifest.dense is not None
        print(
            f"index: {manifest.passages:,} passages of {manifest.documents} documents "
            f"({len(entries)} PubMedQA abstracts, SumPubMed full texts); BM25 built in "
            f"{manifest.build_seconds:.1f} s, vectors ({manifest.dense.model}, "
            f"{manifest.dense.dtype}) in {manifest.dense.build_seconds:.1f} s "
            f"({manifest.passages / manifest.dense.build_seconds:.1f} passages/s); this run "
            f"{time.perf_counter() - started:.1f} s"
        )
        index = PassageIndex(folder)
        index8 = PassageIndex(int8_copy(folder, Path(tmp) / "index-int8"))
        bm25 = BM25Retriever(index)
        hybrid = HybridRetriever(index)
        retrievers: dict[str, Retriever] = {
            "BM25": bm25,
            "dense (float16)": DenseRetriever(index),
            "dense (int8)": DenseRetriever(index8),
            f"hybrid (rrf k {hybrid.rrf_k}, depth {hybrid.depth})": hybrid,
            "hybrid, int8 vectors": HybridRetriever(index8),
            f"BM25 + rerank (top {args.candidates})": DenseReranker(
                bm25, candidates=args.candidates
            ),
            f"hybrid + rerank (top {args.candidates})": DenseReranker(
                hybrid, candidates=args.candidates
            ),
        }
        for retriever in retrievers.values():
            retriever.search(["warm up"], 1)  # load the model before timing
        print(f"cores={os.cpu_count()} " + " ".join(f"{n}={len(s[0])}" for n, s in sets.items()))
        for name, (questions, gold, styles) in sets.items():
            print(f"\n{name} ({len(questions)} questions; 95% interval of recall@5 in brackets)")
            results = {r: Result(retriever, questions, gold) for r, retriever in retrievers.items()}
            for r, figures in results.items():
                print(row(r, figures))
            print(
                f"  gold among BM25's top {args.candidates}: "
                f"{ceiling(bm25, questions, gold, args.candidates):.3f}, among hybrid's top "
                f"{args.candidates}: {ceiling(hybrid, questions, gold, args.candidates):.3f} "
                "(the re-rankers' ceilings)"
            )
            if len(set(styles)) > 1:
                for r in (
                    "BM25",
                    "dense (float16)",
                    next(k for k in results if k.startswith("hybrid (")),
                ):
                    print(by_style(r, results[r], styles))
            if args.sweep and name != "held out":
                print("  hybrid recall@5 / MRR@10 by fusion constant (rows) and depth (columns):")
                depths = (10, 20, 50, 100, 200)
                print("  " + " " * 10 + "".join(f"{d:>15}" for d in depths))
                for k in (10, 30, 60, 100):
                    cells = []
                    for depth in depths:
                        f = Result(
                            HybridRetriever(index, rrf_k=k, depth=depth), questions, gold
                        ).figures
                        cells.append(f"{f['recall@5']:.3f}/{f['mrr@10']:.3f}")
                    print(f"  rrf k {k:>4}" + "".join(f"{c:>15}" for c in cells))
        if args.encoded_rerank:
            questions = sets["verbatim"][0][: args.encoded_rerank]
            encoding = DenseReranker(bm25, candidates=args.candidates, index_vectors=False)
            t = time.perf_counter()
            for q in questions:
                encoding.search([q], 5)
            slow = (time.perf_counter() - t) / len(questions)
            stored = DenseReranker(bm25, candidates=args.candidates)
            t = time.perf_counter()
            for q in questions:
                stored.search([q], 5)
            fast = (time.perf_counter() - t) / len(questions)
            print(
                f"\nre-ranking BM25's top {args.candidates}, one query at a time ({len(questions)} "
                f"verbatim questions): {1000 * slow:.0f} ms a query encoding the candidates "
                f"(an index without vectors), {1000 * fast:.1f} ms with the index's vectors"
            )
        index8.close()
        index.close()


if __name__ == "__main__":
    main()
