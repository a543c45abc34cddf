"""Evidence index at scale: build time, peak memory and index size of `medhalbench index`
(BM25, and with `--dense` the all-MiniLM-L6-v2 passage vectors), BM25 and hybrid query
latency and throughput, at 100k and 1M synthetic passages, with how each grows and what 1M
passages with vectors would take. Goals on the 2-core development machine: 1M passages
indexed for BM25 in <= 10 min, <= 2 GB resident, >= 500 BM25 queries per second; 100k
passages embedded in <= 10 min; a hybrid query in <= 50 ms (p50) at 100k.

Synthetic documents are drawn (seeded) from the sentences of the shared SumPubMed full texts
and PubMedQA abstracts, about 400 words each (5 passages of 100 words, 20 shared). The
queries are the 400 PubMedQA questions. Each build runs `medhalbench index` in its own
process (its peak RSS is that process's); each search runs in a fresh process that opens the
index memory-mapped. At sizes in `--dense-sizes` the build makes the passage vectors too
(`--dense`); at the other sizes the vectors are random unit vectors of MiniLM's size, written
in the index's layout: hybrid search is timed on them (its cost does not depend on what the
vectors hold), recall is not.

    flock /tmp/mhb-cpu.lock .venv/bin/python bench/evidence_scale.py \\
        [--sizes 100000,1000000] [--dense-sizes 100000] [--load 2]

`--load N` runs N busy processes beside each search (a machine already at load N, as a run's
other work makes it): the hybrid goal holds under load 2 on the 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
WORDS_PER_DOCUMENT = 400
PASSAGES_PER_DOCUMENT = 5  # 400 words cut into 100-word passages sharing 20 words

PEAK = r"""
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
SEARCH = r"""
import json, resource, statistics, sys, time
from medhalbench.evidence import HybridRetriever, PassageIndex
started = time.perf_counter()
index = PassageIndex(sys.argv[1])
opened = time.perf_counter() - started
queries = json.loads(open(sys.argv[2]).read())
t = time.perf_counter(); index.search(queries[:2], 10); warm = time.perf_counter() - t
latencies = []
for q in queries:
    t = time.perf_counter(); index.search([q], 10); latencies.append(time.perf_counter() - t)
rounds = 5
t = time.perf_counter()
for _ in range(rounds):
    found = index.search(queries, 10)
batch = time.perf_counter() - t
t = time.perf_counter()
for q in queries[:50]:
    [[index.passage(i) for i, _ in hits] for hits in index.search([q], 10)]
with_text = (time.perf_counter() - t) / 50
figures = {
    "open_s": opened, "first_search_s": warm, "compiled": index.compiled,
    "p50_ms": 1000 * statistics.median(latencies),
    "p95_ms": 1000 * sorted(latencies)[int(0.95 * len(latencies))],
    "one_at_a_time_qps": len(latencies) / sum(latencies),
    "batch_qps": rounds * len(queries) / batch,
    "with_passages_ms": 1000 * with_text,
    "found": sum(bool(h) for h in found) / len(found),
}
if index.manifest.dense is not None:
    hybrid = HybridRetriever(index)
    t = time.perf_counter(); hybrid.search(queries[:2], 10); figures["hybrid_first_s"] = time.perf_counter() - t
    hybrid_latencies, dense_latencies = [], []
    for q in queries:
        t = time.perf_counter(); hybrid.search([q], 10); hybrid_latencies.append(time.perf_counter() - t)
        t = time.perf_counter(); hybrid.dense.positions([q], 100); dense_latencies.append(time.perf_counter() - t)
    vector = hybrid.dense.embedder.encode(queries[:1])
    t = time.perf_counter()
    for _ in range(20):
        index.vectors.search(vector, 100)
    figures["vectors_only_ms"] = 1000 * (time.perf_counter() - t) / 20
    import dataclasses, pathlib, tempfile
    import numpy as np
    from medhalbench.evidence import DenseVectors
    from medhalbench.evidence._dense import quantize
    with tempfile.TemporaryDirectory() as tmp:
        (pathlib.Path(tmp) / "dense").mkdir()
        half = index.vectors.vectors
        q = np.lib.format.open_memmap(pathlib.Path(tmp) / "dense" / "vectors.npy", "w+", np.int8, half.shape)
        scales = np.zeros(len(half), np.float32)
        for start in range(0, len(half), 100_000):
            q[start : start + 100_000], scales[start : start + 100_000] = quantize(np.asarray(half[start : start + 100_000], np.float32))
        q.flush(); del q
        np.save(pathlib.Path(tmp) / "dense" / "scales.npy", scales)
        int8 = DenseVectors(pathlib.Path(tmp), dataclasses.replace(index.manifest.dense, dtype="int8"))
        int8.search(vector, 100)
        t = time.perf_counter()
        for _ in range(5):
            int8.search(vector, 100)
        figures["int8_vectors_only_ms"] = 1000 * (time.perf_counter() - t) / 5
        del int8
    t = time.perf_counter(); hybrid.search(queries, 10); figures["hybrid_batch_qps"] = len(queries) / (time.perf_counter() - t)
    figures["hybrid_p50_ms"] = 1000 * statistics.median(hybrid_latencies)
    figures["hybrid_p95_ms"] = 1000 * sorted(hybrid_latencies)[int(0.95 * len(queries))]
    figures["dense_p50_ms"] = 1000 * statistics.median(dense_latencies)
figures["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(figures))
"""


def sentences() -> list[str]:
    """The sentences of the shared SumPubMed full texts and PubMedQA abstracts."""
    pool: list[str] = []
    for file in sorted((DATA / "sumpubmed" / "text").glob("*.txt")):
        pool += re.split(r"(?<=[.!?])\s+", file.read_text(encoding="utf-8"))
    for entry in json.loads((DATA / "pubmedqa" / "ori_pqal_dev.json").read_text()).values():
        for context in entry["CONTEXTS"]:
            pool += re.split(r"(?<=[.!?])\s+", context)
    return [s for s in pool if len(s.split()) >= 5]


def write_corpus(path: Path, passages: int, pool: list[str], seed: int = 0) -> int:
    """A JSONL corpus of synthetic documents holding about `passages` passages."""
    rng = random.Random(seed)
    documents = passages // PASSAGES_PER_DOCUMENT
    with path.open("w", encoding="utf-8") as f:
        for n in range(documents):
            words, parts = 0, []
            while words < WORDS_PER_DOCUMENT:
                sentence = pool[rng.randrange(len(pool))]
                parts.append(sentence)
                words += len(sentence.split())
            text = " ".join(parts).split()[:WORDS_PER_DOCUMENT]
            f.write(json.dumps({"id": f"d{n}", "title": "", "text": " ".join(text)}) + "\n")
    return documents


def random_vectors(index: Path, seed: int = 0) -> None:
    """Random unit vectors of all-MiniLM-L6-v2's size in the index's layout (float16),
    named in its manifest as MiniLM's: for timing hybrid search, not for recall."""
    from medhalbench.embeddings import Embedder
    from medhalbench.evidence._dense import DENSE_FOLDER, VECTORS_FILE

    manifest = json.loads((index / "manifest.json").read_text())
    rows, embedder = manifest["passages"], Embedder()
    (index / DENSE_FOLDER).mkdir()
    out = np.lib.format.open_memmap(
        index / DENSE_FOLDER / VECTORS_FILE, "w+", np.float16, (rows, embedder.dimensions)
    )
    rng = np.random.default_rng(seed)
    for start in range(0, rows, 100_000):
        block = rng.standard_normal((min(100_000, rows - start), embedder.dimensions))
        out[start : start + len(block)] = block / np.linalg.norm(block, axis=1, keepdims=True)
    out.flush()
    manifest["dense"] = {
        "model": "all-MiniLM-L6-v2", "fingerprint": embedder.fingerprint,
        "dimensions": embedder.dimensions, "dtype": "float16", "passages": rows,
        "build_seconds": 0.0,
    }  # fmt: skip
    (index / "manifest.json").write_text(json.dumps(manifest, indent=2))


BUSY = "while True: pass"


def measure(
    size: int, pool: list[str], queries: Path, folder: Path, cli: str, dense: bool, load: int = 0
) -> dict[str, float]:
    corpus = folder / f"corpus-{size}.jsonl"
    write_corpus(corpus, size, pool)
    out = folder / f"index-{size}"
    started = time.perf_counter()
    # Through a process of its own, whose children are this build alone: its peak RSS.
    done = subprocess.run(
        [sys.executable, "-c", PEAK, cli, "index", str(corpus), "--out", str(out),
         "--no-progress", *(["--dense"] if dense else [])],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    build = time.perf_counter() - started
    build_rss = int(done.stdout.strip().splitlines()[-1])
    manifest = json.loads((out / "manifest.json").read_text())
    size_mb = sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) / 1e6
    vectors_mb = (
        sum(p.stat().st_size for p in (out / "dense").rglob("*") if p.is_file()) / 1e6
        if dense
        else 0.0
    )
    if not dense:
        random_vectors(out)
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(load)]
    try:
        search = subprocess.run(
            [sys.executable, "-c", SEARCH, str(out), str(queries)],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
    finally:
        for process in busy:
            process.kill()
            process.wait()
    figures = json.loads(search.stdout.strip().splitlines()[-1])
    corpus.unlink()
    shutil.rmtree(out)
    return {
        "passages": manifest["passages"],
        "dense": dense,
        "build_s": build,
        "bm25_s": manifest["build_seconds"],
        "vectors_s": manifest["dense"]["build_seconds"] if dense else 0.0,
        "build_rss_mb": build_rss / 1024,
        "index_mb": size_mb,
        "vectors_mb": vectors_mb,
        **figures,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000", help="Passages, comma-separated.")
    parser.add_argument(
        "--dense-sizes", default="100000", help="Sizes built with --dense (others: random vectors)."
    )
    parser.add_argument("--folder", default=None, help="Scratch folder (default: a temporary one).")
    parser.add_argument("--load", type=int, default=0, help="Busy processes beside each search.")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    dense_sizes = {int(s) for s in args.dense_sizes.split(",") if s}
    cli = str(Path(sys.executable).parent / "medhalbench")
    pool = sentences()
    questions = [
        e["QUESTION"]
        for e in json.loads((DATA / "pubmedqa" / "ori_pqal_dev.json").read_text()).values()
    ]
    print(
        f"cores={os.cpu_count()} sentences={len(pool):,} queries={len(questions)} "
        f"load={args.load} (busy processes beside each search)"
    )
    with tempfile.TemporaryDirectory(dir=args.folder) as tmp:
        folder = Path(tmp)
        queries = folder / "queries.json"
        queries.write_text(json.dumps(questions))
        rows = []
        for size in sorted(sizes, key=lambda s: s not in dense_sizes):  # dense builds first
            row = measure(size, pool, queries, folder, cli, size in dense_sizes, args.load)
            rows.append(row)
            vectors = (
                f"vectors {row['vectors_s'] / 60:.1f} min ({row['passages'] / row['vectors_s']:.1f} "
                f"passages/s), {row['vectors_mb']:.0f} MB"
                if row["dense"]
                else "random vectors (timing only)"
            )
            print(
                f"{row['passages']:>9,} passages: build {row['build_s']:7.1f} s (BM25 "
                f"{row['bm25_s']:.1f} s, {vectors}), build peak RSS {row['build_rss_mb']:6.0f} MB, "
                f"index {row['index_mb']:6.0f} MB | BM25: open {row['open_s']:.2f} s, first search "
                f"{row['first_search_s']:.1f} s (compiled: {row['compiled']}), one query p50 "
                f"{row['p50_ms']:.1f} ms p95 {row['p95_ms']:.1f} ms, batch {row['batch_qps']:.0f} "
                f"queries/s | hybrid: one query p50 {row['hybrid_p50_ms']:.1f} ms p95 "
                f"{row['hybrid_p95_ms']:.1f} ms (dense part {row['dense_p50_ms']:.1f} ms, of which "
                f"the exact vector search {row['vectors_only_ms']:.1f} ms; int8: "
                f"{row['int8_vectors_only_ms']:.1f} ms), batch "
                f"{row['hybrid_batch_qps']:.0f} queries/s | search peak RSS {row['rss_mb']:.0f} MB",
                flush=True,
            )
    by_size = {r["passages"]: r for r in rows}
    if len(rows) > 1:
        a, b = min(by_size.items())[1], max(by_size.items())[1]
        grow = b["passages"] / a["passages"]
        print(f"growth x{grow:.0f} passages:")
        for key, what in [
            ("bm25_s", "BM25 build time"), ("index_mb", "index size"),
            ("p50_ms", "BM25 query p50 latency"), ("hybrid_p50_ms", "hybrid query p50 latency"),
            ("vectors_only_ms", "exact vector search"),
            ("int8_vectors_only_ms", "exact vector search, int8"), ("rss_mb", "search peak RSS"),
        ]:  # fmt: skip
            print(f"  {what}: x{b[key] / a[key]:.2f}")
    last = by_size[max(by_size)]
    if last["passages"] >= 1_000_000:
        print(
            f"BM25 goal at {last['passages']:,}: build {last['bm25_s'] / 60:.1f} min (<= 10), "
            f"peak RSS {last['build_rss_mb'] / 1024:.2f} GB (<= 2), {last['batch_qps']:.0f} "
            "queries/s (>= 500)"
        )
    built = [r for r in rows if r["dense"]]
    if built:
        r = built[-1]
        rate = r["passages"] / r["vectors_s"]
        print(
            f"goal at {r['passages']:,}: vectors {r['vectors_s'] / 60:.1f} min (<= 10), hybrid "
            f"p50 {r['hybrid_p50_ms']:.1f} ms (<= 50); build peak RSS {r['build_rss_mb'] / 1024:.2f} GB"
        )
        million = 1_000_000
        per = r["vectors_mb"] / r["passages"]
        print(
            f"projected at {million:,} passages: vectors {million / rate / 3600:.1f} h at the "
            f"measured {rate:.1f} passages/s (encoding grows linearly), {per * million / 1e3:.2f} GB "
            f"of float16 vectors ({per * million / 2e3 + 4 * million / 1e9:.2f} GB as int8), read "
            "once per exact search (memory-mapped: the page cache holds them)"
        )
        if million in by_size:
            m = by_size[million]
            print(
                f"  measured at {million:,} (random vectors): hybrid p50 {m['hybrid_p50_ms']:.1f} "
                f"ms, exact vector search {m['vectors_only_ms']:.1f} ms a query (int8: "
                f"{m['int8_vectors_only_ms']:.1f} ms), search peak RSS "
                f"{m['rss_mb']:.0f} MB"
            )


if __name__ == "__main__":
    main()
