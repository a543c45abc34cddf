"""NLI with a transformers sequence-classification model (MNLI-style labels)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import anyio

from medhalbench._errors import ResourceUnavailableError
from medhalbench._hubmodels import local_or_hub, offline_error

DEFAULT_NLI_MODEL = "microsoft/deberta-large-mnli"


def entailment_index(id2label: dict[int, str] | dict[str, str]) -> int:
    """The class index whose label names entailment (case-insensitive).

    Raises:
        ResourceUnavailableError: No label mentions entailment.
    """
    for index, label in id2label.items():
        if "entail" in str(label).lower() and "not" not in str(label).lower():
            return int(index)
    raise ResourceUnavailableError(
        f"NLI model labels {dict(id2label)} name no entailment class; use an MNLI-style model."
    )


class TransformersNLI:
    """P(entailment) from an MNLI-style classifier (softmax over its classes).

    Args:
        name_or_path: Hub name (default `microsoft/deberta-large-mnli`, which needs the hub
            or its local cache) or a local model folder.
        batch_size: Pairs per forward pass.
        device: Torch device (default CPU).
        max_length: Token limit per pair (longer pairs are truncated).
    """

    def __init__(
        self,
        name_or_path: str = DEFAULT_NLI_MODEL,
        *,
        batch_size: int = 16,
        device: str = "cpu",
        max_length: int = 512,
    ) -> None:
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        self.name = name_or_path
        source, local_only = local_or_hub(name_or_path, what="NLI model")
        try:
            self.tokenizer: Any = AutoTokenizer.from_pretrained(source, local_files_only=local_only)
            self.model: Any = AutoModelForSequenceClassification.from_pretrained(
                source, local_files_only=local_only
            )
        except Exception as ex:
            raise offline_error(name_or_path, "NLI model", ex) from None
        self.model.to(device).eval()
        self.device = device
        self.batch_size = batch_size
        self.max_length = max_length
        self.entailment_label = entailment_index(self.model.config.id2label)
        self._lock = threading.Lock()

    def entailment_batch_sync(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """Entailment probabilities, computed in batches of `batch_size`."""
        import torch

        probabilities: list[float] = []
        with self._lock, torch.inference_mode():
            for start in range(0, len(pairs), self.batch_size):
                chunk = pairs[start : start + self.batch_size]
                encoded = self.tokenizer(
                    [p for p, _ in chunk],
                    [h for _, h in chunk],
                    padding=True,
                    truncation=True,
                    max_length=self.max_length,
                    return_tensors="pt",
                ).to(self.device)
                logits = self.model(**encoded).logits
                probabilities.extend(
                    torch.softmax(logits, dim=-1)[:, self.entailment_label].tolist()
                )
        return probabilities

    async def entailment_batch(self, pairs: Sequence[tuple[str, str]]) -> list[float | None]:
        """Entailment probabilities (run in a worker thread)."""
        result = await anyio.to_thread.run_sync(self.entailment_batch_sync, list(pairs))
        return list(result)
