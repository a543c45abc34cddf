"""Speed-up of concurrent DAHL checking over one call at a time, against the same
OpenAI-compatible server on 127.0.0.1 (bench/stub_server.py, fixed delay per call).

Scores N given responses (no answering step): each costs 1 splitter call and 4 checker
calls. Prints wall times side by side and the ratio, plus the ideal set by delay and
concurrency (calls x delay / concurrency).

    .venv/bin/python bench/dahl_checking.py [--responses 20] [--delay 0.2] [--connections 10]
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from inspect_ai import eval
from inspect_ai.model import Model

from helpers_port import measured, options, stub_at
from medhalbench.dahl import dahl
from workloads import stub_model

UNITS_PER_RESPONSE = 4


def run(responses: Path, base_url: str, connections: int, log_dir: str) -> tuple[float, int]:
    def role() -> Model:
        return stub_model(base_url, connections)

    with measured() as measure:
        [log] = eval(
            dahl(dataset="github", responses=str(responses), cache=False, paper_protocol=False),
            model="none/none", model_roles={"splitter": role(), "checker": role()},
            log_dir=log_dir, display="none", max_samples=1000,
        )  # fmt: skip
    assert log.status == "success", log.error
    return measure.seconds, measure.calls


def main() -> None:
    args = options(__doc__, responses=20, delay=0.2, connections=10)
    with stub_at(args.delay) as base_url, tempfile.TemporaryDirectory() as tmp:
        responses = Path(tmp) / "responses.jsonl"
        responses.write_text(
            "".join(
                json.dumps(
                    {
                        "question": f"What does metformin do? ({i})",
                        "category": "pharmacology",
                        "response": "Metformin lowers glucose.",
                    }
                )
                + "\n"
                for i in range(args.responses)
            )
        )
        sequential, calls = run(responses, base_url, 1, tmp)
        concurrent, calls_c = run(responses, base_url, args.connections, tmp)
    assert calls == calls_c == args.responses * (1 + UNITS_PER_RESPONSE)
    ideal_sequential = calls * args.delay
    ideal_concurrent = calls * args.delay / args.connections
    print(
        f"responses={args.responses} calls={calls} delay={args.delay}s connections={args.connections} cores={os.cpu_count()}"
    )
    print(f"one call at a time : {sequential:6.2f} s (limit {ideal_sequential:6.2f} s)")
    print(f"concurrent         : {concurrent:6.2f} s (limit {ideal_concurrent:6.2f} s)")
    print(f"speed-up           : {sequential / concurrent:.2f}x (limit {args.connections}x)")
    print(f"concurrent vs its limit: {ideal_concurrent / concurrent:.2f}")


if __name__ == "__main__":
    main()
