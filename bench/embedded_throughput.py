"""Tokens/s of the embedded provider inside an inspect eval vs raw llama-cpp-python.

Both sides run the same prompts with the same settings (greedy, fixed max_tokens) on the
same process-wide llama.cpp instance, alternating rounds to share thermal/noise conditions.

    .venv/bin/python bench/embedded_throughput.py [--prompts 16] [--max-tokens 64] [--rounds 2]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.solver import generate

from medhalbench.models._embedded import DEFAULT_N_CTX, default_n_threads, load_llama
from medhalbench.models._gguf import smollm2_gguf_path

TOPICS = [
    "how insulin lowers blood glucose", "what causes iron deficiency anaemia",
    "how beta blockers reduce heart rate", "why antibiotics do not treat viral infections",
    "what the glomerular filtration rate measures", "how vaccines train the immune system",
    "what a troponin test shows", "how asthma inhalers open the airways",
]  # fmt: skip


def prompts(n: int) -> list[str]:
    return [f"In two sentences, explain {TOPICS[i % len(TOPICS)]} (case {i})." for i in range(n)]


def raw_llama(texts: list[str], max_tokens: int, n_threads: int) -> tuple[int, float]:
    llama, _ = load_llama(smollm2_gguf_path(), DEFAULT_N_CTX, n_threads, 0)
    tokens, start = 0, time.perf_counter()
    for text in texts:
        response = llama.create_chat_completion(
            messages=[{"role": "user", "content": text}],
            max_tokens=max_tokens,
            temperature=0.0,
            seed=0,
        )
        tokens += response["usage"]["completion_tokens"]
    return tokens, time.perf_counter() - start


def inspect_eval(texts: list[str], max_tokens: int, log_dir: str) -> tuple[int, float]:
    task = Task(dataset=[Sample(input=t) for t in texts], solver=generate())
    start = time.perf_counter()
    [log] = eval(
        task, model="embedded/smollm2", log_dir=log_dir, display="none", cache=False,
        temperature=0.0, max_tokens=max_tokens,
    )  # fmt: skip
    elapsed = time.perf_counter() - start
    assert log.status == "success", log.error
    tokens = sum(u.output_tokens for u in (log.stats.model_usage or {}).values())
    return tokens, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompts", type=int, default=16)
    parser.add_argument("--max-tokens", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    texts = prompts(args.prompts)
    threads = default_n_threads()  # the embedded provider's default, so both share one instance
    raw_llama(texts[:1], 8, threads)  # load and warm up
    totals = {"raw": [0, 0.0], "inspect": [0, 0.0]}
    with tempfile.TemporaryDirectory() as log_dir:
        for _ in range(args.rounds):
            for name, run in (("raw", lambda: raw_llama(texts, args.max_tokens, threads)),
                              ("inspect", lambda: inspect_eval(texts, args.max_tokens, log_dir))):  # fmt: skip
                tokens, seconds = run()
                totals[name][0] += tokens
                totals[name][1] += seconds
    raw_tps = totals["raw"][0] / totals["raw"][1]
    inspect_tps = totals["inspect"][0] / totals["inspect"][1]
    print(
        f"prompts={args.prompts} max_tokens={args.max_tokens} rounds={args.rounds} cores={os.cpu_count()} llama threads={threads}"
    )
    print(
        f"raw llama-cpp-python : {totals['raw'][0]:6d} tokens in {totals['raw'][1]:7.2f} s = {raw_tps:7.1f} tokens/s"
    )
    print(
        f"embedded in inspect  : {totals['inspect'][0]:6d} tokens in {totals['inspect'][1]:7.2f} s = {inspect_tps:7.1f} tokens/s"
    )
    print(f"ratio inspect/raw    : {inspect_tps / raw_tps:.3f}")


if __name__ == "__main__":
    main()
