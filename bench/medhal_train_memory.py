"""Peak memory (max RSS) and time of `medhal train` on the CPU, each in a fresh process: the
bounded step (logits only where the answer is predicted, gradient checkpointing) against the
step as it was (logits over every token, every layer's activations kept), on the same
examples and seed, with their losses side by side.

    .venv/bin/python bench/medhal_train_memory.py [--data ../shared/data] [--steps 3]

The examples are SumPubMed full texts cut to 4,000 characters (about 770 tokens, the `ours`
protocol's 768-token examples), with a sentence of each as the statement.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import dataclasses, json, resource, sys
from medhalbench.medhal import _train
if {as_before!r}:
    # The step as it was: the model's own loss over full logits, no checkpointing.
    _train.answer_loss = lambda model, batch: model(
        input_ids=batch["input_ids"], attention_mask=batch["attention_mask"],
        position_ids=batch["position_ids"], labels=batch["labels"]).loss
    made = _train.recipe
    _train.recipe = lambda *a, **k: dataclasses.replace(made(*a, **k), gradient_checkpointing=False)
result = _train.train_medhal(_train.TrainRequest(data={data!r}, out={out!r},
    base="embedded/smollm2", steps={steps}), show_progress=False)
print(json.dumps({{"rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "seconds": result.seconds, "losses": result.losses}}))
"""


def _examples(data: Path, path: Path, count: int = 16) -> None:
    texts = sorted((data / "sumpubmed" / "text").glob("*.txt"))[:count]
    if len(texts) < count:
        sys.exit(f"{data}/sumpubmed/text: fewer than {count} papers (see ../shared/data)")
    with path.open("w") as out:
        for i, text_file in enumerate(texts):
            text = text_file.read_text()[:4000]
            statement = text.split(". ")[3][:200]
            out.write(json.dumps({
                "id": f"s{i}", "context": text, "statement": statement, "label": i % 2 == 0,
                "explanation": "" if i % 2 == 0 else "The statement contradicts the context.",
                "source": "sumpubmed", "synthetic": False,
            }) + "\n")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data")
    )
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        examples = Path(tmp) / "train.jsonl"
        _examples(Path(args.data), examples)
        found = {}
        for name, as_before in (("bounded", False), ("as before", True)):
            child = CHILD.format(
                as_before=as_before, data=str(examples), out=str(Path(tmp) / name),
                steps=args.steps,
            )  # fmt: skip
            done = subprocess.run(
                [sys.executable, "-c", child], capture_output=True, text=True, check=True
            )
            found[name] = json.loads(done.stdout.strip().splitlines()[-1])
            print(
                f"{name:>9}: peak RSS {found[name]['rss_mb']:,.0f} MB, {args.steps} steps in "
                f"{found[name]['seconds']:.1f} s, losses "
                + ", ".join(f"{x:.4f}" for x in found[name]["losses"])
            )
        bounded, before = found["bounded"], found["as before"]
        print(
            f"memory {bounded['rss_mb'] / before['rss_mb']:.2f}x, time "
            f"{bounded['seconds'] / before['seconds']:.2f}x of the step as it was"
        )


if __name__ == "__main__":
    main()
