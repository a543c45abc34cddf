"""The learned stage of `ours`: a logistic regression on a question's sentence embedding (and
the flags the rules compute, `_filters.learned_flags`) that catches what the word rules miss
(the DAHL README's "The learned stage": its training, threshold and figures). The weights ship
beside this module with the embedder's name and fingerprint (another embedder is refused);
they and the embedder load on first use, once per process."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from medhalbench import embeddings
from medhalbench._errors import ResourceUnavailableError
from medhalbench.data import write_text_atomically

WEIGHTS = Path(__file__).with_name("paper_dependence_weights.jsonl")
"""The shipped weights."""
RETRAIN = ".venv/bin/python bench/dahl_filter_train.py"
"""The command that remakes `WEIGHTS`."""
NO_LEARNED = "--no-learned runs the word rules alone"
BATCH_SIZE = 256
"""Questions per forward pass (a question is ~26 tokens; 256 is ~1.7x faster than 32 on CPU)."""


@dataclass(frozen=True)
class LearnedWeights:
    """A logistic regression on L2-normalised sentence embeddings.

    Attributes:
        embedder: The embedding model's name (`Embedder(embedder)`).
        fingerprint: `Embedder(embedder).fingerprint` of the model the weights were fit on.
        flags: The names of the binary features after the embedding, in order.
        threshold: A question is dropped when its probability is at least this.
        coef: One weight per embedding dimension, then one per flag.
        intercept: The bias.
        about: How they were made (training data, cross-validated figures).
    """

    embedder: str
    fingerprint: str
    flags: tuple[str, ...]
    threshold: float
    coef: np.ndarray
    intercept: float
    about: dict[str, Any] = field(default_factory=dict)

    def probabilities(self, embeddings: np.ndarray, flags: np.ndarray) -> np.ndarray:
        """The probability that each question needs its paper, from its embedding and flags
        (one row each)."""
        if len(embeddings) == 0:
            return np.zeros(0)
        features = np.hstack(
            [np.asarray(embeddings, dtype=np.float64), np.asarray(flags, dtype=np.float64)]
        )
        logits = features @ self.coef + self.intercept
        return 1.0 / (1.0 + np.exp(-logits))

    def write(self, path: str | Path = WEIGHTS) -> None:
        """Write the weights as one JSON record."""
        record = {
            "embedder": self.embedder,
            "fingerprint": self.fingerprint,
            "flags": list(self.flags),
            "threshold": self.threshold,
            "intercept": self.intercept,
            "coef": [round(float(c), 7) for c in self.coef],
            "about": self.about,
        }
        write_text_atomically(path, json.dumps(record) + "\n")


def read_weights(path: str | Path = WEIGHTS) -> LearnedWeights:
    """The weights of a file written by `LearnedWeights.write`.

    Raises:
        ResourceUnavailableError: The file is absent or not such weights.
    """
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
        return LearnedWeights(
            embedder=str(record["embedder"]),
            fingerprint=str(record["fingerprint"]),
            flags=tuple(str(f) for f in record["flags"]),
            threshold=float(record["threshold"]),
            coef=np.asarray(record["coef"], dtype=np.float64),
            intercept=float(record["intercept"]),
            about=dict(record.get("about", {})),
        )
    except (OSError, ValueError, KeyError, TypeError) as ex:
        raise ResourceUnavailableError(
            f"The learned stage's weights {path} cannot be read ({type(ex).__name__}: {ex}); "
            f"remake them with `{RETRAIN}` ({NO_LEARNED})."
        ) from None


def embed_questions(embedder: Any, questions: Sequence[str]) -> np.ndarray:
    """L2-normalised embeddings of questions, `BATCH_SIZE` at a time (the training script
    embeds through this too, so that training and use see the same vectors)."""
    return embedder.encode(questions, batch_size=BATCH_SIZE)


class LearnedStage:
    """The weights and the embedder they were fit on.

    Raises:
        ResourceUnavailableError: The embedder cannot be loaded, or its fingerprint is not the
            weights'.
    """

    def __init__(self, weights: LearnedWeights, embedder: Any | None = None) -> None:
        self.weights = weights
        if embedder is None:
            try:
                # Looked up on the package, where a test replaces it.
                embedder = embeddings.Embedder(weights.embedder)
            except ResourceUnavailableError as ex:
                raise ResourceUnavailableError(
                    f"The learned stage of `ours` needs its embedding model: {ex} ({NO_LEARNED})."
                ) from None
        found = embedder.fingerprint
        if found != weights.fingerprint:
            raise ResourceUnavailableError(
                f"The learned stage's weights were fit on {weights.embedder} embeddings with "
                f"fingerprint {weights.fingerprint}, but the loaded model's is {found}: retrain "
                f"them with `{RETRAIN}` ({NO_LEARNED})."
            )
        self.embedder = embedder

    @property
    def threshold(self) -> float:
        """A question is dropped when its probability is at least this."""
        return self.weights.threshold

    def probabilities(self, questions: Sequence[str], flags: np.ndarray) -> np.ndarray:
        """The probability that each question needs its paper, embedded in batches; `flags`:
        one row of the weights' flags per question."""
        return self.weights.probabilities(embed_questions(self.embedder, questions), flags)


_stage: LearnedStage | None = None
_lock = threading.Lock()


def learned_stage(flags: Sequence[str]) -> LearnedStage:
    """The shipped stage, loaded on first use and kept for the process.

    Args:
        flags: The names of the flags the caller computes; weights fit on others are refused.
    """
    global _stage
    with _lock:
        if _stage is None:
            _stage = LearnedStage(read_weights())
        stage = _stage
    if stage.weights.flags != tuple(flags):
        raise ResourceUnavailableError(
            f"The learned stage's weights were fit with the flags {list(stage.weights.flags)}, "
            f"but the rules compute {list(flags)}: retrain them with `{RETRAIN}` ({NO_LEARNED})."
        )
    return stage
