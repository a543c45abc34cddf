"""MedHal end to end on this machine: build from ../shared/data with the embedded converter,
LoRA fine-tune SmolLM2-135M on the training split (CPU), then F1 on the test split for the
base model and the fine-tuned one, both exported to GGUF (F16) and run by the embedded
provider, in one run.

    .venv/bin/python bench/medhal_finetune.py [--data ../shared/data] [--limit 30] [--steps 120]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path

from inspect_ai import eval
from inspect_ai.model import get_model

from medhalbench.medhal import MedHalBuild, build_medhal, medhal
from medhalbench.medhal._train import TrainRequest, train_medhal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data")
    )
    parser.add_argument("--limit", type=int, default=30, help="items per source")
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--max-length", type=int, default=512)
    parser.add_argument(
        "--out", default=None, help="keep outputs here (default: a temporary folder)"
    )
    args = parser.parse_args()
    data = Path(args.data)
    out = Path(args.out or tempfile.mkdtemp(prefix="medhal-bench-"))
    timings: dict[str, float] = {}

    start = time.perf_counter()
    summary = asyncio.run(
        build_medhal(
            MedHalBuild(
                sources=[("medqa", str(data / "medqa" / "medqa_us_test_dev.json")), ("medmcqa", str(data / "medmcqa" / "medmcqa_dev_dev.json")), ("sumpubmed", str(data / "sumpubmed"))],
                # A budget that keeps every sample inside SmolLM2's 8192-token context.
                out=str(out / "build"), limit=args.limit, max_tokens=6000, cache=False,
            ),
            get_model("embedded/smollm2"),
        )
    )  # fmt: skip
    timings["build"] = time.perf_counter() - start

    start = time.perf_counter()
    result = train_medhal(
        TrainRequest(
            data=str(out / "build"), out=str(out / "finetune"), base="embedded/smollm2",
            steps=args.steps, batch_size=args.batch_size, max_length=args.max_length,
        )
    )  # fmt: skip
    timings["fine-tune"] = time.perf_counter() - start

    files = result.gguf_files()
    assert files is not None
    start = time.perf_counter()
    logs = eval(
        medhal(dataset=str(out / "build"), split="test", max_tokens=96),
        model=[f"embedded/{files[0]}", f"embedded/{files[1]}"],
        log_dir=str(out / "logs"), display="none", cache=False,
    )  # fmt: skip
    timings["evaluation"] = time.perf_counter() - start

    print(
        f"cores={os.cpu_count()} items/source={args.limit} steps={args.steps} batch={args.batch_size} max_length={args.max_length} out={out}"
    )
    for name, counts in summary.sources.items():
        print(
            f"  {name}: {counts.items} items -> {counts.samples} samples, dropped {dict(counts.dropped)}"
        )
    print(f"  splits: {summary.splits}")
    first, last = result.losses[:10], result.losses[-10:]
    print(
        f"  training loss (mean of first/last 10 steps): {sum(first) / len(first):.3f} -> {sum(last) / len(last):.3f}"
    )
    for phase, seconds in timings.items():
        print(f"  {phase:>10}: {seconds:7.1f} s")
    print(f"  total: {sum(timings.values()) / 60:.1f} min")
    print("test split (non-factual = positive):")
    for log in logs:
        m = {
            n: v.value
            for s in (log.results.scores if log.results else [])
            for n, v in s.metrics.items()
        }
        label = "fine-tuned" if log.eval.model.endswith("merged.gguf") else "base"
        print(
            f"  {label:>10}: F1 {m.get('f1', 0):.3f}  precision {m.get('precision', 0):.3f}  recall {m.get('recall', 0):.3f}  "
            f"accuracy {m.get('accuracy', 0):.3f}  unparseable {m.get('unparseable', 0):.0f}/{m.get('samples', 0):.0f}  ({log.status})"
        )


if __name__ == "__main__":
    main()
