"""Turning MedHallu rows into detection samples."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser

from medhalbench.medhallu._evidence import RetrievedKnowledge
from medhalbench.medhallu._records import MedHalluRecord
from medhalbench.medhallu._verdicts import DetectionLabel

Pairing = Literal["both", "random"]


# The two answers of a row share their prompt's prefix (system prompt, knowledge, question).
# Placing them this many samples apart lets an engine with a prompt cache reuse the prefix
# (the first has finished by the time the second starts), which adjacent samples, running
# at the same time, could not.
PREFIX_REUSE_DISTANCE = 8


def detection_samples(
    records: Sequence[MedHalluRecord],
    *,
    system_prompt: str,
    user_template: str,
    knowledge: bool,
    pairing: Pairing = "both",
    seed: int = 42,
    source: str = "",
    retrieved: Sequence[RetrievedKnowledge] | None = None,
) -> MemoryDataset:
    """Build the detection samples: the true answer (label 0) and the hallucinated one
    (label 1) of each row, or one of the two drawn at random with `pairing="random"`
    (as MedHallu's own script does).

    Rows come in a seeded shuffled order, in blocks of `PREFIX_REUSE_DISTANCE` rows: the
    block's first answers (each row's first one drawn at random), then its second answers.

    Args:
        records: MedHallu rows.
        system_prompt: The judge instructions.
        user_template: Template with `{question}`, `{answer}` (and `{knowledge}`).
        knowledge: Whether to give the PubMedQA context as knowledge.
        pairing: `both` answers of every row, or one `random` answer per row.
        seed: Seed of the shuffle and of the random pairing.
        source: Name of the dataset, kept in each sample's metadata.
        retrieved: Knowledge retrieved for each record (in the records' order), given in
            place of the gold abstract and kept in each sample's metadata.
    """
    rng = random.Random(seed)
    rows = list(enumerate(records))
    rng.shuffle(rows)
    per_row: list[list[Sample]] = []
    for index, record in rows:
        row_id = record.pubid or str(index + 1)
        answers = [
            ("ground_truth", record.ground_truth, DetectionLabel.FACTUAL),
            ("hallucinated", record.hallucinated_answer, DetectionLabel.HALLUCINATED),
        ]
        rng.shuffle(answers)
        if pairing == "random":
            answers = answers[:1]
        per_row.append(
            [
                Sample(
                    id=f"{row_id}-{kind}",
                    input=[
                        ChatMessageSystem(content=system_prompt),
                        ChatMessageUser(
                            content=user_template.format(
                                question=record.question,
                                answer=answer,
                                knowledge=retrieved[index].text
                                if retrieved
                                else record.knowledge_text
                                if knowledge
                                else "",
                            )
                        ),
                    ],
                    target=str(int(label)),
                    metadata={
                        "row_id": row_id,
                        "answer_kind": kind,
                        "label": int(label),
                        "difficulty": record.difficulty,
                        "category": record.category,
                        "question": record.question,
                        "answer": answer,
                        **(
                            {
                                "knowledge_passages": retrieved[index].passages,
                                "gold_in_knowledge": retrieved[index].gold_found,
                            }
                            if retrieved
                            else {}
                        ),
                    },
                )
                for kind, answer, label in answers
            ]
        )
    samples = [
        row[position]
        for start in range(0, len(per_row), PREFIX_REUSE_DISTANCE)
        for position in range(2)
        for row in per_row[start : start + PREFIX_REUSE_DISTANCE]
        if position < len(row)
    ]
    return MemoryDataset(samples, name=source or "medhallu", shuffled=True)
