"""DAHL's settings: the task's, its plan's, its builder's and its tools'. Light: the command line
reads them for its options and help without loading the benchmark."""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import Field, model_validator

from medhalbench.examples import illustrative
from medhalbench.settings import (
    COMMA_SEPARATED,
    BenchmarkSettings,
    BuilderSettings,
    ByProtocol,
    Count,
    DataSource,
    Fraction,
    Grounding,
    InputFile,
    LocalPath,
    Means,
    NotTaken,
    OutputFile,
    Outputs,
    Positive,
    ProtocolSettings,
    Qualifies,
    ReplyTemperature,
    ReplyTokens,
    SampleLimit,
    SampleSeed,
    ScoreThreshold,
    SettingProblem,
    Settings,
    Spelling,
    Temperature,
)

ANSWER_TEMPERATURE = 0.6
"""The model under test's temperature (DAHL's)."""
ANSWER_MAX_TOKENS = 256
"""The length of its answer (DAHL's 256 new tokens)."""
CheckMode = Literal["unit", "batch"]
"""One checker call per unit, or one per response."""
CHECKER_MAX_TOKENS = 16
"""The checker's verdict on one unit."""
PromptFolder = Annotated[str, LocalPath(file_okay=False, must_exist=True)]
"""A local folder of prompt files."""


class DahlSettings(BenchmarkSettings, Grounding):
    """DAHL: long answers split into atomic facts, each judged true or false. Model roles:
    `splitter` (answers into atomic units) and `checker` (true/false per unit).

    Examples:
        medhalbench eval dahl --dataset questions.csv --sample 0.1 --model openai/gpt-4o-mini --judge openai/gpt-4o-mini
        medhalbench eval dahl --dataset questions.csv --limit 20 --epochs 3 --model openai/gpt-4o-mini --splitter openai/gpt-4o-mini --checker perplexity/sonar
        medhalbench eval dahl --dataset questions.csv --limit 20 --evidence index/ --model openai/gpt-4o-mini --judge openai/gpt-4o-mini
    """

    example = illustrative("dahl_illustrative.csv")

    dataset: Annotated[DataSource, Means("samples")] = "github"
    """Questions CSV/JSONL (question, category[, paper_id]); 'github' downloads the authors'
    questions.csv."""
    responses: Outputs = Field(
        None,
        description="Score these answers (CSV/JSONL with question, response[, category]) "
        "instead of generating; categories come from the file or from the dataset when it is "
        "local.",
    )
    sample: Annotated[Fraction | None, Means("samples")] = None
    """Keep this seeded fraction of questions, stratified by category (the paper used
    0.1)."""
    categories: Annotated[list[str] | None, COMMA_SEPARATED, Means("samples")] = None
    """Keep these categories (comma-separated)."""
    limit: SampleLimit = Field(None, description="Keep at most N questions.")
    seed: SampleSeed = 42
    temperature: ReplyTemperature = ANSWER_TEMPERATURE
    max_tokens: ReplyTokens = ANSWER_MAX_TOKENS
    check_mode: Annotated[CheckMode, Means("judging")] = "unit"
    """One checker call per unit (concurrent), or one per response (a verdict count that
    differs from the unit count is a mismatch)."""
    answer_prompt: Annotated[InputFile | None, Means("replies")] = None
    """File replacing the answering instruction."""
    split_prompt: Annotated[InputFile | None, Means("judging")] = None
    """File replacing the splitter prompt ({text})."""
    check_prompt: Annotated[InputFile | None, Means("judging")] = None
    """File replacing the checker prompt ({statement})."""
    check_batch_prompt: Annotated[
        InputFile | None, Means("judging"), Qualifies("check_mode", "batch")
    ] = None
    """File replacing the batch checker prompt ({statements})."""
    score_threshold: ScoreThreshold = None
    raw_units: Annotated[bool, Means("judging")] = False
    """Check the splitter's units as written (no markdown stripping, no splitting of
    multi-sentence units, list introductions kept); default: normalised."""
    epochs: Annotated[Count, Means("replies")] = 1
    """Answers per question (sampled at --temperature); the score's interval then reflects
    both question and sampling variation."""
    check_max_tokens: Annotated[Count, Means("judging")] = CHECKER_MAX_TOKENS
    """Token limit of the checker's verdict on one unit (raise it for a checker that
    reasons before it answers)."""
    paper_protocol: Annotated[bool, Means("judging")] = True
    """Also judge each answer through the authors' own pipeline (their cleaning, units,
    reading and settings: no token limit for the splitter and the checker, no checker
    temperature) for the paper-protocol column, with extra splitter and checker calls."""
    structured: Annotated[bool, Means("judging")] = False
    """Ask the checker for {"verdict": "true|false|unknown"} through the provider's
    constrained decoding (JSON schema) instead of free text."""
    probabilities: Annotated[bool, Means("judging")] = False
    """Ask the checker for log-probabilities and keep P(false) per unit."""
    evidence_prompt: Annotated[InputFile | None, Means("judging"), Qualifies("evidence")] = None
    """File replacing the grounded checker prompt ({statement}, {passages})."""
    paper_prompts: Annotated[PromptFolder | None, Means("judging"), Qualifies("paper_protocol")] = (
        None
    )
    """A folder of the authors' prompts for the paper column (answer_instruction.txt,
    split_system.txt, split_user.txt with {text}, check_system.txt, check_user.txt with
    {statement}; each optional, ours where absent; the DAHL README says where theirs
    are)."""
    cache: Annotated[bool, Means("run")] = True
    """Cache splitter and checker calls."""

    @model_validator(mode="after")
    def _evidence_per_unit(self) -> Self:
        if self.evidence is not None and self.check_mode == "batch":
            raise SettingProblem(
                "evidence",
                "gives each unit its own passages: check one unit per call (check mode unit)",
            )
        if self.evidence is not None and self.check_prompt is not None:
            raise SettingProblem(
                "check_prompt",
                "is the closed-book checker's prompt; with evidence, give the grounded one as "
                "evidence_prompt ({statement}, {passages})",
            )
        asks = (self.check_prompt, self.check_batch_prompt, self.evidence_prompt)
        if self.score_threshold is not None and not any(asks):
            raise SettingProblem(
                "score_threshold",
                "needs the checker prompt that asks for a score: --check-prompt, "
                "--check-batch-prompt or --evidence-prompt",
            )
        return self


UNITS_PER_ANSWER = 11.0
"""Atomic units per answer assumed by plans (DAHL's responses had about 11)."""


class DahlPlanSettings(Settings):
    """What DAHL's plans assume."""

    units_per_answer: Positive = UNITS_PER_ANSWER
    """Atomic units per answer assumed by --dry-run's plan (DAHL's responses had about
    11)."""


THEIR_FAMILIES = "the paper's three rule families have no case-report rule"
"""Why `--cases` is not taken by `--protocol paper`."""
NO_LEARNED_STAGE = "the paper's three rule families have no learned stage"
"""Why `--learned` is not taken by `--protocol paper`."""
CaseRule = Annotated[
    bool | None,
    ByProtocol(False, NotTaken(THEIR_FAMILIES)),
    Field(
        description='Also drop references to a case report or its patient ("this patient", '
        '"the case presented"); the authors kept such questions (1.1% of their release).'
    ),
]
"""`--cases`: also drop references to a case report or its patient; off under `ours` unless
given, not taken by `paper` (the DAHL build's and `dahl filter`'s)."""


class DahlBuild(BuilderSettings):
    """Write DAHL exam questions from full-text papers, dropping context-dependent ones.
    `--protocol ours` drops what our checks catch (see the README); `paper` keeps every
    question, as the authors' hand filter had the last word, and lists what the paper's
    three rule families flag in review.csv.

    Examples:
        medhalbench build dahl --papers sumpubmed/text --out dahl_built --limit 10 --model openai/gpt-4o-mini
        medhalbench build dahl --papers papers.jsonl --out dahl_built --protocol paper --dry-run --model openai/gpt-4o-mini
    """

    papers: Annotated[str, LocalPath(must_exist=True)]
    """Folder of .txt papers (e.g. SumPubMed's text/) or JSONL with id, title, text."""
    cases: CaseRule = None
    limit: Count | None = None
    """Use the first N papers."""
    questions: Count = 10
    """Questions asked for per paper."""
    max_paper_chars: Count = 6000
    """Characters of each paper given to the generator."""
    prompt: InputFile | None = None
    """File replacing the builder prompt ({count}, {categories}, {paper})."""
    seed: int = 42
    """Generation seed."""
    temperature: Temperature = 0.7
    """Generation temperature."""
    concurrency: Count = 8
    """Papers in flight at once."""


class FilterRequest(ProtocolSettings):
    """Apply the DAHL builder's question checks to any question set, naming each drop's rule.
    `--protocol ours` (the builder's checks) keeps the questions that stand on their own and
    prints and writes each dropped one with the rule that dropped it; `paper` keeps every
    question, as the authors' hand review had the last word, and lists what the paper's
    three families flag for review.

    Examples:
        medhalbench dahl filter dahl_built/questions.csv --out kept
    """

    questions: Annotated[str, Spelling(positional=True), LocalPath(dir_okay=False, must_exist=True)]
    """A CSV or JSONL with a `question` column (e.g. DAHL's questions.csv)."""
    out: OutputFile
    """The CSV of kept rows (all columns of the input); the dropped rows, with their rule
    and the words it matched, go beside it as OUT.dropped.csv (under `paper`, the flagged
    rows as OUT.review.csv)."""
    cases: CaseRule = None
    learned: Annotated[bool | None, ByProtocol(True, NotTaken(NO_LEARNED_STAGE))] = None
    """Apply the learned stage after the rules (with 'ours'; its embedding model
    all-MiniLM-L6-v2 is local; when it cannot be loaded the command stops with one line,
    and --no-learned runs the rules alone)."""


class AgreementRequest(Settings):
    """Agreement of automated and human judgements: Pearson r of per-response precision
    (with p-value) and a paired t-test on atomic units per response.

    Examples:
        medhalbench dahl agreement --auto logs/run.eval --human human_labels.csv
    """

    auto: Annotated[str, LocalPath(dir_okay=False, must_exist=True)]
    """An inspect log of the dahl task."""
    human: InputFile
    """CSV/JSONL: id or question, human_true, human_units; or the answers of `medhalbench
    audit` on the log (run.audit.jsonl beside run.eval)."""
