"""Retrieval quality measured, not assumed: recall@k of the gold abstract for the PubMedQA
questions in ../shared/data, against an index of all their abstracts (contexts only: the
question, which is the article's title, and the conclusion are left out) plus the SumPubMed
full texts, for BM25 and for BM25 re-ranked by all-MiniLM-L6-v2 (top 50 candidates).

A question counts as found at k when any of its k best passages comes from its own
abstract: k passages are what the judge is given (`--evidence-k`).

    flock /tmp/mhb-cpu.lock .venv/bin/python bench/evidence_recall.py
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from medhalbench.evidence import (
    BM25Retriever,
    DenseReranker,
    PassageIndex,
    Retriever,
    build_index,
)

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
PUBMEDQA = DATA / "pubmedqa" / "ori_pqal_dev.json"
SUMPUBMED = DATA / "sumpubmed"
KS = (1, 5, 10)


def evaluate(retriever: Retriever, questions: list[str], gold: list[str]) -> dict[str, float]:
    started = time.perf_counter()
    found = retriever.search(questions, max(KS))
    seconds = time.perf_counter() - started
    ranks = [
        next((h.rank for h in hits if h.passage.source_id == g), None)
        for hits, g in zip(found, gold, strict=True)
    ]
    figures = {f"recall@{k}": sum(r is not None and r <= k for r in ranks) / len(ranks) for k in KS}
    figures["mrr@10"] = sum(1 / r for r in ranks if r is not None) / len(ranks)
    figures["ms_per_query"] = 1000 * seconds / len(questions)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", default=None, help="Reuse an index built from the same corpora.")
    parser.add_argument("--candidates", type=int, default=50, help="BM25 candidates re-ranked.")
    args = parser.parse_args()
    entries = json.loads(PUBMEDQA.read_text())
    questions = [e["QUESTION"] for e in entries.values()]
    gold = list(entries)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.index or Path(tmp) / "index")
        if args.index is None:
            manifest = build_index([PUBMEDQA, SUMPUBMED], folder, progress=False)
            print(
                f"index: {manifest.passages:,} passages of {manifest.documents} documents "
                f"({len(entries)} PubMedQA abstracts, SumPubMed full texts), built in "
                f"{manifest.build_seconds:.1f} s"
            )
        bm25 = BM25Retriever(PassageIndex(folder))
        reranked = DenseReranker(bm25, candidates=args.candidates)
        reranked.search(questions[:2], 1)  # load the model before timing
        print(f"cores={os.cpu_count()} questions={len(questions)}")
        results = {
            "BM25": evaluate(bm25, questions, gold),
            f"BM25 + MiniLM rerank (top {args.candidates})": evaluate(reranked, questions, gold),
        }
        candidates = bm25.search(questions, args.candidates)
        ceiling = sum(
            any(h.passage.source_id == g for h in c) for c, g in zip(candidates, gold, strict=True)
        )
    for name, figures in results.items():
        print(
            f"{name:32} "
            + "  ".join(f"recall@{k} {figures[f'recall@{k}']:.3f}" for k in KS)
            + f"  MRR@10 {figures['mrr@10']:.3f}  {figures['ms_per_query']:.1f} ms/query"
        )
    print(
        f"gold abstract among BM25's top {args.candidates}: {ceiling / len(gold):.3f} (the re-ranker's ceiling)"
    )


if __name__ == "__main__":
    main()
