"""The fine-tuning path end to end: a few LoRA steps on an embedded GGUF model (the tiny one:
the path, not the model, is the point), then evaluation via hf/ and of its own GGUF."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from inspect_ai import eval

from medhalbench.medhal import medhal
from medhalbench.medhal._task import judge_prompts
from medhalbench.medhal._train import (
    IGNORE_INDEX,
    TrainRequest,
    encode_example,
    train_medhal,
)

pytestmark = pytest.mark.slow

ROWS = [
    {"id": f"s{i}-{k}", "context": "Temperature 39.5 C." if i % 2 else None, "statement": s, "label": lab,
     "explanation": None if lab else "Scurvy is caused by vitamin C deficiency.", "inner_id": str(i), "source": "medqa", "synthetic": True}
    for i in range(3)
    for k, s, lab in (("f", "Scurvy is caused by vitamin C deficiency.", True), ("n", "Scurvy is caused by vitamin K deficiency.", False))
]  # fmt: skip


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("medhal")
    for split in ("train", "test"):
        (folder / f"{split}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    return folder


def test_labels_cover_the_answer_only(data: Path) -> None:
    from transformers import AutoTokenizer

    from medhalbench.medhal import MedHalRecord
    from medhalbench.models import smollm2_gguf_path

    gguf = smollm2_gguf_path()
    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    system, template = judge_prompts()
    record = MedHalRecord.model_validate(ROWS[1])
    example = encode_example(record, tokenizer, system, template, max_length=512)
    answer_ids = [
        t
        for t, label in zip(example["input_ids"], example["labels"], strict=True)
        if label != IGNORE_INDEX
    ]
    assert tokenizer.decode(answer_ids).startswith(
        "Factual: NO\nExplanation: Scurvy is caused by vitamin C"
    )
    assert example["labels"][: len(example["labels"]) - len(answer_ids)] == [IGNORE_INDEX] * (
        len(example["labels"]) - len(answer_ids)
    )
    long = MedHalRecord.model_validate({**ROWS[1], "context": "word " * 3000})
    cut = encode_example(long, tokenizer, system, template, max_length=256)
    assert len(cut["input_ids"]) <= 256 and tokenizer.decode(
        [t for t, lab in zip(cut["input_ids"], cut["labels"], strict=True) if lab != IGNORE_INDEX]
    ).startswith("Factual: NO")


def test_a_few_steps_train_save_and_evaluate(data: Path, tiny_model: str, tmp_path: Path) -> None:
    result = train_medhal(
        TrainRequest(
            data=str(data),
            out=str(tmp_path / "ft"),
            base=tiny_model,
            steps=3,
            batch_size=2,
            max_length=256,
        ),
        show_progress=False,
    )
    assert result.steps == 3 and len(result.losses) == 3 and all(loss > 0 for loss in result.losses)
    assert not result.quantized or torch.cuda.is_available()
    assert (tmp_path / "ft" / "adapter" / "adapter_config.json").is_file()
    assert (tmp_path / "ft" / "merged" / "config.json").is_file() and (
        tmp_path / "ft" / "base" / "config.json"
    ).is_file()
    base_gguf, merged_gguf = result.gguf_files() or ("", "")
    # Both exports hold every weight of the base (at least as many bytes as its own GGUF).
    source = Path(tiny_model.removeprefix("embedded/")).stat().st_size
    assert Path(base_gguf).stat().st_size >= source and Path(merged_gguf).stat().st_size >= source
    summary = json.loads((tmp_path / "ft" / "training.json").read_text())
    assert summary["settings"]["steps"] == 3 and summary["examples"] == 6
    [log] = eval(
        medhal(dataset=str(data), split="test", limit=2, max_tokens=16),
        model=f"hf/{result.merged_dir}", model_args={"do_sample": False}, log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    assert log.status == "success", log.error
    assert len(log.samples) == 2 and all(s.output.completion is not None for s in log.samples)
    # The same fine-tuned model, exported to GGUF, runs in-process.
    [log] = eval(
        medhal(dataset=str(data), split="test", limit=2, max_tokens=16),
        model=f"embedded/{merged_gguf}", log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    assert log.status == "success", log.error
    assert len(log.samples) == 2


def test_the_answer_loss_is_the_models_own_loss_on_left_padded_batches() -> None:
    # Logits made only where the answer is predicted, with examples padded on the left: the
    # same loss as the model's own over full logits of the unpadded examples.
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    from medhalbench.medhal._train import IGNORE_INDEX, _batch, answer_loss

    torch.manual_seed(0)
    model = LlamaForCausalLM(
        LlamaConfig(vocab_size=97, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                    num_attention_heads=4, num_key_value_heads=2)
    ).eval()  # fmt: skip
    examples = [
        {"input_ids": list(range(5, 25)), "labels": [IGNORE_INDEX] * 17 + [21, 22, 23]},
        {"input_ids": list(range(30, 39)), "labels": [IGNORE_INDEX] * 4 + [34, 35, 36, 37, 38]},
    ]
    batch = _batch(examples, pad_id=0)
    assert batch["attention_mask"][1].tolist()[:11] == [0] * 11  # padded on the left
    ours = answer_loss(model, batch)
    # The model's own: each example alone, unpadded, every token's logits; mean over tokens.
    total, count = 0.0, 0
    for e in examples:
        logits = model(input_ids=torch.tensor([e["input_ids"]])).logits[0, :-1]
        labels = torch.tensor(e["labels"][1:])
        total += float(torch.nn.functional.cross_entropy(logits, labels, reduction="sum",
                                                         ignore_index=IGNORE_INDEX))  # fmt: skip
        count += int((labels != IGNORE_INDEX).sum())
    assert abs(float(ours) - total / count) < 1e-5
