"""MedHallu's settings: the detection task's, its builder's and its tools'. Light: the command
line reads them for its options and help without loading the benchmark."""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import Field, PlainSerializer, model_validator

from medhalbench.examples import illustrative
from medhalbench.settings import (
    COMMA_SEPARATED,
    DEFAULT_EMBEDDER,
    BenchmarkSettings,
    BuilderSettings,
    ByProtocol,
    Cache,
    Count,
    DataSource,
    Grounding,
    InputFile,
    Internal,
    LocalPath,
    Means,
    NotTaken,
    OutputFile,
    OutputFolder,
    Outputs,
    PartOf,
    ProtocolSettings,
    Qualifies,
    ReplyTemperature,
    ReplyTokens,
    SampleLimit,
    SampleSeed,
    ScoreThreshold,
    SettingProblem,
    Settings,
    Share,
    Spelling,
    parsed_text,
)

MEDHALLU_HUB = "UTAustin-AIHealth/MedHallu"
"""MedHallu on the hub."""
MedHalluConfig = Literal["pqa_labeled", "pqa_artificial"]
"""MedHallu's hub configs."""
Difficulty = Literal["easy", "medium", "hard"]
"""How many discriminators a hallucinated answer fooled: all (hard), several, one (easy)."""
Pairing = Literal["both", "random"]
"""Judge both answers of every row, or one at random (the authors' script)."""
DETECTION_TEMPERATURE = 0.3
"""The detector's temperature (MedHallu's)."""
DETECTION_MAX_TOKENS = 128
"""The detector's reply length."""


class MedHalluSettings(BenchmarkSettings, Grounding):
    """MedHallu hallucination detection: each row's true and hallucinated answers.

    Examples:
        medhalbench eval medhallu --dataset pqa_labeled.jsonl --model openai/gpt-4o-mini
        medhalbench eval medhallu --dataset pqa_labeled.jsonl --knowledge --not-sure --model openai/gpt-4o-mini
        medhalbench eval medhallu --dataset pqa_labeled.jsonl --limit 50 --dry-run --model openai/gpt-4o-mini
    """

    example = illustrative("medhallu_illustrative.jsonl")

    dataset: Annotated[DataSource, Means("samples")] = MEDHALLU_HUB
    """MedHallu hub id or local file (JSONL, CSV, Parquet, save_to_disk folder)."""
    responses: Outputs = Field(
        None,
        description="Score a detector's outputs written elsewhere instead of generating "
        "(CSV/JSONL: id, or question and answer; then reply or verdict 0/1/2); the dataset's "
        "answers without an output are left out.",
    )
    config: Annotated[MedHalluConfig, Means("samples"), PartOf("dataset")] = "pqa_labeled"
    """Hub config."""
    split: Annotated[str, Means("samples"), PartOf("dataset")] = "train"
    """Split to read."""
    knowledge: Annotated[bool, Means("condition")] = False
    """Give the PubMedQA context to the detector."""
    not_sure: Annotated[bool, Means("condition")] = False
    """Allow '2: not sure' as an answer; reports the response rate."""
    difficulty: Annotated[list[Difficulty] | None, COMMA_SEPARATED, Means("samples")] = None
    """Keep rows of these difficulties (e.g. hard, or easy,medium)."""
    limit: SampleLimit = Field(
        None, description="Use the first N rows (two samples each with pairing both)."
    )
    pairing: Annotated[Pairing, Means("samples")] = "both"
    """Judge both answers of every row, or one at random (MedHallu's script)."""
    seed: SampleSeed = 42
    prompt: Annotated[InputFile | None, Means("replies")] = None
    """File replacing the system prompt."""
    template: Annotated[InputFile | None, Means("replies")] = None
    """File replacing the user template ({question}, {answer}, {knowledge})."""
    score_threshold: Annotated[ScoreThreshold, Qualifies("prompt")] = None
    temperature: ReplyTemperature = DETECTION_TEMPERATURE
    max_tokens: ReplyTokens = DETECTION_MAX_TOKENS

    @model_validator(mode="after")
    def _evidence_is_knowledge(self) -> Self:
        if self.evidence is not None and not self.knowledge:
            raise SettingProblem(
                "evidence",
                "gives the detector retrieved passages as its knowledge: add --knowledge",
            )
        return self


PAPER_ATTEMPTS = 5
"""Attempts per question of the authors' build (their NUM_GENERATIONS)."""
_PAPER_NLI = "their NLI only labels a candidate, at 0.5, and drops none"
_NO_LENGTH = "their code has no length check"
_THEIR_PROMPTS = (
    "it sends our wording of the authors' prompts (prompts/paper_*.txt) in their layout; "
    "give yours with --protocol ours"
)
_NO_SEED = "the authors' generator is sent no seed"


class BuildSettings(ProtocolSettings):
    """Knobs of the build; a knob left unset takes its protocol's value, and one the
    protocol does not use is refused (`paper`: the authors' five attempts, temperature 0.8
    and no seed, NLI labels at 0.5 that drop nothing, no length check, their prompts in our
    wording)."""

    attempts: Annotated[Count | None, ByProtocol(5, PAPER_ATTEMPTS)] = None
    """Attempts per question before the fallback keeps the closest candidate."""
    tau: Annotated[Share | None, ByProtocol(0.75, NotTaken(_PAPER_NLI))] = None
    """Bidirectional entailment at or above which a candidate equals the truth."""
    length_tolerance: Annotated[Share | None, ByProtocol(0.10, NotTaken(_NO_LENGTH))] = None
    """Allowed relative difference in words from the ground truth."""
    seed: Annotated[int | None, ByProtocol(42, NotTaken(_NO_SEED))] = None
    """Seed of the generator's temperatures and calls and the discriminators' answer order."""
    cache: Cache = True
    temperature_range: Annotated[tuple[float, float], Internal()] = (0.3, 0.7)
    """The range the generator's temperature is drawn from."""
    generate_prompt: Annotated[InputFile | None, ByProtocol(None, NotTaken(_THEIR_PROMPTS))] = None
    """File replacing the generator prompt."""
    discriminate_prompt: Annotated[InputFile | None, ByProtocol(None, NotTaken(_THEIR_PROMPTS))] = (
        None
    )
    """File replacing the discriminator prompt."""
    refine_prompt: Annotated[InputFile | None, ByProtocol(None, NotTaken(_THEIR_PROMPTS))] = None
    """File replacing the refiner prompt."""


MAX_SHARDS = 10_000
"""The most shards a build is split into (`--shard i/n` and `shard.json` alike): beyond
PubMedQA's labelled questions, and small enough to name the missing ones quickly."""


def shard_range_problem(index: int, count: int) -> tuple[str, str] | None:
    """The field out of range ("index" or "count") and why, or None when shard `index` of
    `count` is in range: one rule for `--shard i/n` and for `shard.json`."""
    if not 1 <= count <= MAX_SHARDS:
        return "count", f"shard count must be in 1..{MAX_SHARDS:,}, got {str(count)[:40]}"
    if not 0 <= index < count:
        return "index", f"shard index must be in 0..{count - 1}, got {str(index)[:40]}"
    return None


def parse_shard(value: str) -> tuple[int, int]:
    """Read `i/n` (0-based shard i of n, n at most `MAX_SHARDS`).

    Raises:
        ValueError: Not of that form, or out of range.
    """
    try:
        index, count = (int(x) for x in value.split("/"))
    except ValueError:
        raise ValueError(f"expected i/n, got {value[:40]!r}") from None
    problem = shard_range_problem(index, count)
    if problem is not None:
        raise ValueError(problem[1])
    return index, count


Shard = Annotated[
    tuple[int, int],
    parsed_text(parse_shard),
    PlainSerializer(lambda shard: f"{shard[0]}/{shard[1]}"),
    Spelling(metavar="I/N"),
]
"""Shard i of n, written `i/n`."""


class MedHalluBuild(BuildSettings, BuilderSettings):
    """Build MedHallu rows: a subtle hallucinated answer and its difficulty per question.
    `--protocol paper` follows the authors' generation.py rule by rule (three discriminators
    named in their order, a fresh and a TextGrad-rewritten candidate per attempt, their vote
    reading and NLI label; see the README's table).

    Examples:
        medhalbench build medhallu --pubmedqa ori_pqal.json --out built --limit 20 --model openai/gpt-4o-mini
        medhalbench build medhallu --pubmedqa ori_pqal.json --out built --protocol paper --discriminator openai/gpt-4o-mini --discriminator hf/google/gemma-2-2b-it --discriminator hf/Qwen/Qwen2.5-3B-Instruct --model openai/gpt-4o-mini --dry-run
        medhalbench build medhallu --pubmedqa ori_pqal.json --out shard0 --shard 0/4 --model openai/gpt-4o-mini
    """

    pubmedqa: DataSource
    """PubMedQA: ori_pqal.json, a hub-layout file, or qiaojin/PubMedQA."""
    nli: str = "llm"
    """'llm' (an LLM judge: --model, else the embedded model), 'llm:MODEL', or a
    transformers NLI model name/path (e.g. microsoft/deberta-large-mnli)."""
    embedder: str = DEFAULT_EMBEDDER
    """Sentence-transformers model for the fallback's similarity."""
    limit: Count | None = None
    """Use the first N questions."""
    shard: Shard | None = None
    """Build shard i of n (0-based), e.g. 0/4; merge shards with 'medhalbench medhallu
    merge'."""
    concurrency: Count = 4
    """Questions in flight at once."""


class Merge(Settings):
    """Merge MedHallu build shards (folders written with --shard) into one dataset.

    Examples:
        medhalbench medhallu merge shard0 shard1 shard2 shard3 --out built
    """

    shards: Annotated[
        list[Annotated[str, LocalPath(file_okay=False, must_exist=True)]],
        Spelling(positional=True),
    ]
    """The shard folders."""
    out: OutputFolder
    """Output folder."""


class ClusterRequest(Settings):
    """Cluster K hallucinated candidates per question with the truth by bidirectional
    entailment; compare fooling and non-fooling clusters to the truth.

    Examples:
        medhalbench medhallu analyze clusters --pubmedqa ori_pqal.json --candidates 5 --limit 20 --out clusters --model openai/gpt-4o-mini
    """

    pubmedqa: DataSource
    """PubMedQA: ori_pqal.json, a hub-layout file, or qiaojin/PubMedQA."""
    candidates: Count = 5
    """Candidates generated per question."""
    threshold: Share = 0.5
    """Bidirectional entailment that puts two answers in one cluster."""
    nli: str = "llm"
    """'llm' (an LLM judge: --model, else the embedded model), 'llm:MODEL', or a
    transformers NLI model name/path."""
    embedder: str = DEFAULT_EMBEDDER
    """Sentence-transformers model for the similarities."""
    limit: Count | None = None
    """Use the first N questions."""
    seed: int = 42
    """Seed of the generator's temperatures and the answer order."""
    out: OutputFile | None = None
    """Write per-question clusters and the table as JSON to this file."""
    cache: Cache = True
