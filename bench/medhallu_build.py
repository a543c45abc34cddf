"""Throughput of the MedHallu builder: questions built concurrently vs one at a time,
against the same OpenAI-compatible server on 127.0.0.1 (bench/stub_server.py, fixed delay).

Every role (generator, 2 discriminators, refiner, LLM NLI judge) talks to the stub server.
Prints wall time, model calls and questions/s side by side, and the ratio.

    .venv/bin/python bench/medhallu_build.py [--questions 12] [--delay 0.2] [--concurrency 8]
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from pathlib import Path

from inspect_ai.model import Model
from inspect_ai.util._concurrency import init_concurrency

from helpers_port import measured, options, stub_at
from medhalbench.embeddings import Embedder
from medhalbench.medhallu import BuildRoles, MedHalluBuild, build_medhallu
from medhalbench.nli import LLMNLI
from workloads import stub_model


def pubmedqa(path: Path, n: int) -> Path:
    path.write_text(
        json.dumps(
            {
                str(i): {
                    "QUESTION": f"Does treatment {i} improve outcome {i}?",
                    "CONTEXTS": [f"Patients received treatment {i} or placebo."],
                    "final_decision": "yes",
                    "LONG_ANSWER": f"Yes. Treatment {i} improved outcome {i} compared with placebo in adults.",
                }
                for i in range(n)
            }
        )
    )
    return path


def run(
    source: Path, base_url: str, concurrency: int, connections: int, embedder: Embedder
) -> tuple[float, int]:
    def model() -> Model:
        return stub_model(base_url, connections)

    roles = BuildRoles(
        generator=model(),
        discriminators=[model(), model()],
        refiner=model(),
        nli=LLMNLI(model(), cache=False),
        embedder=embedder,
    )
    # inspect keeps one connection semaphore per provider key for the process (an eval
    # resets them, calls outside an eval do not): reset so this run gets its own limit.
    init_concurrency()
    with tempfile.TemporaryDirectory() as out, measured() as build:
        asyncio.run(
            build_medhallu(
                MedHalluBuild(
                    pubmedqa=str(source),
                    out=out,
                    cache=False,
                    attempts=3,
                    concurrency=concurrency,
                ),
                roles,
                show_progress=False,
            )
        )
    return build.seconds, build.calls


def main() -> None:
    args = options(__doc__, questions=12, delay=0.2, concurrency=8)
    embedder = Embedder()
    with stub_at(args.delay) as base_url, tempfile.TemporaryDirectory() as tmp:
        source = pubmedqa(Path(tmp) / "ori_pqal.json", args.questions)
        sequential, calls_1 = run(source, base_url, 1, 1, embedder)
        concurrent, calls_n = run(
            source, base_url, args.concurrency, args.concurrency * 4, embedder
        )
    print(
        f"questions={args.questions} delay={args.delay}s concurrency={args.concurrency} cores={os.cpu_count()}"
    )
    print(
        f"one at a time : {sequential:6.2f} s, {calls_1} calls, {args.questions / sequential:5.2f} questions/s, {calls_1 / args.questions:.1f} calls/question"
    )
    print(
        f"concurrent    : {concurrent:6.2f} s, {calls_n} calls, {args.questions / concurrent:5.2f} questions/s"
    )
    print(f"speed-up      : {sequential / concurrent:.2f}x (same calls: {calls_1 == calls_n})")


if __name__ == "__main__":
    main()
