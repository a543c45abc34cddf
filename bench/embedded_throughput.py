"""Throughput of the embedded model: llama-cpp-python vs the xllamacpp engine, raw vs the
provider, one call at a time vs four in flight, on two workloads.

- generation: 16 prompts x 64 new tokens (greedy), tokens/s.
- medhallu: MedHallu rows with knowledge (12 rows of ../shared/data when present, else the
  packaged sample), both answers of each row in the task's own order (a row's two prompts
  share their prefix), 8 new tokens, calls/s.

Sides (all on one machine, same prompts, same threads, one run):
- `llama-cpp-python raw`: `Llama.create_chat_completion`, by another interpreter
  (`--llama-cpp-python PYTHON`; its libggml cannot share a process with xllamacpp's).
- `engine raw`: `Engine.chat` on the provider's engine, one call at a time.
- `engine raw, no prefix cache`: the same with `cache_prompt` off (no reuse of a previous
  prompt's prefix), to show what reusing prefixes is worth.
- `provider x1`: the embedded provider through inspect's `Model.generate`, one at a time.
- `provider x4`: the same with `--parallel` calls in flight (the engine's slots, 4 by default).
- `inspect eval x4`: a whole inspect eval of the workload (start-up and log included).

Each side's prompts start with a side-specific line, so no side reuses another's cached
prefixes.

    .venv/bin/python bench/embedded_throughput.py [--threads N] [--llama-cpp-python PYTHON]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    get_model,
)
from inspect_ai.solver import generate

from medhalbench.examples import illustrative
from medhalbench.medhallu import medhallu
from medhalbench.models import smollm2_gguf_path
from medhalbench.models._embedded import embedded_settings
from medhalbench.models._engine import engine

TOPICS = [
    "how insulin lowers blood glucose", "what causes iron deficiency anaemia",
    "how beta blockers reduce heart rate", "why antibiotics do not treat viral infections",
    "what the glomerular filtration rate measures", "how vaccines train the immune system",
    "what a troponin test shows", "how asthma inhalers open the airways",
]  # fmt: skip
Workload = tuple[str, list[list[dict[str, str]]], int]


def workloads(medhallu_data: str) -> list[Workload]:
    generation = [
        [{"role": "user", "content": f"In two sentences, explain {TOPICS[i % 8]} (case {i})."}]
        for i in range(16)
    ]
    task = medhallu(dataset=medhallu_data, knowledge=True, limit=12)
    detection = [
        [{"role": m.role, "content": m.text} for m in sample.input if isinstance(m, ChatMessage)]  # type: ignore[union-attr]
        for sample in task.dataset
    ]
    return [("generation", generation, 64), ("medhallu", detection, 8)]


def tagged(messages: list[dict[str, str]], tag: str) -> list[dict[str, str]]:
    """The messages with a side-specific first line (no prefix shared across sides)."""
    first, *rest = messages
    return [{**first, "content": f"[{tag}]\n{first['content']}"}, *rest]


def timed(
    run: Callable[[list[list[dict[str, str]]], int], list[int]],
    prompts: list[list[dict[str, str]]],
    max_tokens: int,
) -> tuple[int, int, float]:
    start = time.perf_counter()
    tokens = run(prompts, max_tokens)
    # A side that times itself (a subprocess) reports its own seconds.
    seconds = getattr(run, "seconds", time.perf_counter() - start)
    return len(tokens), sum(tokens), seconds


# Run by another interpreter, which needs only llama-cpp-python: it times its own calls.
LLAMA_CPP_PYTHON_WORKER = """
import json, sys, time
from llama_cpp import Llama
job = json.load(sys.stdin)
llama = Llama(model_path=job["gguf"], n_ctx=8192, n_threads=job["threads"], seed=0, verbose=False)
llama.create_chat_completion(messages=[{"role": "user", "content": "Warm up."}], max_tokens=4)
start = time.perf_counter()
tokens = [
    llama.create_chat_completion(
        messages=p, max_tokens=job["max_tokens"], temperature=0.0, seed=0
    )["usage"]["completion_tokens"]
    for p in job["prompts"]
]
print(json.dumps({"tokens": tokens, "seconds": time.perf_counter() - start}))
"""


def llama_cpp_python(
    python: str, threads: int
) -> Callable[[list[list[dict[str, str]]], int], list[int]]:
    """The llama-cpp-python side, run by `python` in a subprocess: its libggml and
    xllamacpp's clash (a segfault) when both are loaded in one process."""

    def run(prompts: list[list[dict[str, str]]], max_tokens: int) -> list[int]:
        job = {
            "prompts": prompts, "max_tokens": max_tokens, "threads": threads,
            "gguf": str(smollm2_gguf_path()),
        }  # fmt: skip
        done = subprocess.run(
            [python, "-c", LLAMA_CPP_PYTHON_WORKER],
            input=json.dumps(job), capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode != 0:
            raise SystemExit(f"llama-cpp-python ({python}) failed: {done.stderr[-800:]}")
        result = json.loads(done.stdout)
        run.seconds = result["seconds"]  # type: ignore[attr-defined]
        return list(result["tokens"])

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--threads", type=int, default=os.cpu_count() or 1, help="CPU threads for both engines."
    )
    parser.add_argument(
        "--parallel", type=int, default=4, help="Engine slots (calls decoded at once)."
    )
    parser.add_argument(
        "--llama-cpp-python",
        metavar="PYTHON",
        default=None,
        help="An interpreter with llama-cpp-python installed, to compare with (default: none).",
    )
    args = parser.parse_args()
    model_args: dict[str, Any] = {"n_threads": args.threads, "parallel": args.parallel}
    settings, _ = embedded_settings("smollm2", model_args)
    raw = engine(settings)
    model = get_model("embedded/smollm2", **model_args)
    reference = (
        llama_cpp_python(args.llama_cpp_python, args.threads) if args.llama_cpp_python else None
    )

    def raw_calls(cache_prompt: bool) -> Callable[[list[list[dict[str, str]]], int], list[int]]:
        def run(prompts: list[list[dict[str, str]]], max_tokens: int) -> list[int]:
            return [
                raw.chat(
                    {"messages": p, "max_tokens": max_tokens, "temperature": 0.0, "seed": 0,
                     "cache_prompt": cache_prompt}
                )["usage"]["completion_tokens"]
                for p in prompts
            ]  # fmt: skip

        return run

    engine_raw = raw_calls(True)

    def provider(in_flight: int) -> Callable[[list[list[dict[str, str]]], int], list[int]]:
        def run(prompts: list[list[dict[str, str]]], max_tokens: int) -> list[int]:
            config = GenerateConfig(temperature=0.0, max_tokens=max_tokens)
            limit = asyncio.Semaphore(in_flight)

            async def one(p: list[dict[str, str]]) -> int:
                async with limit:
                    output = await model.generate(
                        _messages(p),
                        config=config,
                    )
                    return output.usage.output_tokens if output.usage else 0

            async def all_() -> list[int]:
                return list(await asyncio.gather(*(one(p) for p in prompts)))

            return asyncio.run(all_())

        return run

    def inspect_eval(prompts: list[list[dict[str, str]]], max_tokens: int) -> list[int]:
        task = Task(
            dataset=[Sample(input=_messages(p)) for p in prompts],
            solver=generate(),
        )  # fmt: skip
        with tempfile.TemporaryDirectory() as log_dir:
            [log] = eval(
                task, model=model, log_dir=log_dir, display="none", cache=False,
                temperature=0.0, max_tokens=max_tokens,
            )  # fmt: skip
            assert log.status == "success", log.error
            return [
                s.output.usage.output_tokens if s.output.usage else 0 for s in (log.samples or [])
            ]

    sides: list[tuple[str, Callable[[list[list[dict[str, str]]], int], list[int]]]] = []
    if reference is not None:
        sides.append(("llama-cpp-python raw", reference))
    sides += [
        ("engine raw", engine_raw),
        ("engine raw, no prefix cache", raw_calls(False)),
        ("provider x1", provider(1)),
        ("provider x4", provider(args.parallel)),
        ("inspect eval x4", inspect_eval),
    ]
    engine_raw([[{"role": "user", "content": "Warm up."}]], 4)
    print(f"cores={os.cpu_count()} threads={args.threads} engine slots={settings.parallel}")
    if reference is None:
        print("(no llama-cpp-python side: --llama-cpp-python PYTHON adds one)")
    shared = (
        Path(__file__).resolve().parents[1].parent / "shared/data/medhallu/pqa_labeled_dev.jsonl"
    )
    medhallu_data = str(shared) if shared.is_file() else illustrative("medhallu_illustrative.jsonl")
    print(f"MedHallu rows from {medhallu_data}")
    for name, prompts, max_tokens in workloads(medhallu_data):
        print(f"\n{name}: {len(prompts)} prompts, {max_tokens} new tokens at most")
        rates: dict[str, tuple[float, float]] = {}
        for side, run in sides:
            calls, tokens, seconds = timed(run, [tagged(p, side) for p in prompts], max_tokens)
            rates[side] = (tokens / seconds, calls / seconds)
            print(
                f"  {side:28s} {tokens:5d} tokens {seconds:7.2f} s  {tokens / seconds:7.1f} tokens/s"
                f"  {calls / seconds:6.2f} calls/s"
            )
        unit = 0 if name == "generation" else 1
        label = "tokens/s" if unit == 0 else "calls/s"
        if reference is not None:
            print(
                f"  engine raw / llama-cpp-python raw ({label}): "
                f"{rates['engine raw'][unit] / rates['llama-cpp-python raw'][unit]:.2f}"
            )
        print(
            f"  provider x1 / engine raw ({label}): "
            f"{rates['provider x1'][unit] / rates['engine raw'][unit]:.2f}  (goal >= 0.95)"
        )
        print(
            f"  provider x4 / provider x1 ({label}): "
            f"{rates['provider x4'][unit] / rates['provider x1'][unit]:.2f}"
        )
        print(
            f"  engine raw / engine raw without prefix cache ({label}): "
            f"{rates['engine raw'][unit] / rates['engine raw, no prefix cache'][unit]:.2f}"
        )
        print(
            f"  provider x4 / one call at a time without prefix cache ({label}): "
            f"{rates['provider x4'][unit] / rates['engine raw, no prefix cache'][unit]:.2f}"
            + ("  (goal >= 1.3)" if name == "medhallu" else "")
        )


def _messages(messages: list[dict[str, str]]) -> list[ChatMessage]:
    kinds = {"system": ChatMessageSystem, "user": ChatMessageUser}
    return [kinds[m["role"]](content=m["content"]) for m in messages]


if __name__ == "__main__":
    main()
