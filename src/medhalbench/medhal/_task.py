"""The MedHal task: is a statement factual, given its optional context, and if not, why?"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, GenerateConfig
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState, generate

from medhalbench._errors import DataError
from medhalbench._prompts import check_placeholders, read_prompt
from medhalbench.data import MedHalRecord, load_medhal
from medhalbench.judging import parse_factual_verdict
from medhalbench.medhal._metrics import medhal_metrics

PROMPTS = "medhalbench.medhal"


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
    system = read_prompt(PROMPTS, "judge_system.txt", prompt)
    user = read_prompt(PROMPTS, "judge_user.txt", template)
    check_placeholders(user, {"context_block", "statement"}, source=template or "judge template")
    return system, user


def target_answer(record: MedHalRecord) -> str:
    """The reply a perfect judge gives (the fine-tuning target)."""
    if record.label:
        return "Factual: YES"
    return f"Factual: NO\nExplanation: {record.explanation or 'The statement is not supported.'}"


@scorer(metrics=[medhal_metrics()])
def factuality_verdict() -> Scorer:
    """Score a "Factual: YES/NO" reply; the prediction and explanations go in the metadata."""

    async def score(state: TaskState, target: Target) -> Score:
        verdict = parse_factual_verdict(state.output.completion if state.output else "")
        label = bool(state.metadata["label"])
        return Score(
            value=int(verdict.factual is not None and verdict.factual == label),
            answer=None if verdict.factual is None else ("YES" if verdict.factual else "NO"),
            explanation=verdict.explanation,
            reason=None if verdict.factual is not None else "unparseable",
            metadata={
                "label": label,
                "predicted": verdict.factual,
                "explanation": verdict.explanation,
                "gold_explanation": state.metadata.get("explanation"),
                "source": state.metadata.get("source"),
            },
        )

    return score


@task
def medhal(
    dataset: str,
    split: str = "test",
    limit: int | None = None,
    sources: str | None = None,
    prompt: str | None = None,
    template: str | None = None,
    temperature: float = 0.0,
    max_tokens: int = 256,
) -> Task:
    """MedHal statement factuality.

    Args:
        dataset: A MedHal build folder, DatasetDict folder, JSONL/CSV/Parquet file, or hub id.
        split: Split to evaluate (build folders and DatasetDicts).
        limit: Use the first N samples.
        sources: Comma-separated sources to keep (e.g. `medqa,sumpubmed`).
        prompt: File replacing the system prompt.
        template: File replacing the user template (`{context_block}`, `{statement}`).
        temperature: Judge temperature.
        max_tokens: Reply length limit.
    """
    system, user = judge_prompts(prompt, template)
    records = load_medhal(dataset, split=split)
    if sources:
        wanted = {s.strip() for s in sources.split(",")}
        records = [r for r in records if r.source in wanted]
    records = records[:limit] if limit is not None else records
    if not records:
        raise DataError(
            f"no samples in split '{split}'" + (f" for sources {sources}" if sources else ""),
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
                "synthetic": r.synthetic,
            },
        )
        for r in records
    ]
    return Task(
        dataset=MemoryDataset(samples, name="medhal"),
        solver=generate(),
        scorer=factuality_verdict(),
        metrics=[medhal_metrics()],
        config=GenerateConfig(temperature=temperature, max_tokens=max_tokens),
        metadata={"system": "medhal", "dataset": dataset, "split": split},
    )
