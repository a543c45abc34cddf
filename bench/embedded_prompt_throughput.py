"""Prompt processing and generation speed of the embedded engine against raw llama.cpp, on
the demo's prompts and on MedHallu-with-knowledge's, cold and with shared prefixes; and
whether the engine's replies still repeat.

Sides (one process, one run, the same prompts; each side on engines of its own, fresh for
each workload and mode; the sides take a workload's prompts in four parts in turn, forward
then backward, so that the machine's drifting speed slows them alike):
- `raw llama.cpp`: an `xllamacpp.Server` with llama.cpp's defaults (threads: all cores,
  n_batch 2048, n_ubatch 512, flash attention auto, one slot), n_ctx 8192, one call at a
  time: what a user of llama.cpp gets.
- `engine x1`: the provider's engine (`EnginePool`: single-slot replicas of one thread,
  flash attention, micro-batches of 32), one call at a time.
- `engine xP`: the same with P calls in flight (P = the provider's default `parallel`), as
  inspect sends them.
- `engine 2 threads x1`: one replica of 2 threads (`-M n_threads=2 -M parallel=1`, not
  repeatable), one call at a time: what more threads per replica would buy.

Workloads:
- `demo`: the prompts the demo's tasks send the model under test (MedHallu without and with
  knowledge on the packaged example's rows the demo uses, DAHL's questions with their system
  prompt, MedHal's statements), and DAHL's splitter prompt on each demo answer (written
  first by the engine).
- `medhallu-knowledge`: MedHallu rows with knowledge (../shared/data when present, else the
  packaged example), in the task's order (a row's second answer eight samples after its
  first, so that its knowledge can come from the prompt cache).

Modes: `cold` (`cache_prompt` off: every prompt processed whole) and `shared prefixes` (the
prompt cache on: a prompt reuses what an earlier one shares with it). Prompt tokens/s is
the prompt tokens processed (not read from the cache) over the seconds of a pass of calls
of 1 new token; generation tokens/s the tokens written over the seconds of a pass of short
prompts with 64 new tokens each.

Repeatability: MedHallu-with-knowledge prompts sampled (temperature 0.8, seed 7, 16 tokens,
log-probabilities), each alone and cold on one replica, then twice through P replicas in
two orders with the cache on; replies and log-probabilities must be equal to the last
digit. The same is asked of the 2-thread replica, and its cold replies are compared with
the 1-thread ones (does the thread count change the replies?).

    .venv/bin/python bench/embedded_prompt_throughput.py [--rows 6] [--parallel P]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

import xllamacpp
from inspect_ai import Task

from medhalbench.examples import illustrative
from medhalbench.medhallu import medhallu
from medhalbench.models import EnginePool, EngineSettings, smollm2_gguf_path
from medhalbench.models._embedded import _message_dict
from medhalbench.models._engine import DEFAULT_N_CTX, default_parallel
from medhalbench.registry import DemoSettings, benchmarks
from medhalbench.settings import DEMO_ROWS as EXAMPLE_ROWS

SHARED = Path(__file__).resolve().parents[2] / "shared/data/medhallu/pqa_labeled_dev.jsonl"
CHUNKS = 4
"""Parts of a workload the sides take in turn."""
Messages = list[dict[str, str]]
Chat = Callable[[dict[str, Any]], dict[str, Any]]
Side = tuple[str, Callable[[], "Raw | EnginePool"], int]


@dataclass
class Pass:
    """What one pass of calls did, from the engine's own timings and the clock."""

    calls: int
    prompt: int
    cached: int
    prompt_ms: float
    generated: int
    seconds: float
    replies: list[tuple[str, str]]

    @staticmethod
    def total(passes: Sequence[Pass]) -> Pass:
        """The passes as one (their calls, tokens and seconds added up)."""
        return Pass(
            calls=sum(p.calls for p in passes),
            prompt=sum(p.prompt for p in passes),
            cached=sum(p.cached for p in passes),
            prompt_ms=sum(p.prompt_ms for p in passes),
            generated=sum(p.generated for p in passes),
            seconds=sum(p.seconds for p in passes),
            replies=[r for p in passes for r in p.replies],
        )

    @property
    def prompt_rate(self) -> float:
        return self.prompt / self.seconds

    @property
    def per_call_prompt_rate(self) -> float:
        return self.prompt / (self.prompt_ms / 1000)

    @property
    def generation_rate(self) -> float:
        return self.generated / self.seconds


def messages_of(task: Task) -> list[Messages]:
    """The messages each sample of a task sends the model under test (a system message
    from the task's solver when it adds one, as DAHL's does)."""
    system = _task_system_message(task)
    found = []
    for sample in task.dataset:
        if isinstance(sample.input, str):
            found.append([*system, {"role": "user", "content": sample.input}])
        else:
            found.append([_message_dict(m) for m in sample.input])
    return found


def _task_system_message(task: Task) -> Messages:
    if task.name.split("/")[-1] != "dahl":
        return []
    text = resources.files("medhalbench.dahl").joinpath("prompts/answer_system.txt").read_text()
    return [{"role": "system", "content": text}]


def demo_prompts(chat: Chat) -> tuple[list[Messages], int]:
    """The demo's prompts to the model under test, then DAHL's splitter prompt on each demo
    answer (written by `chat` at the demo's settings); and the DAHL answers' token limit."""
    prompts: list[Messages] = []
    answers: list[Messages] = []
    dahl_tokens = 0
    for entry in benchmarks():
        if not entry.demo:
            continue
        for task in entry.implementation.demo(DemoSettings(limit=EXAMPLE_ROWS, cache=False)).tasks:
            prompts += messages_of(task)
            if entry.name == "dahl":
                answers, dahl_tokens = messages_of(task), task.config.max_tokens or 0
    split = resources.files("medhalbench.dahl").joinpath("prompts/split_user.txt").read_text()
    for messages in answers:
        reply = chat(
            {"messages": messages, "max_tokens": dahl_tokens, "temperature": 0.6, "seed": 0}
        )
        text = reply["choices"][0]["message"]["content"]
        prompts.append([{"role": "user", "content": split.format(text=text)}])
    return prompts, dahl_tokens


def medhallu_prompts(rows: int) -> tuple[list[Messages], str]:
    source = str(SHARED) if SHARED.is_file() else illustrative("medhallu_illustrative.jsonl")
    task = medhallu(dataset=source, knowledge=True, limit=rows)
    return messages_of(task), source


class Raw:
    """llama.cpp as its defaults set it up (one slot; the context of one engine call)."""

    def __init__(self) -> None:
        params = xllamacpp.CommonParams()
        params.model.path = str(smollm2_gguf_path())
        params.n_ctx = DEFAULT_N_CTX
        params.verbosity = -1
        self._server: Any = xllamacpp.Server(params)
        self.chat(_request(WARM, 1))

    def chat(self, request: dict[str, Any]) -> dict[str, Any]:
        return dict(self._server.handle_chat_completions(request))

    def close(self) -> None:
        self._server = None


def engine(parallel: int, threads: int = 1) -> EnginePool:
    pool = EnginePool(
        EngineSettings(str(smollm2_gguf_path().resolve()), parallel=parallel, n_threads=threads)
    )
    # Load every replica before the clock starts (the pool loads them on demand).
    with ThreadPoolExecutor(parallel) as executor:
        list(executor.map(lambda _: pool.chat(_request(WARM, 1)), range(parallel)))
    return pool


def timed(
    make: Callable[[], Raw | EnginePool], requests: Sequence[dict[str, Any]], in_flight: int
) -> tuple[Pass, float]:
    """A pass on fresh engines (no cache carried over from another pass), closed after; and
    the CPU seconds other processes used meanwhile."""
    made = make()
    machine, own = cpu_seconds(), own_cpu_seconds()
    try:
        return run_pass(made.chat, requests, in_flight), others_since(machine, own)
    finally:
        made.close()


WARM = [{"role": "user", "content": "Warm up."}]


def _request(messages: Messages, max_tokens: int, **extra: Any) -> dict[str, Any]:
    return {"messages": messages, "max_tokens": max_tokens, "temperature": 0.0, "seed": 0} | extra


def run_pass(chat: Chat, requests: Sequence[dict[str, Any]], in_flight: int) -> Pass:
    started = time.perf_counter()
    with ThreadPoolExecutor(in_flight) as executor:
        responses = list(executor.map(chat, requests))
    seconds = time.perf_counter() - started
    timings = [r["timings"] for r in responses]
    replies = []
    for r in responses:
        choice = r["choices"][0]
        logprobs = (choice.get("logprobs") or {}).get("content") or []
        replies.append((choice["message"]["content"], json.dumps([t["logprob"] for t in logprobs])))
    return Pass(
        calls=len(responses),
        prompt=sum(t["prompt_n"] for t in timings),
        cached=sum(t["cache_n"] for t in timings),
        prompt_ms=sum(t["prompt_ms"] for t in timings),
        generated=sum(t["predicted_n"] for t in timings),
        seconds=seconds,
        replies=replies,
    )


def cpu_seconds() -> float:
    """CPU time of every process on the machine, from /proc/stat (to see interference)."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:8]]
    return (sum(values) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def others_since(machine: float, own: float) -> float:
    """CPU seconds other processes used since these readings (interference)."""
    return cpu_seconds() - machine - (own_cpu_seconds() - own)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=6, help="MedHallu rows with knowledge.")
    parser.add_argument("--parallel", type=int, default=default_parallel())
    args = parser.parse_args()
    machine, own = cpu_seconds(), own_cpu_seconds()
    p = args.parallel
    print(f"cores={os.cpu_count()} engine replicas={p} xllamacpp {xllamacpp.BUILD_INFO}")
    writer = engine(1)
    demo, dahl_tokens = demo_prompts(writer.chat)
    writer.close()
    knowledge, source = medhallu_prompts(args.rows)
    print(f"demo: {len(demo)} prompts (DAHL answers of up to {dahl_tokens} tokens split)")
    print(f"medhallu-knowledge: {len(knowledge)} prompts, rows from {source}")

    raw: Side = ("raw llama.cpp", Raw, 1)
    one: Side = ("engine x1", lambda: engine(1), 1)
    many: Side = (f"engine x{p}", lambda: engine(p), p)
    threads: Side = ("engine 2 threads x1", lambda: engine(1, threads=2), 1)
    ratios: list[str] = []

    def compare(title: str, sides: list[Side], requests: list[dict[str, Any]], unit: str) -> None:
        """Each side on engines of its own, the requests in `CHUNKS` parts taken by the
        sides in turn (forward, then backward: ABBA), so that a machine whose speed drifts
        during the run slows every side alike."""
        print(f"\n{title}")
        made = [(side, make(), in_flight) for side, make, in_flight in sides]
        done: dict[str, list[Pass]] = {side: [] for side, _, _ in sides}
        others = {side: 0.0 for side, _, _ in sides}
        size = -(-len(requests) // CHUNKS)
        for part in range(CHUNKS):
            chunk = requests[part * size : (part + 1) * size]
            for side, engine_, in_flight in made if part % 2 == 0 else made[::-1]:
                machine, own = cpu_seconds(), own_cpu_seconds()
                done[side].append(run_pass(engine_.chat, chunk, in_flight))
                others[side] += others_since(machine, own)
        for _, engine_, _ in made:
            engine_.close()
        rates = {}
        for side, passes in done.items():
            total = Pass.total(passes)
            rate = total.prompt_rate if unit == "prompt" else total.generation_rate
            rates[side] = rate
            tokens = (
                f"{total.prompt:6d} processed, {total.cached:6d} cached"
                if unit == "prompt"
                else f"{total.generated:5d} written"
            )
            per_call = f" (per call {total.per_call_prompt_rate:4.0f})" if unit == "prompt" else ""
            print(
                f"  {side:20s} {tokens}, {total.seconds:6.1f} s: {rate:5.0f} tokens/s{per_call}"
                f"  [other processes: {others[side]:.1f} CPU s]"
            )
        for side, _, _ in sides[1:]:
            line = f"{title.split(':')[0]}: {side} / raw llama.cpp"
            ratios.append(f"{line:62s} {rates[side] / rates[raw[0]]:.2f}")

    for workload, prompts in (("demo", demo), ("medhallu-knowledge", knowledge)):
        compare(
            f"{workload}, cold: prompt tokens/s (1 new token per call)",
            [raw, one, many, threads],
            [_request(m, 1, cache_prompt=False) for m in prompts],
            "prompt",
        )
        compare(
            f"{workload}, shared prefixes: prompt tokens/s (1 new token per call)",
            [raw, many],
            [_request(m, 1, cache_prompt=True) for m in prompts],
            "prompt",
        )
    short = [[{"role": "user", "content": f"Explain item {i} of a drug label."}] for i in range(8)]
    compare(
        "generation: tokens/s (8 short prompts, 64 new tokens each, end of text ignored)",
        [raw, one, many, threads],
        [_request(m, 64, ignore_eos=True) for m in short],
        "generation",
    )

    print("\nrepeatability: sampled MedHallu-with-knowledge replies, equal to the last digit")
    sampled = [
        _request(m, 16, temperature=0.8, seed=7, logprobs=True, cache_prompt=False)
        for m in knowledge
    ]
    cached = [{**r, "cache_prompt": True} for r in sampled]
    order = list(range(len(cached)))
    random.Random(3).shuffle(order)
    n = len(sampled)
    cold: dict[int, list[tuple[str, str]]] = {}
    for (side, make, in_flight), n_threads in ((many, 1), (threads, 2)):
        cold[n_threads] = timed(partial(engine, 1, n_threads), sampled, 1)[0].replies
        made = make()
        shuffled = run_pass(made.chat, [cached[i] for i in order], in_flight).replies
        first = dict(zip(order, shuffled, strict=True))
        again = run_pass(made.chat, cached, in_flight).replies  # mostly from the cache now
        made.close()
        same = sum(first[i] == cold[n_threads][i] for i in range(n))
        same_again = sum(again[i] == cold[n_threads][i] for i in range(n))
        print(
            f"  {side:20s} shuffled with the cache on: {same}/{n} equal to each alone and "
            f"cold; again (cache hits): {same_again}/{n}"
        )
    equal = sum(a[0] == b[0] for a, b in zip(cold[1], cold[2], strict=True))
    print(f"  2 threads vs 1 thread, each alone and cold: {equal}/{n} replies equal")

    print("\nratios (same run, same prompts)")
    for line in ratios:
        print(f"  {line}")
    print(f"\nCPU used by other processes during the run: {others_since(machine, own):.0f} s")


if __name__ == "__main__":
    main()
