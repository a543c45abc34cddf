"""Turning MedHallu rows into detection samples."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser

from medhalbench._errors import DataError
from medhalbench.data import DIFFICULTIES, MedHalluRecord
from medhalbench.judging import DetectionLabel

Pairing = Literal["both", "random"]


def parse_difficulties(value: str | Sequence[str] | None) -> list[str] | None:
    """Parse a difficulty filter such as `"hard"` or `"easy,medium"`.

    Raises:
        DataError: An unknown difficulty name.
    """
    if value is None or value == "":
        return None
    names = [v.strip().lower() for v in (value.split(",") if isinstance(value, str) else value)]
    unknown = [n for n in names if n not in DIFFICULTIES]
    if unknown:
        raise DataError(
            f"unknown difficulty {', '.join(unknown)} (expected {', '.join(DIFFICULTIES)})",
            field="difficulty",
        )
    return names


def detection_samples(
    records: Sequence[MedHalluRecord],
    *,
    system_prompt: str,
    user_template: str,
    knowledge: bool,
    pairing: Pairing = "both",
    seed: int = 42,
    source: str = "",
) -> MemoryDataset:
    """Build the detection samples: the true answer (label 0) and the hallucinated one
    (label 1) of each row, or one of the two drawn at random with `pairing="random"`
    (as MedHallu's own script does), in a seeded shuffled order.

    Args:
        records: MedHallu rows.
        system_prompt: The judge instructions.
        user_template: Template with `{question}`, `{answer}` (and `{knowledge}`).
        knowledge: Whether to give the PubMedQA context as knowledge.
        pairing: `both` answers of every row, or one `random` answer per row.
        seed: Seed of the shuffle and of the random pairing.
        source: Name of the dataset, kept in each sample's metadata.
    """
    rng = random.Random(seed)
    samples: list[Sample] = []
    for index, record in enumerate(records):
        row_id = record.pubid or str(index + 1)
        answers = [
            ("ground_truth", record.ground_truth, DetectionLabel.FACTUAL),
            ("hallucinated", record.hallucinated_answer, DetectionLabel.HALLUCINATED),
        ]
        if pairing == "random":
            answers = [rng.choice(answers)]
        for kind, answer, label in answers:
            user = user_template.format(
                question=record.question,
                answer=answer,
                knowledge=record.knowledge_text if knowledge else "",
            )
            samples.append(
                Sample(
                    id=f"{row_id}-{kind}",
                    input=[ChatMessageSystem(content=system_prompt), ChatMessageUser(content=user)],
                    target=str(int(label)),
                    metadata={
                        "row_id": row_id,
                        "answer_kind": kind,
                        "label": int(label),
                        "difficulty": record.difficulty,
                        "category": record.category,
                        "question": record.question,
                    },
                )
            )
    rng.shuffle(samples)
    return MemoryDataset(samples, name=source or "medhallu", shuffled=True)
