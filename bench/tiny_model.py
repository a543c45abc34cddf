"""Time and CPU of a MedHallu run on the tiny random model the pipeline tests use
(tests/tiny_model.py) against the same run on SmolLM2, side by side, each warm (its second
run: the first loads the engine) and with a cache of its own (every reply decoded).

    .venv/bin/python bench/tiny_model.py [--samples 12] [--max-tokens 128]
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from inspect_ai import eval

from helpers_port import options
from medhalbench.medhallu import medhallu
from medhalbench.registry import benchmark

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from tiny_model import write_tiny_model  # noqa: E402


def timed(model: str, rows: int, max_tokens: int, folder: Path) -> tuple[float, float, int]:
    """Wall and CPU seconds of one run, and the reply tokens it decoded."""
    os.environ["INSPECT_CACHE_DIR"] = tempfile.mkdtemp(dir=folder)
    task = medhallu(dataset=benchmark("medhallu").example, limit=rows, max_tokens=max_tokens)
    wall, cpu = time.perf_counter(), time.process_time()
    [log] = eval(task, model=model, log_dir=str(folder / "logs"), display="none")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert log.status == "success", log.error
    return wall, cpu, sum(s.output.usage.output_tokens for s in log.samples or [] if s.output.usage)


def main() -> None:
    args = options(__doc__, samples=12, max_tokens=128)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        tiny = f"embedded/{write_tiny_model(folder / 'tiny.gguf')}"
        models = {"tiny": tiny, "smollm2": "embedded/smollm2"}
        measured = {}
        for name, model in models.items():
            timed(model, args.samples, args.max_tokens, folder)  # loads the engine
            measured[name] = timed(model, args.samples, args.max_tokens, folder)
    print(f"rows={args.samples} max_tokens={args.max_tokens} cores={os.cpu_count()}")
    print(f"{'model':8} {'wall s':>7} {'cpu s':>6} {'reply tokens':>13}")
    for name, (wall, cpu, tokens) in measured.items():
        print(f"{name:8} {wall:7.2f} {cpu:6.2f} {tokens:13d}")
    (tw, tc, _), (sw, sc, _) = measured["tiny"], measured["smollm2"]
    print(f"tiny/smollm2: wall {tw / sw:.2f}, cpu {tc / sc:.2f}")


if __name__ == "__main__":
    main()
