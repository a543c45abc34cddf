"""Embeddings with the real offline all-MiniLM-L6-v2."""

from __future__ import annotations

import numpy as np
import pytest

from medhalbench import ResourceUnavailableError
from medhalbench.embeddings import Embedder, cosine_similarity

pytestmark = pytest.mark.slow


def test_default_model_loads_offline_and_ranks_meaning() -> None:
    embedder = Embedder()
    vectors = embedder.encode(
        [
            "Aspirin reduces the risk of heart attack.",
            "Aspirin lowers myocardial infarction risk.",
            "The train leaves at noon.",
        ]
    )
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    close, far = (
        cosine_similarity(vectors[0], vectors[1]),
        cosine_similarity(vectors[0], vectors[2]),
    )
    assert close > far + 0.3
    assert embedder.similarity("same text", "same text") == pytest.approx(1.0, abs=1e-5)


def test_local_folder_by_path_is_the_same_model() -> None:
    from medhalbench.embeddings import packaged_minilm_path

    a = Embedder().encode(["fever"])
    b = Embedder(str(packaged_minilm_path())).encode(["fever"])
    assert np.allclose(a, b)


@pytest.mark.usefixtures("offline_hub")
def test_unknown_hub_name_offline_is_a_clear_error() -> None:
    with pytest.raises(ResourceUnavailableError, match="local path"):
        Embedder("sentence-transformers/all-mpnet-base-v2")


def test_cosine_of_zero_vector() -> None:
    assert cosine_similarity(np.zeros(3), np.ones(3)) == 0.0
