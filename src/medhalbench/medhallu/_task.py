"""The MedHallu detection task: can a model tell a hallucinated answer from the truth?"""

from __future__ import annotations

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig, ResponseSchema
from inspect_ai.util import JSONSchema

from medhalbench._errors import DataError
from medhalbench._prompts import check_placeholders, read_prompt
from medhalbench._provenance import dataset_fingerprint, text_hash
from medhalbench.arguments import (
    Count,
    DataSource,
    InputFile,
    Temperature,
)
from medhalbench.data import read_rows, validate_row
from medhalbench.evidence import evidence_summary
from medhalbench.judging import TOP_LOGPROBS, extractor_template
from medhalbench.medhallu._dataset import (
    EVIDENCE_K,
    MEDHALLU_HUB,
    RETRIEVED_TEMPLATE,
    DetectorOutput,
    Difficulty,
    MedHalluConfig,
    Pairing,
    check_evidence,
    detection_samples,
    load_medhallu,
    retrieved_knowledge,
)
from medhalbench.medhallu._metrics import detection_metrics
from medhalbench.medhallu._scorer import detection_verdict
from medhalbench.medhallu._verdicts import DetectionLabel
from medhalbench.outputs import (
    GivenOutput,
    epoch_generate,
    given_output,
    match_outputs,
    nothing_generated,
    text_key,
)
from medhalbench.registry import benchmark_task
from medhalbench.statistics import DEFAULT_RESAMPLES, Resamples

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


def detector_outputs(
    samples: MemoryDataset, responses: str, *, not_sure: bool
) -> tuple[list[Sample], int]:
    """The samples a detector's outputs (written elsewhere) answer, each with its output,
    and how many outputs matched no sample.

    Raises:
        DataError: A malformed row, a not-sure verdict without `not_sure`, or no output
            matching the dataset.
    """
    outputs = []
    for line, row in read_rows(responses):
        output = validate_row(DetectorOutput, row, path=responses, line=line)
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
            (text_key(s.metadata["question"]), text_key(s.metadata["answer"]))
            if s.metadata
            else None,
        ),
        path=responses,
    )


DETECTION_TEMPERATURE = 0.3
DETECTION_MAX_TOKENS = 128


@benchmark_task
def medhallu(
    dataset: DataSource = MEDHALLU_HUB,
    responses: InputFile | None = None,
    config: MedHalluConfig = "pqa_labeled",
    split: str = "train",
    knowledge: bool = False,
    not_sure: bool = False,
    difficulty: list[Difficulty] | None = None,
    limit: Count | None = None,
    pairing: Pairing = "both",
    seed: int = 42,
    prompt: InputFile | None = None,
    template: InputFile | None = None,
    temperature: Temperature = DETECTION_TEMPERATURE,
    max_tokens: Count = DETECTION_MAX_TOKENS,
    structured: bool = False,
    probabilities: bool = False,
    bootstrap: Resamples = DEFAULT_RESAMPLES,
    extract_prompt: InputFile | None = None,
    evidence: DataSource | None = None,
    evidence_k: Count = EVIDENCE_K,
    evidence_rerank: bool = False,
) -> Task:
    """MedHallu hallucination detection: each row's true and hallucinated answers.

    Examples:
        medhalbench eval medhallu --dataset pqa_labeled.jsonl --model openai/gpt-4o-mini
        medhalbench eval medhallu --dataset pqa_labeled.jsonl --knowledge --not-sure --model openai/gpt-4o-mini
        medhalbench eval medhallu --dataset pqa_labeled.jsonl --limit 50 --dry-run --model openai/gpt-4o-mini

    Args:
        dataset: MedHallu hub id or local file (JSONL, CSV, Parquet, save_to_disk folder).
        responses: Score a detector's outputs written elsewhere instead of generating
            (CSV/JSONL: id, or question and answer; then reply or verdict 0/1/2); the
            dataset's answers without an output are left out.
        config: Hub config.
        split: Split to read.
        knowledge: Give the PubMedQA context to the detector.
        not_sure: Allow '2: not sure' as an answer; reports the response rate.
        difficulty: Keep rows of these difficulties (e.g. hard, or easy,medium).
        limit: Use the first N rows (two samples each with pairing both).
        pairing: Judge both answers of every row, or one at random (MedHallu's script).
        seed: Seed of the sample order and random pairing.
        prompt: File replacing the system prompt.
        template: File replacing the user template ({question}, {answer}, {knowledge}).
        temperature: Sampling temperature of the detector (MedHallu used 0.3).
        max_tokens: Token limit of the detector's reply.
        structured: Ask for the verdict as JSON ({"verdict": 0|1(|2)}) through the
            provider's constrained decoding (JSON schema); off: the paper's free-text
            protocol.
        probabilities: Ask for log-probabilities (embedded engine, vLLM, OpenAI), keep
            P(hallucinated) per sample and report AUROC, average precision and calibration.
        bootstrap: Bootstrap resamples (over rows) for the 95% intervals (0: none).
        extract_prompt: File replacing the extractor's prompt ({question}, {choices},
            {reply}); the extractor reads what the strict reader cannot, when the
            extractor role names a model.
        evidence: With knowledge, give the detector passages retrieved for the question
            instead of the gold abstract: an index folder (medhalbench index), a corpus
            (indexed for the run) or SCHEME:ADDRESS of a retriever plug-in.
        evidence_k: Passages retrieved per question with evidence.
        evidence_rerank: Re-rank the evidence's BM25 candidates by all-MiniLM-L6-v2
            embeddings (offline).
    """
    if responses is not None:
        nothing_generated(
            {
                "temperature": temperature != DETECTION_TEMPERATURE,
                "max_tokens": max_tokens != DETECTION_MAX_TOKENS,
                "structured": structured,
                "probabilities": probabilities,
                "prompt": prompt is not None,
                "template": template is not None,
            }
        )
    system_prompt = read_prompt(
        __package__, "detect_system_not_sure.txt" if not_sure else "detect_system.txt", prompt
    )
    check_evidence(
        evidence, knowledge=knowledge, evidence_k=evidence_k, evidence_rerank=evidence_rerank
    )
    user_template = read_prompt(
        __package__,
        RETRIEVED_TEMPLATE
        if evidence is not None
        else "detect_user_knowledge.txt"
        if knowledge
        else "detect_user.txt",
        template,
    )
    check_placeholders(
        user_template,
        {"question", "answer", "knowledge"} if knowledge else {"question", "answer"},
        allowed={"question", "answer", "knowledge"},
        source=template or "detection template",
    )
    if not knowledge and "{knowledge}" in user_template:
        raise DataError(
            "the template uses {knowledge}, but no knowledge is given: add --knowledge "
            "(knowledge=true), or remove {knowledge} from the template",
            path=template,
        )
    records = load_medhallu(dataset, config=config, split=split)
    if difficulty:
        records = [r for r in records if r.difficulty in difficulty]
    if limit is not None:
        records = records[:limit]
    if not records:
        raise DataError("no rows left after the difficulty filter", path=dataset)
    retrieved = (
        retrieved_knowledge(records, evidence, k=evidence_k, rerank=evidence_rerank)
        if evidence is not None
        else None
    )
    samples = detection_samples(
        records,
        system_prompt=system_prompt,
        user_template=user_template,
        knowledge=knowledge,
        pairing=pairing,
        seed=seed,
        source=str(dataset),
        retrieved=retrieved,
    )
    unmatched = 0
    if responses is not None:
        given, unmatched = detector_outputs(samples, responses, not_sure=not_sure)
        samples = MemoryDataset(given, name=samples.name, shuffled=True)
    return Task(
        version=MEDHALLU_TASK_VERSION,
        dataset=samples,
        solver=given_output() if responses is not None else epoch_generate(),
        scorer=detection_verdict(
            not_sure=not_sure, extract_template=extractor_template(extract_prompt)
        ),
        metrics=[detection_metrics(not_sure=not_sure, resamples=bootstrap)],
        config=GenerateConfig(
            temperature=temperature,
            max_tokens=max_tokens,
            response_schema=detection_schema(not_sure) if structured else None,
            logprobs=True if probabilities else None,
            top_logprobs=TOP_LOGPROBS if probabilities else None,
        ),
        metadata={
            "prompt_files": [f for f in (prompt, template, extract_prompt) if f],
            "dataset_fingerprint": dataset_fingerprint(dataset),
            "responses_fingerprint": dataset_fingerprint(responses) if responses else None,
            "outputs_not_in_dataset": unmatched,
            "rows": len(records),
            "evidence_index": evidence_summary(evidence, rerank=evidence_rerank)
            if evidence is not None
            else None,
            "prompts": {"system": text_hash(system_prompt), "user": text_hash(user_template)},
        },
    )
