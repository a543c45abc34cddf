"""MedHal's settings: the task's, its builder's and its fine-tuning's. Light: the command line
reads them for its options and help without loading the benchmark."""

from __future__ import annotations

from typing import Annotated, Literal, Self, get_args

from pydantic import Field, PlainSerializer, model_validator

from medhalbench.examples import illustrative
from medhalbench.settings import (
    COMMA_SEPARATED,
    DEFAULT_EMBEDDER,
    DEFAULT_MODEL,
    BenchmarkSettings,
    BuilderSettings,
    ByProtocol,
    Count,
    DataSource,
    InputFile,
    Internal,
    LocalPath,
    Means,
    NotTaken,
    OutputFolder,
    Outputs,
    PartOf,
    Positive,
    ProtocolSettings,
    Qualifies,
    ReplyTokens,
    ScoreThreshold,
    SettingProblem,
    Share,
    Spelling,
    parsed_text,
)

DEFAULT_JUDGE_MAX_TOKENS = 256
"""The judge's reply: a verdict and an explanation."""


class MedHalSettings(BenchmarkSettings):
    """MedHal: is the statement factual (given its context), and why not?

    Examples:
        medhalbench eval medhal --dataset medhal_data --model openai/gpt-4o-mini
        medhalbench eval medhal --dataset medhal_data --sources qa,nli --limit 200 --model openai/gpt-4o-mini
    """

    example = illustrative("medhal_illustrative.jsonl")

    dataset: Annotated[DataSource, Means("samples")]
    """MedHal build folder, DatasetDict folder, JSONL/CSV/Parquet file, or hub id."""
    responses: Outputs = Field(
        None,
        description="Score a judge's replies written elsewhere instead of generating "
        "(CSV/JSONL: id or statement, and reply); statements without a reply are left out.",
    )
    predict: Annotated[bool, Means("condition")] = False
    """Judge statements without labels (statement[, context, id, source]): a verdict and an
    explanation each, written as JSONL beside the log; no figures."""
    split: Annotated[str, Means("samples"), PartOf("dataset")] = "test"
    """Split to evaluate (build folders and DatasetDicts)."""
    sources: Annotated[list[str] | None, COMMA_SEPARATED, Means("samples")] = None
    """Keep these sources (comma-separated, e.g. medqa,sumpubmed)."""
    prompt: Annotated[InputFile | None, Means("replies")] = None
    """File replacing the system prompt."""
    template: Annotated[InputFile | None, Means("replies")] = None
    """File replacing the user template ({context_block}, {statement})."""
    score_threshold: Annotated[ScoreThreshold, Qualifies("prompt")] = None
    max_tokens: ReplyTokens = DEFAULT_JUDGE_MAX_TOKENS
    paper_call: Annotated[Literal["open"] | None, Means("replies")] = None
    """Call the judge as the authors' `medhal_eval.py` did: their task description in front
    of the context and the statement, in one message, at temperature 0, top-p 1 and 4,096
    tokens (the prompts stay ours unless given as files; they called no API model)."""
    embedder: Annotated[str | None, Means("judging")] = DEFAULT_EMBEDDER
    """Sentence-transformers model for the explanation similarity (MedHal's code uses
    all-MiniLM-L6-v2); 'none' turns it off."""

    @property
    def similarity(self) -> str | None:
        """The model of the explanation similarity (None: off)."""
        return None if self.embedder in (None, "", "none") else self.embedder


SourceName = Literal["medqa", "medmcqa", "mednli", "acn", "sumpubmed"]
"""The datasets MedHal is built from."""
SOURCES: tuple[SourceName, ...] = get_args(SourceName)


def parse_source(value: str) -> tuple[SourceName, str]:
    """Read `NAME=PATH`.

    Raises:
        ValueError: Not of that form, or an unknown source name.
    """
    name, separator, path = value.partition("=")
    name = name.strip().lower()
    if not separator or not path.strip():
        raise ValueError(f"expected NAME=PATH, got {value!r}")
    if name not in SOURCES:
        raise ValueError(f"unknown source {name!r} (expected one of {', '.join(SOURCES)})")
    return name, path.strip()


Source = Annotated[
    tuple[SourceName, Annotated[str, LocalPath()]],
    parsed_text(parse_source),
    PlainSerializer(lambda source: f"{source[0]}={source[1]}"),
]
"""A dataset and where it is, written `NAME=PATH`."""
_THEIR_LENGTH = "their 30,000-character limit on each sample applies instead"


class MedHalBuild(BuilderSettings):
    """Build MedHal: paired factual / non-factual statements from medical datasets.
    `--protocol paper` follows the authors' build code rule by rule (their MedMCQA filter and
    contexts, sample-wise sentence and length filters, their synthetic flags; see the
    README's table).

    Examples:
        medhalbench build medhal --source medqa=medqa_test.json --source sumpubmed=sumpubmed/ --out medhal_data --model openai/gpt-4o-mini
        medhalbench build medhal --source medmcqa=medmcqa_dev.json --out medhal_data --protocol paper --dry-run --model openai/gpt-4o-mini
    """

    sources: Annotated[list[Source], Spelling(flag="--source", metavar="NAME=PATH")]
    """NAME=PATH, repeatable; names: medqa, medmcqa (QA layouts), mednli, acn (Augmented
    Clinical Notes), sumpubmed (folder)."""
    limit: Count | None = None
    """Use the first N items of each source."""
    max_tokens: Annotated[Count | None, ByProtocol(8192, NotTaken(_THEIR_LENGTH))] = None
    """Token budget (estimated at 4 characters a token) of context + statement; larger pairs
    are dropped and counted."""
    facts_per_note: Count = 2
    """Key-values used per clinical note."""
    nli: str | None = None
    """Also require each QA statement to be entailed by its question and option: 'llm' (an
    LLM judge: --model, else the embedded model), 'llm:MODEL' or a transformers NLI model
    (default: the word match alone)."""
    nli_threshold: Share = 0.5
    """Entailment probability a QA statement needs (with --nli)."""
    seed: int = 42
    """Seed of option, sentence and key choices and of the split."""
    concurrency: Count = 4
    """Items in flight at once."""

    @model_validator(mode="after")
    def _sources_once(self) -> Self:
        repeated = [
            f"{n}={p}" for i, (n, p) in enumerate(self.sources) if (n, p) in self.sources[:i]
        ]
        if repeated:
            raise SettingProblem("sources", f"{repeated[0]} is given more than once")
        if not self.sources:
            raise SettingProblem("sources", "give at least one NAME=PATH")
        return self


Schedule = Literal["cosine", "linear"]
"""How the learning rate decays to 0."""


class TrainSettings(ProtocolSettings):
    """Fine-tuning knobs; a knob left unset takes the protocol's value (`ours`: sized for
    SmolLM2-135M on 2 CPU cores; `paper`: the authors' `configs/train_example.yaml` and
    `med_hal_trainer.py`: one epoch of batch 8 x 4 accumulated, AdamW 2e-4 with weight decay
    0.01 and a linear decay, LoRA r 64 / alpha 16 / dropout 0 on q, k, v, o, gate, up and down,
    8,192 tokens, bf16 on CUDA)."""

    steps: Annotated[Count | None, ByProtocol(200, None)] = None
    """Optimiser steps (paper: from the epochs)."""
    epochs: Annotated[Count | None, ByProtocol(None, 1)] = None
    """Passes over the training split; sets the steps when given (and, under `paper`, when
    --steps is not)."""
    batch_size: Annotated[Count | None, ByProtocol(4, 8)] = None
    """Examples per forward pass."""
    accumulation: Annotated[Count | None, ByProtocol(1, 4)] = None
    """Passes accumulated per optimiser step."""
    learning_rate: Positive = 2e-4
    """AdamW learning rate (both: 2e-4)."""
    weight_decay: Annotated[float | None, Internal(), ByProtocol(0.0, 0.01)] = None
    """AdamW weight decay."""
    lora_r: Annotated[Count | None, ByProtocol(16, 64)] = None
    """LoRA rank."""
    lora_alpha: Annotated[Count | None, ByProtocol(32, 16)] = None
    """LoRA scaling."""
    lora_dropout: Annotated[float | None, Internal(), ByProtocol(0.05, 0.0)] = None
    """LoRA dropout."""
    all_projections: Annotated[bool | None, ByProtocol(False, True)] = None
    """LoRA on all seven projections, the MLP's too, else on the attention projections
    (--no-all-projections)."""
    max_length: Annotated[Count | None, ByProtocol(768, 8192)] = None
    """Tokens per example, long contexts cut."""
    schedule: Annotated[Schedule | None, Internal(), ByProtocol("cosine", "linear")] = None
    """The learning rate's decay to 0."""
    seed: int = 42
    """Seed of the example order and the adapter's initialisation."""
    limit: Count | None = None
    """Use the first N training samples."""
    log_every: Annotated[int, Internal()] = 10
    """Steps between loss reports."""


class TrainRequest(TrainSettings):
    """LoRA fine-tune of a MedHal evaluator (QLoRA on CUDA), loss on the answer only.

    Examples:
        medhalbench medhal train --data medhal_data --out evaluator --steps 10
        medhalbench medhal train --data medhal_data --out evaluator --protocol paper --base Qwen/Qwen2.5-0.5B-Instruct
    """

    data: DataSource
    """A MedHal build folder (its train split is used) or DatasetDict folder."""
    out: OutputFolder
    """Output folder (adapter/, merged/, base/, training.json)."""
    base: str = DEFAULT_MODEL
    """Base model: embedded/smollm2 (dequantised from its GGUF), embedded/PATH.gguf, a local
    folder or a hub name."""
    dry_run: bool = False
    """Print the resolved recipe (knobs, projections, precision, steps over the training
    split) and write nothing."""
