"""The MedHal task: is a statement factual, given its optional context, and if not, why?"""

from __future__ import annotations

from collections.abc import Sequence

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
from medhalbench._prompts import read_prompt, read_template
from medhalbench._provenance import dataset_fingerprint, text_hash
from medhalbench.data import read_records
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
    FACTUAL_SCHEMA,
    factuality_prediction,
    factuality_verdict,
)
from medhalbench.medhal._settings import MedHalSettings
from medhalbench.outputs import (
    AuthorsCall,
    GivenOutput,
    Matched,
    generate_for_epoch,
    given_output,
    left_out_facts,
    match_outputs,
    one_user_message,
    reply_config,
    reply_solvers,
    text_key,
)
from medhalbench.registry import benchmark_task

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
    user = read_template(__package__, "judge_user.txt", template, {"context_block", "statement"})
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


def judge_outputs(samples: list[Sample], responses: str) -> Matched:
    """The samples a judge's replies (written elsewhere) answer, each with its reply, how
    many replies matched no sample, and the samples without a reply.

    Raises:
        DataError: A malformed row, or no reply matching the dataset.
    """
    outputs = [
        GivenOutput((output.id, text_key(output.statement)), output.reply, line)
        for line, output in read_records(JudgeOutput, responses)
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


PAPER_CALLS: dict[str, AuthorsCall] = {
    # `scripts/medhal_eval.py`: one raw prompt (their task description, then the context and
    # the statement), no chat template, through vLLM at temperature 0, top-p 1 and 4,096 new
    # tokens; a chat endpoint gets it as one user message (its chat template applied).
    "open": AuthorsCall(
        one_user_message("\n"), GenerateConfig(temperature=0.0, top_p=1.0, max_tokens=4096)
    ),
}
"""The authors' evaluation call (`--paper-call`; they called no API model under test)."""


@benchmark_task(MedHalSettings)
def medhal(settings: MedHalSettings) -> Task:
    """MedHal: is the statement factual (given its context), and why not?"""
    similarity = settings.similarity
    system, user = judge_prompts(settings.prompt, settings.template)
    records: Sequence[MedHalRecord | MedHalStatement] = (
        load_statements(settings.dataset, split=settings.split)
        if settings.predict
        else _labelled(settings.dataset, settings.split)
    )
    loaded = records
    if settings.sources:
        records = [r for r in records if r.source in settings.sources]
    records = records[: settings.limit] if settings.limit is not None else records
    if not records:
        held = sorted({r.source for r in loaded if r.source})
        raise DataError(
            f"--sources {', '.join(settings.sources)}: no sample of split '{settings.split}' "
            f"is from them (its sources: {', '.join(held) or 'none'})"
            if settings.sources
            else f"no samples in split '{settings.split}'",
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
    matched = None
    if settings.responses is not None:
        matched = judge_outputs(samples, settings.responses)
        samples = matched.samples
    extract_template = extractor_template(settings.extract_prompt)
    call = PAPER_CALLS[settings.paper_call] if settings.paper_call else None
    config = reply_config(
        call,
        GenerateConfig(
            temperature=settings.temperature,
            max_tokens=settings.max_tokens,
            response_schema=FACTUAL_SCHEMA if settings.structured else None,
            logprobs=True if settings.probabilities else None,
            top_logprobs=TOP_LOGPROBS if settings.probabilities else None,
        ),
    )
    return Task(
        version=MEDHAL_TASK_VERSION,
        dataset=MemoryDataset(samples, name="medhal"),
        solver=given_output()
        if settings.responses is not None
        else reply_solvers(call, judge(greedy=config.temperature == 0)),
        scorer=factuality_prediction(extract_template, settings.score_threshold)
        if settings.predict
        else factuality_verdict(similarity, extract_template, settings.score_threshold),
        metrics=None
        if settings.predict
        else [medhal_metrics(resamples=settings.bootstrap, figures="headline")],
        config=config,
        metadata={
            "embedder": similarity,
            "prompt_files": [
                f for f in (settings.prompt, settings.template, settings.extract_prompt) if f
            ],
            "dataset_fingerprint": dataset_fingerprint(settings.dataset),
            **left_out_facts(matched),
            "prompts": {"system": text_hash(system), "user": text_hash(user)},
        },
    )
