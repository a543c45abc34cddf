"""The MedHallu detection task: can a model tell a hallucinated answer from the truth?"""

from __future__ import annotations

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import GenerateConfig, ResponseSchema
from inspect_ai.util import JSONSchema

from medhalbench._errors import DataError
from medhalbench._prompts import read_prompt, read_template
from medhalbench._provenance import dataset_fingerprint, text_hash
from medhalbench.data import read_records
from medhalbench.evidence import grounding_summary
from medhalbench.judging import TOP_LOGPROBS, extractor_template
from medhalbench.medhallu._dataset import (
    RETRIEVED_TEMPLATE,
    DetectorOutput,
    MedHalluSampleMetadata,
    detection_samples,
    load_medhallu,
    retrieved_knowledge,
)
from medhalbench.medhallu._metrics import detection_metrics
from medhalbench.medhallu._scorer import detection_verdict
from medhalbench.medhallu._settings import MedHalluSettings
from medhalbench.medhallu._verdicts import DetectionLabel
from medhalbench.outputs import (
    AuthorsCall,
    GivenOutput,
    Matched,
    epoch_generate,
    given_output,
    left_out_facts,
    match_outputs,
    one_user_message,
    reply_config,
    reply_solvers,
    text_key,
)
from medhalbench.registry import benchmark_task
from medhalbench.settings import PaperCall

# Raised when a change can move the task's figures (prompts, scoring, sample selection).
MEDHALLU_TASK_VERSION = "1.1.0"


def detection_schema(not_sure: bool) -> ResponseSchema:
    """The verdict's shape for constrained decoding: `{"verdict": 0|1}` (or 0|1|2)."""
    return ResponseSchema(
        name="detection_verdict",
        json_schema=JSONSchema(
            type="object",
            properties={
                "verdict": JSONSchema(type="integer", enum=[0, 1, 2] if not_sure else [0, 1])
            },
            required=["verdict"],
        ),
        description="0 if the answer is factual, 1 if it is hallucinated"
        + (", 2 if not sure" if not_sure else ""),
        strict=True,
    )


def _texts(kept: MedHalluSampleMetadata) -> tuple[str | None, str | None]:
    """A sample's question and answer as an output written elsewhere names them."""
    return text_key(kept.question), text_key(kept.answer)


def detector_outputs(samples: MemoryDataset, responses: str, *, not_sure: bool) -> Matched:
    """The samples a detector's outputs (written elsewhere) answer, each with its output,
    and how many outputs matched no sample.

    Raises:
        DataError: A malformed row, a not-sure verdict without `not_sure`, or no output
            matching the dataset.
    """
    outputs = []
    for line, output in read_records(DetectorOutput, responses):
        if output.verdict == DetectionLabel.NOT_SURE and not not_sure:
            raise DataError(
                "verdict 2 (not sure) needs the not-sure option (--not-sure)",
                path=responses,
                line=line,
                field="verdict",
            )
        outputs.append(
            GivenOutput(
                (output.id, (text_key(output.question), text_key(output.answer))), output.text, line
            )
        )
    return match_outputs(
        list(samples),
        outputs,
        lambda s: (
            str(s.id),
            _texts(s.metadata_as(MedHalluSampleMetadata)) if s.metadata else None,
        ),
        path=responses,
    )


PAPER_CALLS: dict[PaperCall, AuthorsCall] = {
    # `Detection/detection_vllm_notsurecase.py`: one user message, f"{system_prompt}
    # {user_prompt}", through vLLM at temperature 0.3, top-p 0.95, 512 new tokens ...
    "open": AuthorsCall(
        one_user_message(" "), GenerateConfig(temperature=0.3, top_p=0.95, max_tokens=512)
    ),
    # ... or, for OpenAI's models, the same message at temperature 0.3 and 4 tokens.
    "openai": AuthorsCall(one_user_message(" "), GenerateConfig(temperature=0.3, max_tokens=4)),
}
"""The authors' detection call on each route (`--paper-call`)."""


@benchmark_task(MedHalluSettings)
def medhallu(settings: MedHalluSettings) -> Task:
    """MedHallu hallucination detection: each row's true and hallucinated answers."""
    system_prompt = read_prompt(
        __package__,
        "detect_system_not_sure.txt" if settings.not_sure else "detect_system.txt",
        settings.prompt,
    )
    user_template = read_template(
        __package__,
        RETRIEVED_TEMPLATE
        if settings.evidence is not None
        else "detect_user_knowledge.txt"
        if settings.knowledge
        else "detect_user.txt",
        settings.template,
        {"question", "answer", "knowledge"} if settings.knowledge else {"question", "answer"},
        allowed={"question", "answer", "knowledge"},
    )
    if not settings.knowledge and "{knowledge}" in user_template:
        raise DataError(
            "the template uses {knowledge}, but no knowledge is given: add --knowledge "
            "(knowledge=true), or remove {knowledge} from the template",
            path=settings.template,
        )
    records = load_medhallu(
        settings.dataset,
        config=settings.config,
        split=settings.split,
        with_knowledge=settings.knowledge and settings.evidence is None,
    )
    if settings.difficulty:
        records = [r for r in records if r.difficulty in settings.difficulty]
    if settings.limit is not None:
        records = records[: settings.limit]
    if not records:
        raise DataError("no rows left after the difficulty filter", path=settings.dataset)
    retrieved = (
        retrieved_knowledge(records, settings.grounding) if settings.evidence is not None else None
    )
    call = PAPER_CALLS[settings.paper_call] if settings.paper_call else None
    samples = detection_samples(
        records,
        system_prompt=system_prompt,
        user_template=user_template,
        knowledge=settings.knowledge,
        pairing=settings.pairing,
        seed=settings.seed,
        source=str(settings.dataset),
        retrieved=retrieved,
        listed=call is not None,
    )
    matched = None
    if settings.responses is not None:
        matched = detector_outputs(samples, settings.responses, not_sure=settings.not_sure)
        samples = MemoryDataset(matched.samples, name=samples.name, shuffled=True)
    return Task(
        version=MEDHALLU_TASK_VERSION,
        dataset=samples,
        solver=given_output()
        if settings.responses is not None
        else reply_solvers(call, epoch_generate()),
        scorer=detection_verdict(
            not_sure=settings.not_sure,
            extract_template=extractor_template(settings.extract_prompt),
            score_threshold=settings.score_threshold,
        ),
        metrics=[
            detection_metrics(
                not_sure=settings.not_sure, resamples=settings.bootstrap, figures="headline"
            )
        ],
        config=reply_config(
            call,
            GenerateConfig(
                temperature=settings.temperature,
                max_tokens=settings.max_tokens,
                response_schema=detection_schema(settings.not_sure)
                if settings.structured
                else None,
                logprobs=True if settings.probabilities else None,
                top_logprobs=TOP_LOGPROBS if settings.probabilities else None,
            ),
        ),
        metadata={
            "prompt_files": [
                f for f in (settings.prompt, settings.template, settings.extract_prompt) if f
            ],
            "dataset_fingerprint": dataset_fingerprint(settings.dataset),
            "responses_fingerprint": dataset_fingerprint(settings.responses)
            if settings.responses
            else None,
            **left_out_facts(matched),
            "rows": len(records),
            "evidence_index": grounding_summary(settings.grounding),
            "prompts": {"system": text_hash(system_prompt), "user": text_hash(user_template)},
        },
    )
