"""The DAHL task: long answers to biomedical exam questions, scored by factual precision."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from inspect_ai import Epochs, Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig
from inspect_ai.solver import system_message

from medhalbench._errors import DataError
from medhalbench._prompts import read_prompt, read_template
from medhalbench._provenance import dataset_fingerprint, text_hash
from medhalbench.dahl._dataset import (
    DahlQuestion,
    DahlResponse,
    DahlSampleMetadata,
    load_dahl_questions,
)
from medhalbench.dahl._metrics import dahl_epochs, dahl_metrics
from medhalbench.dahl._paper import PAPER_SYSTEM, read_paper_prompts
from medhalbench.dahl._scorer import (
    CheckOptions,
    dahl_factuality,
    evidence_record,
    grounded_template,
)
from medhalbench.dahl._settings import DahlSettings
from medhalbench.data import read_records
from medhalbench.judging import extractor_template
from medhalbench.outputs import (
    AuthorsCall,
    epoch_generate,
    given_output,
    reply_config,
    reply_solvers,
)
from medhalbench.registry import benchmark_task
from medhalbench.settings import PaperCall

UNCATEGORISED = "uncategorised"

# Raised when a change can move the task's figures (prompts, scoring, sample selection).
DAHL_TASK_VERSION = "1.1.0"


def question_id(question: str) -> str:
    """A stable id for a question (its text's hash), used to match human judgements."""
    return hashlib.sha1(question.strip().encode("utf-8")).hexdigest()[:12]


def _unique(samples: list[Sample]) -> list[Sample]:
    seen: dict[str, int] = {}
    for sample in samples:
        base = str(sample.id)
        seen[base] = seen.get(base, 0) + 1
        if seen[base] > 1:
            sample.id = f"{base}-{seen[base]}"
    return samples


def _asked(sample: Sample) -> DahlSampleMetadata:
    return DahlSampleMetadata.model_validate(sample.metadata or {})


def question_samples(questions: Sequence[DahlQuestion]) -> list[Sample]:
    """One sample per question, to be answered by the model under test."""
    return _unique(
        [
            Sample(
                id=question_id(q.question),
                input=q.question,
                metadata=DahlSampleMetadata(
                    question=q.question, category=q.category, paper_id=q.paper_id
                ).stored(),
            )
            for q in questions
        ]
    )


def response_samples(path: str, categories: dict[str, str]) -> list[Sample]:
    """One sample per answer written elsewhere (CSV or JSONL with question and response)."""
    samples = []
    for _, r in read_records(DahlResponse, path):
        category = r.category or categories.get(r.question.strip(), UNCATEGORISED)
        samples.append(
            Sample(
                id=r.id or question_id(r.question),
                input=r.question,
                metadata=DahlSampleMetadata(
                    question=r.question, category=category, response=r.response
                ).stored(),
            )
        )
    return _unique(samples)


PAPER_CALLS: dict[PaperCall, AuthorsCall] = {
    # `generate_response_hf.py`: one prompt, f"instruction\nQUESTION: {question}\nANSWER: "
    # (their f-string sends the word "instruction", not the instruction), top-p 0.9,
    # temperature 0.6, 256 new tokens; a chat endpoint gets it as one user message.
    "open": AuthorsCall(
        lambda _, question: [
            ChatMessageUser(content=f"instruction\nQUESTION: {question}\nANSWER: ")
        ],
        GenerateConfig(temperature=0.6, top_p=0.9, max_tokens=256),
    ),
    # `generate_response_gpt.py`: "You are a helpful assistant.", then f"{instruction}\n
    # {question}", at temperature 0.6 and no token limit.
    "openai": AuthorsCall(
        lambda instruction, question: [
            ChatMessageSystem(content=PAPER_SYSTEM),
            ChatMessageUser(content=f"{instruction}\n {question}"),
        ],
        GenerateConfig(temperature=0.6),
    ),
}
"""The authors' answering call on each route (`--paper-call`)."""


@benchmark_task(DahlSettings)
def dahl(settings: DahlSettings) -> Task:
    """DAHL: long answers split into atomic facts, each judged true or false."""
    split_template = read_template(__package__, "split_user.txt", settings.split_prompt, {"text"})
    check_template = read_template(
        __package__, "check_user.txt", settings.check_prompt, {"statement"}
    )
    batch_template = read_template(
        __package__, "check_batch_user.txt", settings.check_batch_prompt, {"statements"}
    )
    grounded = grounded_template(settings.grounding, evidence_prompt=settings.evidence_prompt)
    check_template = grounded if grounded is not None else check_template
    answer_text = read_prompt(__package__, "answer_system.txt", settings.answer_prompt)
    paper_prompts = read_paper_prompts(settings.paper_prompts) if settings.paper_protocol else None
    call = PAPER_CALLS[settings.paper_call] if settings.paper_call else None
    if call:  # their instruction where it is given
        answer_text = (paper_prompts or {}).get("answer_instruction.txt", answer_text)
    wanted = settings.categories or None
    if settings.responses is not None:
        known = {}
        if settings.dataset != "github":
            known = {q.question.strip(): q.category for q in load_dahl_questions(settings.dataset)}
        samples = response_samples(settings.responses, known)
        # Answers to questions the dataset does not hold are kept (uncategorised) and counted.
        unknown_questions = (
            sum(_asked(s).question.strip() not in known for s in samples) if known else 0
        )
        if wanted:
            samples = [s for s in samples if _asked(s).category in {w.lower() for w in wanted}]
        samples = samples[: settings.limit] if settings.limit is not None else samples
        solver = [given_output()]
    else:
        unknown_questions = 0
        questions = load_dahl_questions(
            settings.dataset,
            categories=wanted,
            sample=settings.sample,
            seed=settings.seed,
            limit=settings.limit,
        )
        samples = question_samples(questions)
        solver = [system_message(answer_text), *reply_solvers(call, epoch_generate())]
    if not samples:
        raise DataError(
            "no questions left to evaluate", path=settings.responses or settings.dataset
        )
    return Task(
        version=DAHL_TASK_VERSION,
        dataset=MemoryDataset(samples, name="dahl"),
        solver=solver,
        scorer=dahl_factuality(
            split_template=split_template,
            checks=CheckOptions(
                mode=settings.check_mode,
                system=read_prompt(__package__, "check_system.txt"),
                unit_template=check_template,
                batch_template=batch_template,
                structured=settings.structured,
                probabilities=settings.probabilities,
                max_tokens=settings.check_max_tokens,
                score_threshold=settings.score_threshold,
            ),
            cache=settings.cache,
            normalise=not settings.raw_units,
            answer_instruction=answer_text,
            paper_protocol=settings.paper_protocol,
            extract_template=extractor_template(settings.extract_prompt),
            grounding=settings.grounding,
            paper_prompts=paper_prompts,
        ),
        metrics=[dahl_metrics(resamples=settings.bootstrap, figures="headline")],
        epochs=Epochs(settings.epochs, reducer=dahl_epochs()),
        config=reply_config(
            call, GenerateConfig(temperature=settings.temperature, max_tokens=settings.max_tokens)
        ),
        metadata={
            "questions_not_in_dataset": unknown_questions,
            "prompt_files": [
                f
                for f in (
                    settings.answer_prompt,
                    settings.split_prompt,
                    settings.check_prompt,
                    settings.check_batch_prompt,
                    settings.extract_prompt,
                    settings.evidence_prompt,
                    settings.paper_prompts,  # the authors' prompts, for the paper column
                )
                if f
            ],
            "dataset_fingerprint": dataset_fingerprint(settings.responses or settings.dataset),
            "evidence_index": evidence_record(settings.grounding),
            "prompts": {
                "answer": text_hash(answer_text),
                "split": text_hash(split_template),
                "check": text_hash(check_template),
                "check_batch": text_hash(batch_template),
            },
        },
    )
