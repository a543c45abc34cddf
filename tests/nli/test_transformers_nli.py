"""The transformers NLI path, with a small model the test builds and saves itself."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import torch

from medhalbench import ResourceUnavailableError
from medhalbench.nli import TransformersNLI, bidirectional_entailment, entailment, entailment_index

WORDS = "the patient has a fever cough no yes aspirin reduces pain is not sick".split()


def save_tiny_nli(folder: Path, id2label: dict[int, str]) -> Path:
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    folder.mkdir(parents=True, exist_ok=True)
    vocab = folder / "vocab.txt"
    vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]) + "\n")
    BertTokenizerFast(vocab_file=str(vocab)).save_pretrained(folder)
    config = BertConfig(
        vocab_size=5 + len(WORDS), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=64, num_labels=len(id2label),
        id2label=id2label, label2id={v: k for k, v in id2label.items()},
    )  # fmt: skip
    torch.manual_seed(0)
    BertForSequenceClassification(config).save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def tiny_nli(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save_tiny_nli(
        tmp_path_factory.mktemp("nli"), {0: "CONTRADICTION", 1: "NEUTRAL", 2: "ENTAILMENT"}
    )


PAIRS = [
    ("the patient has a fever", "the patient is sick"),
    ("aspirin reduces pain", "aspirin is not pain"),
    ("the patient has a cough", "no fever"),
    ("yes", "no"),
    ("the patient is not sick", "the patient has a fever cough"),
]


def test_loads_finds_label_and_matches_a_manual_forward_pass(tiny_nli: Path) -> None:
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    nli = TransformersNLI(str(tiny_nli), batch_size=2)
    assert nli.entailment_label == 2
    probabilities = asyncio.run(nli.entailment_batch(PAIRS))
    tokenizer = AutoTokenizer.from_pretrained(tiny_nli)
    model = AutoModelForSequenceClassification.from_pretrained(tiny_nli).eval()
    with torch.inference_mode():
        for (premise, hypothesis), p in zip(PAIRS, probabilities, strict=True):
            logits = model(**tokenizer(premise, hypothesis, return_tensors="pt")).logits
            assert p == pytest.approx(torch.softmax(logits, -1)[0, 2].item(), abs=1e-5)
    assert all(0.0 < p < 1.0 for p in probabilities)


def test_batching_does_not_change_results(tiny_nli: Path) -> None:
    one = asyncio.run(TransformersNLI(str(tiny_nli), batch_size=1).entailment_batch(PAIRS))
    many = asyncio.run(TransformersNLI(str(tiny_nli), batch_size=4).entailment_batch(PAIRS))
    assert one == pytest.approx(many, abs=1e-5)


def test_bidirectional_is_the_minimum(tiny_nli: Path) -> None:
    nli = TransformersNLI(str(tiny_nli))
    a, b = PAIRS[0]
    forward = asyncio.run(entailment(nli, a, b))
    backward = asyncio.run(entailment(nli, b, a))
    assert asyncio.run(bidirectional_entailment(nli, a, b)) == pytest.approx(min(forward, backward))


def test_label_lookup() -> None:
    assert entailment_index({0: "entailment", 1: "neutral", 2: "contradiction"}) == 0
    assert entailment_index({"0": "LABEL_NOT_ENTAILMENT", "1": "ENTAILMENT"}) == 1
    with pytest.raises(ResourceUnavailableError, match="no entailment class"):
        entailment_index({0: "LABEL_0", 1: "LABEL_1"})


def test_model_without_entailment_label_is_refused(tmp_path: Path) -> None:
    folder = save_tiny_nli(tmp_path / "m", {0: "positive", 1: "negative"})
    with pytest.raises(ResourceUnavailableError, match="no entailment class"):
        TransformersNLI(str(folder))


@pytest.mark.usefixtures("offline_hub")
def test_hub_name_offline_fails_fast() -> None:
    import time

    start = time.monotonic()
    with pytest.raises(ResourceUnavailableError, match="pass a local path"):
        TransformersNLI("microsoft/deberta-large-mnli")
    assert time.monotonic() - start < 30
