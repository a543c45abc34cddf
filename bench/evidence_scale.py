"""Evidence index at scale: build time, peak memory and index size of `medhalbench index`,
and BM25 query latency and throughput, at 100k and 1M synthetic passages, with how each
grows. Goal on the 2-core development machine: 1M passages indexed in <= 10 min, <= 2 GB
resident, >= 500 BM25 queries per second.

Synthetic documents are drawn (seeded) from the sentences of the shared SumPubMed full texts
and PubMedQA abstracts, about 400 words each (5 passages of 100 words, 20 shared). The
queries are the 400 PubMedQA questions. Each build runs `medhalbench index` in its own
process (its peak RSS is that process's); each search runs in a fresh process that opens the
index memory-mapped.

    flock /tmp/mhb-cpu.lock .venv/bin/python bench/evidence_scale.py [--sizes 100000,1000000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
WORDS_PER_DOCUMENT = 400
PASSAGES_PER_DOCUMENT = 5  # 400 words cut into 100-word passages sharing 20 words

SEARCH = r"""
import json, resource, statistics, sys, time
from medhalbench.evidence import PassageIndex
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
print(json.dumps({
    "open_s": opened, "first_search_s": warm, "compiled": index.compiled,
    "p50_ms": 1000 * statistics.median(latencies),
    "p95_ms": 1000 * sorted(latencies)[int(0.95 * len(latencies))],
    "one_at_a_time_qps": len(latencies) / sum(latencies),
    "batch_qps": rounds * len(queries) / batch,
    "with_passages_ms": 1000 * with_text,
    "found": sum(bool(h) for h in found) / len(found),
    "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
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


def measure(size: int, pool: list[str], queries: Path, folder: Path, cli: str) -> dict[str, float]:
    corpus = folder / f"corpus-{size}.jsonl"
    write_corpus(corpus, size, pool)
    out = folder / f"index-{size}"
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    subprocess.run(
        [cli, "index", str(corpus), "--out", str(out), "--no-progress"],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    build = time.perf_counter() - started
    build_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    manifest = json.loads((out / "manifest.json").read_text())
    size_mb = sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) / 1e6
    search = subprocess.run(
        [sys.executable, "-c", SEARCH, str(out), str(queries)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    figures = json.loads(search.stdout.strip().splitlines()[-1])
    corpus.unlink()
    shutil.rmtree(out)
    return {
        "passages": manifest["passages"],
        "build_s": build,
        # ru_maxrss of children is the largest child so far: the build is the largest.
        "build_rss_mb": max(build_rss, before) / 1024,
        "index_mb": size_mb,
        **figures,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000", help="Passages, comma-separated.")
    parser.add_argument("--folder", default=None, help="Scratch folder (default: a temporary one).")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    cli = str(Path(sys.executable).parent / "medhalbench")
    pool = sentences()
    questions = [
        e["QUESTION"]
        for e in json.loads((DATA / "pubmedqa" / "ori_pqal_dev.json").read_text()).values()
    ]
    print(f"cores={os.cpu_count()} sentences={len(pool):,} queries={len(questions)}")
    with tempfile.TemporaryDirectory(dir=args.folder) as tmp:
        folder = Path(tmp)
        queries = folder / "queries.json"
        queries.write_text(json.dumps(questions))
        rows = []
        for size in sizes:
            row = measure(size, pool, queries, folder, cli)
            rows.append(row)
            print(
                f"{row['passages']:>9,} passages: build {row['build_s']:6.1f} s, build peak RSS "
                f"{row['build_rss_mb']:6.0f} MB, index {row['index_mb']:6.0f} MB | open "
                f"{row['open_s']:.2f} s, first search {row['first_search_s']:.1f} s "
                f"(compiled: {row['compiled']}), one query p50 {row['p50_ms']:.1f} ms p95 "
                f"{row['p95_ms']:.1f} ms ({row['one_at_a_time_qps']:.0f}/s), batch "
                f"{row['batch_qps']:.0f} queries/s, with passage texts {row['with_passages_ms']:.1f} "
                f"ms/query, search peak RSS {row['rss_mb']:.0f} MB",
                flush=True,
            )
    if len(rows) > 1:
        a, b = rows[0], rows[-1]
        grow = b["passages"] / a["passages"]
        print(f"growth x{grow:.0f} passages:")
        for key, what in [
            ("build_s", "build time"), ("build_rss_mb", "build peak RSS"), ("index_mb", "index size"),
            ("p50_ms", "query p50 latency"), ("batch_qps", "batch throughput"),
            ("rss_mb", "search peak RSS"),
        ]:  # fmt: skip
            print(f"  {what}: x{b[key] / a[key]:.2f}")
    last = rows[-1]
    if last["passages"] >= 1_000_000:
        print(
            f"goal at {last['passages']:,}: build {last['build_s'] / 60:.1f} min (<= 10), peak RSS "
            f"{last['build_rss_mb'] / 1024:.2f} GB (<= 2), {last['batch_qps']:.0f} queries/s (>= 500)"
        )


if __name__ == "__main__":
    main()
