"""The MedHallu detection task: can a model tell a hallucinated answer from the truth?"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig, ResponseSchema
from inspect_ai.solver import generate
from inspect_ai.util import JSONSchema

from medhalbench._errors import DataError
from medhalbench._prompts import check_placeholders, read_prompt
from medhalbench._provenance import dataset_fingerprint, text_hash
from medhalbench.judging import TOP_LOGPROBS
from medhalbench.medhallu._data import MEDHALLU_HUB, load_medhallu
from medhalbench.medhallu._dataset import Pairing, detection_samples, parse_difficulties
from medhalbench.medhallu._metrics import detection_metrics
from medhalbench.medhallu._scorer import detection_verdict
from medhalbench.statistics import DEFAULT_RESAMPLES

PROMPTS = "medhalbench.medhallu"

# Raised when a change can move the task's figures (prompts, scoring, sample selection).
MEDHALLU_TASK_VERSION = "1.0.0"


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


DETECTION_TEMPERATURE = 0.3
DETECTION_MAX_TOKENS = 128


@task
def medhallu(
    dataset: str = MEDHALLU_HUB,
    config: str = "pqa_labeled",
    split: str = "train",
    knowledge: bool = False,
    not_sure: bool = False,
    difficulty: str | None = None,
    limit: int | None = None,
    pairing: Pairing = "both",
    seed: int = 42,
    prompt: str | None = None,
    template: str | None = None,
    temperature: float = DETECTION_TEMPERATURE,
    max_tokens: int = DETECTION_MAX_TOKENS,
    structured: bool = False,
    probabilities: bool = False,
    bootstrap: int = DEFAULT_RESAMPLES,
) -> Task:
    """MedHallu hallucination detection.

    Args:
        dataset: Hub id or local MedHallu file (JSONL, CSV, Parquet, save_to_disk folder).
        config: Hub config, `pqa_labeled` or `pqa_artificial`.
        split: Split to read.
        knowledge: Give the PubMedQA context to the detector.
        not_sure: Allow "2: not sure" as an answer.
        difficulty: Keep only rows of these difficulties (`hard` or `easy,medium`).
        limit: Use the first N rows (each gives two samples with `pairing=both`).
        pairing: `both` answers per row (default) or one `random` answer per row.
        seed: Seed for the sample order and random pairing.
        prompt: File replacing the system prompt.
        template: File replacing the user template (`{question}`, `{answer}`, `{knowledge}`).
        temperature: Sampling temperature of the detector (MedHallu used 0.3).
        max_tokens: Token limit of the detector's reply.
        structured: Ask for `{"verdict": 0|1(|2)}` through the provider's constrained
            decoding (JSON schema) instead of free text (the paper's protocol).
        probabilities: Ask for log-probabilities and keep P(hallucinated) per sample,
            for AUROC, average precision and calibration.
        bootstrap: Bootstrap resamples (over rows) for the 95% intervals; 0: none.
    """
    if pairing not in ("both", "random"):
        raise DataError(f"unknown pairing '{pairing}' (expected both or random)", field="pairing")
    system_prompt = read_prompt(
        PROMPTS, "detect_system_not_sure.txt" if not_sure else "detect_system.txt", prompt
    )
    user_template = read_prompt(
        PROMPTS, "detect_user_knowledge.txt" if knowledge else "detect_user.txt", template
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
    wanted = parse_difficulties(difficulty)
    records = load_medhallu(dataset, config=config, split=split)
    if wanted is not None:
        records = [r for r in records if r.difficulty in wanted]
    if limit is not None:
        records = records[:limit]
    if not records:
        raise DataError("no rows left after the difficulty filter", path=dataset)
    return Task(
        version=MEDHALLU_TASK_VERSION,
        dataset=detection_samples(
            records,
            system_prompt=system_prompt,
            user_template=user_template,
            knowledge=knowledge,
            pairing=pairing,
            seed=seed,
            source=str(dataset),
        ),
        solver=generate(),
        scorer=detection_verdict(not_sure=not_sure),
        metrics=[detection_metrics(not_sure=not_sure, resamples=bootstrap)],
        config=GenerateConfig(
            temperature=temperature,
            max_tokens=max_tokens,
            response_schema=detection_schema(not_sure) if structured else None,
            logprobs=True if probabilities else None,
            top_logprobs=TOP_LOGPROBS if probabilities else None,
        ),
        metadata={
            "system": "medhallu",
            "knowledge": knowledge,
            "not_sure": not_sure,
            "pairing": pairing,
            "difficulty": difficulty,
            "prompt_file": prompt,
            "template_file": template,
            "structured": structured,
            "probabilities": probabilities,
            "bootstrap": bootstrap,
            "dataset": str(dataset),
            "dataset_fingerprint": dataset_fingerprint(dataset),
            "rows": len(records),
            "prompts": {"system": text_hash(system_prompt), "user": text_hash(user_template)},
        },
    )
