"""The MedHal task: is a statement factual, given its optional context, and if not, why?"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

from medhalbench._errors import DataError
from medhalbench._prompts import check_placeholders, read_prompt
from medhalbench._provenance import dataset_fingerprint, text_hash
from medhalbench.arguments import DataSource, InputFile, Means
from medhalbench.data import read_rows, validate_row
from medhalbench.embeddings import DEFAULT_EMBEDDER
from medhalbench.judging import (
    TOP_LOGPROBS,
    extractor_template,
)
from medhalbench.medhal._dataset import (
    JudgeOutput,
    MedHalRecord,
    MedHalStatement,
    MedHalStatementMetadata,
    load_medhal,
    load_statements,
    sample_metadata,
)
from medhalbench.medhal._metrics import medhal_metrics
from medhalbench.medhal._scorer import (
    DEFAULT_JUDGE_MAX_TOKENS,
    FACTUAL_SCHEMA,
    factuality_prediction,
    factuality_verdict,
)
from medhalbench.outputs import (
    GivenOutput,
    generate_for_epoch,
    given_output,
    match_outputs,
    nothing_generated,
    text_key,
)
from medhalbench.registry import benchmark_task
from medhalbench.settings import Bootstrap, ExtractPrompt, Generation, Outputs, SampleLimit
from medhalbench.statistics import DEFAULT_RESAMPLES

# Raised when a change can move the task's figures (prompts, scoring, sample selection).
MEDHAL_TASK_VERSION = "1.1.0"


def judge_messages(
    record: MedHalRecord | MedHalStatement, system: str, template: str
) -> list[ChatMessage]:
    """The judge's messages for one statement (shared with fine-tuning, so that training
    and evaluation see the same prompt)."""
    context_block = f"Context: {record.context}\n\n" if record.context else ""
    return [
        ChatMessageSystem(content=system),
        ChatMessageUser(
            content=template.format(context_block=context_block, statement=record.statement)
        ),
    ]


def judge_prompts(prompt: str | None = None, template: str | None = None) -> tuple[str, str]:
    """The system prompt and user template (packaged or the user's files)."""
    system = read_prompt(__package__, "judge_system.txt", prompt)
    user = read_prompt(__package__, "judge_user.txt", template)
    check_placeholders(user, {"context_block", "statement"}, source=template or "judge template")
    return system, user


def target_answer(record: MedHalRecord) -> str:
    """The reply a perfect judge gives (the fine-tuning target)."""
    if record.label:
        return "Factual: YES"
    return f"Factual: NO\nExplanation: {record.explanation or 'The statement is not supported.'}"


def _labelled(dataset: str, split: str) -> list[MedHalRecord]:
    try:
        return load_medhal(dataset, split=split)
    except DataError as ex:
        # A labelled sample's own fields: a file without them may be statements to judge.
        if ex.field in ("id", "label", "source") and ex.reason == "missing":
            raise DataError(
                "missing (a labelled MedHal sample has id, statement, label and source; to "
                "judge statements without labels, use predict-only: --predict)",
                path=ex.path,
                line=ex.line,
                field=ex.field,
            ) from None
        raise


def judge_outputs(samples: list[Sample], responses: str) -> tuple[list[Sample], int]:
    """The samples a judge's replies (written elsewhere) answer, each with its reply, and
    how many replies matched no sample.

    Raises:
        DataError: A malformed row, or no reply matching the dataset.
    """
    outputs = [
        GivenOutput((output.id, text_key(output.statement)), output.reply, line)
        for line, row in read_rows(responses)
        for output in [validate_row(JudgeOutput, row, path=responses, line=line)]
    ]
    return match_outputs(
        samples,
        outputs,
        lambda s: (str(s.id), text_key(s.metadata_as(MedHalStatementMetadata).statement)),
        path=responses,
    )


@solver
def judge(greedy: bool = False) -> Solver:
    """Generate the judge's reply; `greedy` also makes inspect's `hf/` provider decode greedily
    (it samples unless its `do_sample` is false, whatever the temperature)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if greedy:
            api = get_model().api
            if getattr(api, "do_sample", None) is True:
                api.do_sample = False  # type: ignore[attr-defined]
        return await generate_for_epoch(state, generate)

    return solve


@dataclass(frozen=True)
class MedHalSettings:
    """MedHal's settings: which statements, how the judge is asked and replies, and how its
    explanations are compared.

    Attributes:
        dataset: MedHal build folder, DatasetDict folder, JSONL/CSV/Parquet file, or hub id.
        responses: Score a judge's replies written elsewhere instead of generating
            (CSV/JSONL: id or statement, and reply); statements without a reply are left
            out.
        predict: Judge statements without labels (statement[, context, id, source]): a
            verdict and an explanation each, written as JSONL beside the log; no figures.
        split: Split to evaluate (build folders and DatasetDicts).
        limit: Use the first N samples.
        sources: Keep these sources (comma-separated, e.g. medqa,sumpubmed).
        prompt: File replacing the system prompt.
        template: File replacing the user template ({context_block}, {statement}).
        generation: How the judge replies (temperature 0: greedy decoding, also for hf/
            models).
        embedder: Sentence-transformers model for the explanation similarity (MedHal's code
            uses all-MiniLM-L6-v2); 'none' turns it off.
        structured: Ask for {"factual": "YES|NO", "explanation": ...} through the
            provider's constrained decoding (JSON schema) instead of free text.
        probabilities: Ask for log-probabilities and keep P(non-factual) per sample, for
            AUROC, average precision and calibration.
        bootstrap: Bootstrap resamples (over source items) for the 95% intervals (0: none).
        extract_prompt: File replacing the extractor's prompt ({question}, {choices},
            {reply}); the extractor reads what the strict reader cannot, when the
            extractor role names a model.
    """

    dataset: Annotated[DataSource, Means("samples")]
    responses: Outputs = None
    predict: Annotated[bool, Means("condition")] = False
    split: Annotated[str, Means("samples")] = "test"
    limit: SampleLimit = None
    sources: Annotated[list[str] | None, Means("samples")] = None
    prompt: Annotated[InputFile | None, Means("replies")] = None
    template: Annotated[InputFile | None, Means("replies")] = None
    generation: Generation = field(
        default_factory=lambda: Generation(0.0, DEFAULT_JUDGE_MAX_TOKENS)
    )
    embedder: Annotated[str | None, Means("judging")] = DEFAULT_EMBEDDER
    structured: Annotated[bool, Means("replies")] = False
    probabilities: Annotated[bool, Means("replies")] = False
    bootstrap: Bootstrap = DEFAULT_RESAMPLES
    extract_prompt: ExtractPrompt = None


@benchmark_task(MedHalSettings)
def medhal(settings: MedHalSettings) -> Task:
    """MedHal: is the statement factual (given its context), and why not?

    Examples:
        medhalbench eval medhal --dataset medhal_data --model openai/gpt-4o-mini
        medhalbench eval medhal --dataset medhal_data --sources qa,nli --limit 200 --model openai/gpt-4o-mini
    """
    similarity = None if settings.embedder in (None, "", "none") else settings.embedder
    if settings.responses is not None:
        nothing_generated(settings)
    system, user = judge_prompts(settings.prompt, settings.template)
    records: Sequence[MedHalRecord | MedHalStatement] = (
        load_statements(settings.dataset, split=settings.split)
        if settings.predict
        else _labelled(settings.dataset, settings.split)
    )
    if settings.sources:
        records = [r for r in records if r.source in settings.sources]
    records = records[: settings.limit] if settings.limit is not None else records
    if not records:
        raise DataError(
            f"no samples in split '{settings.split}'"
            + (f" for sources {', '.join(settings.sources)}" if settings.sources else ""),
            path=settings.dataset,
        )
    samples = [
        Sample(
            id=r.id,
            input=judge_messages(r, system, user),
            target="" if isinstance(r, MedHalStatement) else ("YES" if r.label else "NO"),
            metadata=sample_metadata(r),
        )
        for r in records
    ]
    unmatched = 0
    if settings.responses is not None:
        samples, unmatched = judge_outputs(samples, settings.responses)
    extract_template = extractor_template(settings.extract_prompt)
    return Task(
        version=MEDHAL_TASK_VERSION,
        dataset=MemoryDataset(samples, name="medhal"),
        solver=given_output()
        if settings.responses is not None
        else judge(greedy=settings.generation.temperature == 0),
        scorer=factuality_prediction(extract_template)
        if settings.predict
        else factuality_verdict(embedder=similarity, extract_template=extract_template),
        metrics=None if settings.predict else [medhal_metrics(resamples=settings.bootstrap)],
        config=GenerateConfig(
            temperature=settings.generation.temperature,
            max_tokens=settings.generation.max_tokens,
            response_schema=FACTUAL_SCHEMA if settings.structured else None,
            logprobs=True if settings.probabilities else None,
            top_logprobs=TOP_LOGPROBS if settings.probabilities else None,
        ),
        metadata={
            "embedder": similarity,
            "prompt_files": [
                f for f in (settings.prompt, settings.template, settings.extract_prompt) if f
            ],
            "dataset_fingerprint": dataset_fingerprint(settings.dataset),
            "outputs_not_in_dataset": unmatched,
            "prompts": {"system": text_hash(system), "user": text_hash(user)},
        },
    )
