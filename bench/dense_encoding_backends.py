"""Passage vectors on CPU: how much faster the offline all-MiniLM-L6-v2 embeds passages
through ONNX Runtime than through torch (what `medhalbench index --dense` uses), exactly
(float32) and with dynamic int8 weights, and how close each stays to torch's vectors.
Measured side by side in one run, on the same passages, with the same threads.

ONNX Runtime and the onnx exporter are not dependencies of medhalbench: install them for
this measurement only (`pip install --target DIR onnxruntime onnx`, then `PYTHONPATH=DIR`).

    PYTHONPATH=/tmp/ortpkgs .venv/bin/python bench/dense_encoding_backends.py --index DIR
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from medhalbench.embeddings import Embedder


class _LastHidden(torch.nn.Module):
    """The transformer with positional inputs and its last hidden state as the output."""

    def __init__(self, model: Any) -> None:
        super().__init__()
        self.model = model

    def forward(self, ids: Any, mask: Any, types: Any) -> Any:
        return self.model(
            input_ids=ids, attention_mask=mask, token_type_ids=types
        ).last_hidden_state


def _onnx_vectors(path: Path, texts: list[str], tokenizer: Any, threads: int) -> tuple[Any, float]:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    order = np.argsort([len(t) for t in texts])  # as sentence-transformers batches: by length
    vectors = np.zeros((len(texts), 384), np.float32)
    started = time.perf_counter()
    for start in range(0, len(texts), 32):
        rows = order[start : start + 32]
        batch = tokenizer(
            [texts[i] for i in rows], padding=True, truncation=True, max_length=256,
            return_tensors="np",
        )  # fmt: skip
        names = ("input_ids", "attention_mask", "token_type_ids")
        hidden = session.run(None, dict(zip(("ids", "mask", "types"), (batch[n].astype(np.int64) for n in names), strict=True)))[0]  # fmt: skip
        mask = batch["attention_mask"][..., None]
        pooled = (hidden * mask).sum(1) / mask.sum(1)
        vectors[rows] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
    return vectors, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", required=True, help="An index folder (its passages).")
    parser.add_argument("--passages", type=int, default=512)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with (Path(args.index) / "passages.jsonl").open() as f:
        texts = [json.loads(line)["text"] for _, line in zip(range(args.passages), f, strict=False)]
    torch.set_num_threads(args.threads)
    model = Embedder().model
    started = time.perf_counter()
    reference = model.encode(texts, normalize_embeddings=True, batch_size=32)
    torch_seconds = time.perf_counter() - started
    print(f"{len(texts)} passages, {args.threads} threads")
    print(f"  torch float32 (ours)      {len(texts) / torch_seconds:6.1f} passages/s")
    tokenizer = model.tokenizer
    with tempfile.TemporaryDirectory() as folder:
        exact, int8 = Path(folder) / "model.onnx", Path(folder) / "model-int8.onnx"
        sample = tokenizer(texts[:2], padding=True, return_tensors="pt")
        inputs = (sample["input_ids"], sample["attention_mask"], sample["token_type_ids"])
        axes = {name: {0: "batch", 1: "tokens"} for name in ("ids", "mask", "types", "hidden")}
        torch.onnx.export(
            _LastHidden(model[0].auto_model).eval(), inputs, str(exact),
            input_names=["ids", "mask", "types"], output_names=["hidden"],
            dynamic_axes=axes, opset_version=17, dynamo=False,
        )  # fmt: skip
        quantize_dynamic(str(exact), str(int8), weight_type=QuantType.QInt8)
        for name, path in (("ONNX Runtime float32", exact), ("ONNX Runtime int8", int8)):
            vectors, seconds = _onnx_vectors(path, texts, tokenizer, args.threads)
            cosine = (vectors * reference).sum(axis=1)
            print(
                f"  {name:<25} {len(texts) / seconds:6.1f} passages/s, x{torch_seconds / seconds:.2f}"
                f" of torch; cosine to torch's vectors min {cosine.min():.4f} mean {cosine.mean():.4f}"
            )


if __name__ == "__main__":
    main()
