"""Hybrid retrieval's fusion weight, measured: recall@1 and recall@5 of the gold abstract for
BM25, dense, and hybrid (weighted reciprocal-rank fusion) over the vectors' weight, on the
verbatim PubMedQA questions and the reworded set the weight is chosen on, then on any other
set given with `--questions` (measured, never tuned on). The index is that of
`evidence_recall.py` (400 PubMedQA abstracts and the SumPubMed full texts), built once into
`--index` and reused.

    flock /tmp/mhb-cpu.lock .venv/bin/python bench/evidence_fusion_weight.py --index /tmp/recall-index \
        --questions QUESTIONS.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from evidence_recall import PUBMEDQA, REWORDED, SUMPUBMED, read_set
from medhalbench.evidence import (
    BM25Retriever,
    DenseRetriever,
    HybridRetriever,
    PassageIndex,
    Retriever,
    build_index,
    recall_figures,
)
from medhalbench.settings import DENSE_WEIGHT, DenseSettings

WEIGHTS = (1.0, 1.5, 2.0, 3.0, 4.0)


def figures(retriever: Retriever, questions: Sequence[str], gold: Sequence[str]) -> str:
    found = recall_figures(retriever.search(list(questions), 10), gold, (1, 5, 10))
    return f"R@1 {found['recall@1']:.3f}  R@5 {found['recall@5']:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, required=True, help="Index folder (built once).")
    parser.add_argument("--questions", type=Path, action="append", default=[])
    args = parser.parse_args()
    if not (args.index / "manifest.json").exists():
        build_index([PUBMEDQA, SUMPUBMED], args.index, dense=DenseSettings(), progress=False)
    index = PassageIndex(args.index)
    entries = json.loads(PUBMEDQA.read_text())
    sets = {
        "verbatim (tuned on)": ([e["QUESTION"] for e in entries.values()], list(entries)),
        "reworded (tuned on)": read_set(REWORDED)[:2],
        **{f"{p.stem} (measured)": read_set(p)[:2] for p in args.questions},
    }
    for name, (questions, gold) in sets.items():
        print(f"{name}: {len(questions)} questions")
        print(f"  {'BM25':24} {figures(BM25Retriever(index), questions, gold)}")
        print(f"  {'dense':24} {figures(DenseRetriever(index), questions, gold)}")
        for weight in WEIGHTS:
            mark = " (default)" if weight == DENSE_WEIGHT else ""
            retriever = HybridRetriever(index, dense_weight=weight)
            print(
                f"  {f'hybrid, weight {weight:g}{mark}':24} {figures(retriever, questions, gold)}"
            )
    index.close()


if __name__ == "__main__":
    main()
