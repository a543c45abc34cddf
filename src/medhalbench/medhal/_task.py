"""The MedHal task: is a statement factual, given its optional context, and if not, why?"""

from __future__ import annotations

import anyio
from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    ResponseSchema,
    get_model,
)
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import JSONSchema

from medhalbench._errors import DataError
from medhalbench._prompts import check_placeholders, read_prompt
from medhalbench._provenance import dataset_fingerprint, text_hash
from medhalbench.arguments import (
    Count,
    DataSource,
    InputFile,
    NonNegative,
    Temperature,
)
from medhalbench.embeddings import DEFAULT_EMBEDDER, Embedder
from medhalbench.judging import (
    TOP_LOGPROBS,
    extract_verdict,
    extractor_template,
    verdict_probability,
)
from medhalbench.medhal._data import load_medhal
from medhalbench.medhal._metrics import medhal_metrics
from medhalbench.medhal._records import MedHalRecord
from medhalbench.medhal._verdicts import (
    FactualVerdict,
    paper_explanation,
    paper_factual_reading,
    parse_factual_verdict,
)
from medhalbench.registry import benchmark_task
from medhalbench.statistics import DEFAULT_RESAMPLES

# Raised when a change can move the task's figures (prompts, scoring, sample selection).
MEDHAL_TASK_VERSION = "1.0.0"


def judge_messages(record: MedHalRecord, system: str, template: str) -> list[ChatMessage]:
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


FACTUAL_SCHEMA = ResponseSchema(
    name="factuality_verdict",
    json_schema=JSONSchema(
        type="object",
        properties={
            "factual": JSONSchema(type="string", enum=["YES", "NO"]),
            "explanation": JSONSchema(type="string"),
        },
        required=["factual", "explanation"],
    ),
    description="Whether the statement is factual, and if not, why.",
    strict=True,
)
_YES_NO = {"yes": "yes", "no": "no"}


_MEANINGS = {"YES": "the statement is factual", "NO": "the statement is not factual"}
QUESTION = "Is the statement factual, given its context (YES or NO)?"


@scorer(metrics=[medhal_metrics()])
def factuality_verdict(
    embedder: str | None = DEFAULT_EMBEDDER, extract_template: str = ""
) -> Scorer:
    """Score a "Factual: YES/NO" reply.

    The metadata keeps our reading and who read it (`read_by`: `strict`, `extractor`, or
    none), the authors' reading (`paper_predicted`, the first yes/no word), both
    explanations, the source item, P(non-factual) when the provider returned
    log-probabilities, and, where both gold and prediction are non-factual with an
    explanation, the cosine similarity of the explanations' embeddings (`embedder`; None
    turns it off).

    Args:
        embedder: Sentence-transformers model for the explanation similarity.
        extract_template: The extractor's prompt, for replies the strict reader cannot read
            (used only when the `extractor` role names a model).
    """

    async def score(state: TaskState, target: Target) -> Score:
        reply = state.output.completion if state.output else ""
        verdict = parse_factual_verdict(reply)
        read_by = "strict" if verdict.factual is not None else None
        if verdict.factual is None and extract_template:
            extracted = await extract_verdict(
                reply, _MEANINGS, question=QUESTION, template=extract_template
            )
            if extracted is not None:
                read_by = "extractor"
                verdict = FactualVerdict(
                    extracted == "YES", None, f"read by the extractor ({verdict.reason})"
                )
        label = bool(state.metadata["label"])
        gold = state.metadata.get("explanation")
        similarity = paper_similarity = None
        if embedder and not label and verdict.factual is False and verdict.explanation and gold:
            model = Embedder(embedder)
            similarity = await anyio.to_thread.run_sync(model.similarity, verdict.explanation, gold)
        paper_predicted = paper_factual_reading(reply)
        # The authors compare explanations where they and the gold both say non-factual,
        # empty ones included (`MedHalParser.evaluate`).
        paper_pair = not label and paper_predicted is False
        if embedder and paper_pair:
            similarity_of = Embedder(embedder).similarity
            paper_similarity = await anyio.to_thread.run_sync(
                similarity_of, gold or "", paper_explanation(reply)
            )
        logprobs = (
            state.output.choices[0].logprobs if state.output and state.output.choices else None
        )
        return Score(
            value=int(verdict.factual is not None and verdict.factual == label),
            answer=None if verdict.factual is None else ("YES" if verdict.factual else "NO"),
            explanation=verdict.explanation,
            reason=None if verdict.factual is not None else f"unparseable: {verdict.reason}",
            metadata={
                "label": label,
                "predicted": verdict.factual,
                "read_by": read_by,
                "paper_predicted": paper_predicted,
                "paper_pair": paper_pair,
                "paper_explanation_similarity": paper_similarity,
                "explanation": verdict.explanation,
                "gold_explanation": gold,
                "explanation_similarity": similarity,
                "p_non_factual": verdict_probability(logprobs, _YES_NO, "no", "yes"),
                "source": state.metadata.get("source"),
                "item": state.metadata.get("item"),
            },
        )

    return score


@solver
def judge(greedy: bool = False) -> Solver:
    """Generate the judge's reply; `greedy` also makes inspect's `hf/` provider decode greedily
    (it samples unless its `do_sample` is false, whatever the temperature)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if greedy:
            api = get_model().api
            if getattr(api, "do_sample", None) is True:
                api.do_sample = False  # type: ignore[attr-defined]
        return await generate(state)

    return solve


@benchmark_task
def medhal(
    dataset: DataSource,
    split: str = "test",
    limit: Count | None = None,
    sources: list[str] | None = None,
    prompt: InputFile | None = None,
    template: InputFile | None = None,
    temperature: Temperature = 0.0,
    max_tokens: Count = 256,
    embedder: str | None = DEFAULT_EMBEDDER,
    structured: bool = False,
    probabilities: bool = False,
    bootstrap: NonNegative = DEFAULT_RESAMPLES,
    extract_prompt: InputFile | None = None,
) -> Task:
    """MedHal: is the statement factual (given its context), and why not?

    Args:
        dataset: MedHal build folder, DatasetDict folder, JSONL/CSV/Parquet file, or hub id.
        split: Split to evaluate (build folders and DatasetDicts).
        limit: Use the first N samples.
        sources: Keep these sources (comma-separated, e.g. medqa,sumpubmed).
        prompt: File replacing the system prompt.
        template: File replacing the user template ({context_block}, {statement}).
        temperature: Judge temperature (0: greedy decoding, also for hf/ models).
        max_tokens: Reply length limit.
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
    embedder = None if embedder in (None, "", "none") else embedder
    system, user = judge_prompts(prompt, template)
    records = load_medhal(dataset, split=split)
    if sources:
        records = [r for r in records if r.source in sources]
    records = records[:limit] if limit is not None else records
    if not records:
        raise DataError(
            f"no samples in split '{split}'"
            + (f" for sources {', '.join(sources)}" if sources else ""),
            path=dataset,
        )
    samples = [
        Sample(
            id=r.id,
            input=judge_messages(r, system, user),
            target="YES" if r.label else "NO",
            metadata={
                "label": r.label,
                "explanation": r.explanation,
                "source": r.source,
                "item": r.inner_id or r.id,
                "synthetic": r.synthetic,
            },
        )
        for r in records
    ]
    return Task(
        version=MEDHAL_TASK_VERSION,
        dataset=MemoryDataset(samples, name="medhal"),
        solver=judge(greedy=temperature == 0),
        scorer=factuality_verdict(
            embedder=embedder, extract_template=extractor_template(extract_prompt)
        ),
        metrics=[medhal_metrics(resamples=bootstrap)],
        config=GenerateConfig(
            temperature=temperature,
            max_tokens=max_tokens,
            response_schema=FACTUAL_SCHEMA if structured else None,
            logprobs=True if probabilities else None,
            top_logprobs=TOP_LOGPROBS if probabilities else None,
        ),
        metadata={
            "embedder": embedder,
            "prompt_files": [f for f in (prompt, template, extract_prompt) if f],
            "dataset_fingerprint": dataset_fingerprint(dataset),
            "prompts": {"system": text_hash(system), "user": text_hash(user)},
        },
    )
