"""Repeatability and speed of the embedded engine: the engine as it was (one llama.cpp server,
`parallel` slots decoded together, all cores, llama.cpp's default micro-batch and attention)
against the engine as it is (`parallel` single-slot replicas of one thread each, flash
attention, micro-batches of 32; see `medhalbench.models._engine`).

Workload: MedHallu rows with their knowledge (../shared/data when present, else the packaged
sample), both answers of a row, 16 sampled tokens (temperature 0.8, seed 7), two calls in
flight. Each side runs the workload twice on fresh engines and once more on the warm ones;
it prints the seconds per pass, how many replies equal the first pass's, and the ratio of
the new engine's time to the old one's.

    .venv/bin/python bench/embedded_repeatability.py [--rows 12]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import xllamacpp

from medhalbench.examples import illustrative
from medhalbench.models import EnginePool, EngineSettings, smollm2_gguf_path

SHARED = Path(__file__).resolve().parents[1] / "../shared/data/medhallu/pqa_labeled_dev.jsonl"
PARALLEL = 2


def requests(rows: int) -> list[dict[str, Any]]:
    source = SHARED if SHARED.exists() else Path(illustrative("medhallu_illustrative.jsonl"))
    found = []
    for line in source.read_text().splitlines()[:rows]:
        row = json.loads(line)
        knowledge = " ".join(row["Knowledge"])
        for answer in (row["Ground Truth"], row["Hallucinated Answer"]):
            found.append(
                {
                    "messages": [
                        {"role": "system", "content": "Say whether the answer is hallucinated."},
                        {
                            "role": "user",
                            "content": f"Knowledge: {knowledge}\nQuestion: {row['Question']}\n"
                            f"Answer: {answer}\nHallucinated (yes/no)?",
                        },
                    ],
                    "max_tokens": 16,
                    "temperature": 0.8,
                    "seed": 7,
                }
            )
    return found


def batched_engine() -> Any:
    """The engine as it was: one server, PARALLEL slots batched together, all cores."""
    params = xllamacpp.CommonParams()
    params.model.path = str(smollm2_gguf_path())
    params.n_ctx = 8192 * PARALLEL
    params.n_parallel = PARALLEL
    params.kv_unified = False
    params.cache_ram_mib = 256
    params.verbosity = -1
    return xllamacpp.Server(params)


def timed_pass(chat: Callable[[dict[str, Any]], dict[str, Any]], work: list[dict[str, Any]]):
    started = time.perf_counter()
    with ThreadPoolExecutor(PARALLEL) as pool:
        replies = list(pool.map(lambda r: chat(r)["choices"][0]["message"]["content"], work))
    return replies, time.perf_counter() - started


def side(name: str, make: Callable[[], Any], work: list[dict[str, Any]]) -> float:
    first_engine = make()
    chat = getattr(first_engine, "handle_chat_completions", None) or first_engine.chat
    first, cold = timed_pass(chat, work)
    warm_replies, warm = timed_pass(chat, work)
    second_engine = make()
    chat2 = getattr(second_engine, "handle_chat_completions", None) or second_engine.chat
    second, cold2 = timed_pass(chat2, work)
    same = lambda replies: sum(a == b for a, b in zip(first, replies, strict=True))  # noqa: E731
    print(
        f"  {name:<34} cold {cold:6.1f} s  fresh again {cold2:6.1f} s  warm {warm:6.1f} s  "
        f"same replies: fresh {same(second)}/{len(work)}, warm {same(warm_replies)}/{len(work)}"
    )
    return cold + cold2 + warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=12)
    args = parser.parse_args()
    work = requests(args.rows)
    print(f"cores={os.cpu_count()} calls={len(work)} in flight={PARALLEL}")
    before = side("before: 1 server x 2 slots", batched_engine, work)
    settings = EngineSettings(path=str(smollm2_gguf_path()), parallel=PARALLEL)
    after = side("now: 2 replicas x 1 slot", lambda: EnginePool(settings), work)
    print(f"time ratio now/before: {after / before:.2f}")


if __name__ == "__main__":
    main()
