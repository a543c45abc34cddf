"""The embedded model's replies repeat exactly, whatever runs beside them and whatever the
engine decoded before: the same prompts, sent concurrently in different orders to the
engine replicas (so that prompt-cache hits, partial and full, fall differently), give the
same sampled replies and the same log-probabilities as each prompt sent alone."""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from medhalbench.examples import illustrative
from medhalbench.models import EnginePool, EngineSettings, smollm2_gguf_path

pytestmark = pytest.mark.slow


def _requests() -> list[dict[str, Any]]:
    rows = [
        json.loads(line)
        for line in Path(illustrative("medhallu_illustrative.jsonl")).read_text().splitlines()
    ][:4]
    requests = []
    for row in rows:
        knowledge = " ".join(row["Knowledge"])
        for answer in (row["Ground Truth"], row["Hallucinated Answer"]):
            prompt = f"Knowledge: {knowledge}\nQuestion: {row['Question']}\nAnswer: {answer}\n"
            requests.append(
                {
                    "messages": [{"role": "user", "content": prompt + "Is it hallucinated?"}],
                    "max_tokens": 12,
                    "temperature": 0.8,  # sampling makes any change of the logits visible
                    "seed": 7,
                    "logprobs": True,
                }
            )
    return requests


def _replies(pool: EnginePool, order: list[int], workers: int) -> dict[int, tuple[str, str]]:
    requests = _requests()

    def call(i: int) -> tuple[int, tuple[str, str]]:
        choice = pool.chat(requests[i])["choices"][0]
        logprobs = [round(t["logprob"], 4) for t in choice["logprobs"]["content"]]
        return i, (choice["message"]["content"], json.dumps(logprobs))

    with ThreadPoolExecutor(workers) as executor:
        return dict(executor.map(call, order))


def test_replies_do_not_depend_on_concurrency_order_or_cache() -> None:
    settings = EngineSettings(path=str(smollm2_gguf_path()), n_ctx=2048, parallel=2)
    alone = EnginePool(EngineSettings(path=settings.path, n_ctx=2048, parallel=1))
    together = EnginePool(settings)
    try:
        n = len(_requests())
        # Each prompt alone and cold: a fresh single engine per pass would be slow, so the
        # first pass alternates question rows (no shared prefix with the previous prompt).
        reference = _replies(alone, [*range(0, n, 2), *range(1, n, 2)], workers=1)
        shuffled = list(range(n))
        random.Random(3).shuffle(shuffled)
        first = _replies(together, shuffled, workers=2)
        again = _replies(together, list(range(n)), workers=2)  # now mostly cache hits
        assert first == reference
        assert again == reference
    finally:
        alone.close()
        together.close()


def test_the_same_command_gives_the_same_replies(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from inspect_ai.log import read_eval_log

    from medhalbench.cli import cli

    replies = []
    for run in ("first", "second"):
        log_dir = tmp_path / run
        args = [
            "eval", "medhallu", "--dataset", "example", "--limit", "3", "--knowledge",
            "--temperature", "0.8", "--max-tokens", "24", "--no-cache", "--log-dir", str(log_dir),
        ]  # fmt: skip
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        [path] = log_dir.glob("*.eval")
        log = read_eval_log(str(path))
        assert log.samples and len(log.samples) == 6
        assert "exact" in log.eval.metadata["repeatability"]["embedded/smollm2"]
        replies.append({s.id: s.output.completion for s in log.samples})
    assert replies[0] == replies[1]
